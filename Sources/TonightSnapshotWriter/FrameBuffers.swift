import Foundation

/// One output buffer per compression worker, kept for the whole dataset: worker `w` writes
/// only buffer `w`, and the writer reads them after the workers are done. A fresh buffer
/// per batch and worker (4 MiB of frames at a time, gigabytes in all) cost a page fault
/// per 4 KiB touched and the kernel's zeroing of each page.
///
/// The slots (address and capacity per worker) are raw memory allocated once, so that
/// workers growing their own buffers at the same time never write a shared Swift array.
final class FrameBuffers: @unchecked Sendable {
    private struct Slot {
        var base: UnsafeMutableRawPointer?
        var capacity: Int
    }

    private let slots: UnsafeMutablePointer<Slot>
    let workers: Int

    init(workers: Int) {
        self.workers = max(1, workers)
        slots = .allocate(capacity: self.workers)
        slots.initialize(repeating: Slot(base: nil, capacity: 0), count: self.workers)
    }

    deinit {
        for w in 0..<workers { slots[w].base?.deallocate() }
        slots.deinitialize(count: workers)
        slots.deallocate()
    }

    /// Buffer `w` with room for at least `bytes` (its earlier contents are not kept).
    /// Only worker `w` may call this, and not while its bytes are being read.
    func buffer(_ w: Int, atLeast bytes: Int) -> UnsafeMutableRawPointer {
        precondition(w >= 0 && w < workers, "FrameBuffers: no worker \(w)")
        if let b = slots[w].base, slots[w].capacity >= bytes { return b }
        slots[w].base?.deallocate()
        let capacity = max(bytes, slots[w].capacity * 2)
        let b = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        slots[w] = Slot(base: b, capacity: capacity)
        return b
    }

    /// Bytes `range` of buffer `w` (after its worker is done).
    func bytes(_ w: Int, _ range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(w >= 0 && w < workers && range.upperBound <= slots[w].capacity, "FrameBuffers: outside buffer \(w)")
        return UnsafeRawBufferPointer(start: slots[w].base! + range.lowerBound, count: range.count)
    }
}
