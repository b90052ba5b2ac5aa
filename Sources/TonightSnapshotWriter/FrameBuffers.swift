import Foundation

/// One output buffer per compression worker, kept for the whole dataset: worker `w` writes
/// only buffer `w`, and the writer reads them after the workers are done. A fresh buffer
/// per batch and worker (4 MiB of frames at a time, gigabytes in all) cost a page fault
/// per 4 KiB touched and the kernel's zeroing of each page: ~3 % of the tickets stage.
final class FrameBuffers: @unchecked Sendable {
    private var buffers: [UnsafeMutableRawPointer?]
    private var capacities: [Int]

    init(workers: Int) {
        buffers = Array(repeating: nil, count: workers)
        capacities = Array(repeating: 0, count: workers)
    }

    deinit {
        for b in buffers { b?.deallocate() }
    }

    var workers: Int { buffers.count }

    /// Buffer `w` with room for at least `bytes` (its earlier contents are not kept).
    /// Only worker `w` may call this, and not while its bytes are being read.
    func buffer(_ w: Int, atLeast bytes: Int) -> UnsafeMutableRawPointer {
        if let b = buffers[w], capacities[w] >= bytes { return b }
        buffers[w]?.deallocate()
        let capacity = max(bytes, capacities[w] * 2)
        let b = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        buffers[w] = b
        capacities[w] = capacity
        return b
    }

    /// The first `count` bytes of buffer `w` (after its worker is done).
    func bytes(_ w: Int, _ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffers[w]! + range.lowerBound, count: range.count)
    }
}
