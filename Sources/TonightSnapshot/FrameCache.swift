import Foundation

/// A decompressed frame with the start of every record line, ready for lookups.
struct DecodedFrame: Sendable {
    let bytes: [UInt8]
    /// Offsets of line starts, plus `bytes.count` at the end.
    let lineStarts: [Int32]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts: [Int32] = []
        bytes.withUnsafeBufferPointer { Self.lineStarts(of: $0, into: &starts) }
        lineStarts = starts
    }

    /// The offsets of the line starts of `b`, plus `b.count` at the end, into `starts`
    /// (emptied first; its storage is kept).
    static func lineStarts(of b: UnsafeBufferPointer<UInt8>, into starts: inout [Int32]) {
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        var i = 0
        while i < b.count, let p = memchr(b.baseAddress! + i, 0x0A, b.count - i) {
            i = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - b.baseAddress! + 1
            starts.append(Int32(i))
        }
        if starts.last != Int32(b.count) { starts.append(Int32(b.count)) }
    }

    var lineCount: Int { lineStarts.count - 1 }

    /// Line `i` without its newline.
    func line(_ i: Int) -> ArraySlice<UInt8> { bytes[lineRange(i)] }

    /// The byte range of line `i` without its newline.
    func lineRange(_ i: Int) -> Range<Int> {
        let lo = Int(lineStarts[i]), hi = Int(lineStarts[i + 1])
        return lo..<(hi > lo && bytes[hi - 1] == 0x0A ? hi - 1 : hi)
    }

    /// The record whose line starts with `prefix` followed by `,` or `}`.
    func record(prefix: [UInt8]) -> ArraySlice<UInt8>? {
        bytes.withUnsafeBufferPointer { b -> ArraySlice<UInt8>? in
            prefix.withUnsafeBufferPointer { p -> ArraySlice<UInt8>? in
                for i in 0..<lineCount {
                    let lo = Int(lineStarts[i]), hi = Int(lineStarts[i + 1])
                    guard hi - lo > p.count, memcmp(b.baseAddress! + lo, p.baseAddress!, p.count) == 0 else { continue }
                    let next = b[lo + p.count]
                    if next == UInt8(ascii: ",") || next == UInt8(ascii: "}") { return line(i) }
                }
                return nil
            }
        }
    }
}

/// Recently read frames of one dataset, up to a byte budget, evicted by the CLOCK rule (a
/// frame read since the hand last passed gets a second chance): O(1) per lookup and insert,
/// where sorting by last use cost ~1 µs a lookup with small frames. Thread-safe;
/// decompression happens outside the lock.
final class FrameCache: @unchecked Sendable {
    private struct Slot {
        var frame: Int
        var value: DecodedFrame
        var referenced: Bool
    }

    private let lock = NSLock()
    private let budget: Int
    private let frames: Int
    /// The slot of each cached frame (-1: not cached); frame numbers are dense, so an array
    /// (4 bytes a frame, allocated on the first insert) replaces a hashed dictionary.
    private var slotOf: [Int32] = []
    private var slots: [Slot] = []
    private var hand = 0
    private var bytes = 0

    init(budget: Int, frames: Int) {
        self.budget = budget
        self.frames = frames
    }

    func get(_ i: Int) -> DecodedFrame? {
        guard budget > 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard i >= 0, i < slotOf.count, slotOf[i] >= 0 else { return nil }
        let s = Int(slotOf[i])
        slots[s].referenced = true
        return slots[s].value
    }

    func put(_ i: Int, _ f: DecodedFrame) {
        guard budget > 0, f.bytes.count <= budget, i >= 0, i < frames else { return }
        lock.lock()
        defer { lock.unlock() }
        if slotOf.isEmpty { slotOf = Array(repeating: -1, count: frames) }
        if slotOf[i] >= 0 {
            slots[Int(slotOf[i])].referenced = true
            return
        }
        // Make room: the hand clears second chances and takes the first slot without one.
        while bytes + f.bytes.count > budget, !slots.isEmpty {
            if hand >= slots.count { hand = 0 }
            if slots[hand].referenced {
                slots[hand].referenced = false
                hand += 1
                continue
            }
            let victim = slots[hand]
            slotOf[victim.frame] = -1
            bytes -= victim.value.bytes.count
            let last = slots.count - 1
            if hand != last {
                slots[hand] = slots[last]
                slotOf[slots[hand].frame] = Int32(hand)
            }
            slots.removeLast()
        }
        slotOf[i] = Int32(slots.count)
        slots.append(Slot(frame: i, value: f, referenced: false))
        bytes += f.bytes.count
    }
}
