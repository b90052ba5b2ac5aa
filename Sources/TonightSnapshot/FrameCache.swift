import Foundation

/// A decompressed frame with the start of every record line, ready for lookups.
struct DecodedFrame: Sendable {
    let bytes: [UInt8]
    /// Offsets of line starts, plus `bytes.count` at the end.
    let lineStarts: [Int32]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts: [Int32] = [0]
        bytes.withUnsafeBufferPointer { b in
            var i = 0
            while i < b.count, let p = memchr(b.baseAddress! + i, 0x0A, b.count - i) {
                i = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - b.baseAddress! + 1
                starts.append(Int32(i))
            }
        }
        if starts.last != Int32(bytes.count) { starts.append(Int32(bytes.count)) }
        lineStarts = starts
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

/// Recently read frames of one dataset, up to a byte budget, least recently used evicted
/// first. Thread-safe; decompression happens outside the lock.
final class FrameCache: @unchecked Sendable {
    private let lock = NSLock()
    private let budget: Int
    private var frames: [Int: (frame: DecodedFrame, used: UInt64)] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0

    init(budget: Int) { self.budget = budget }

    func get(_ i: Int) -> DecodedFrame? {
        lock.lock()
        defer { lock.unlock() }
        guard var e = frames[i] else { return nil }
        clock += 1
        e.used = clock
        frames[i] = e
        return e.frame
    }

    func put(_ i: Int, _ f: DecodedFrame) {
        guard budget > 0, f.bytes.count <= budget else { return }
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        if frames[i] == nil { bytes += f.bytes.count }
        frames[i] = (f, clock)
        if bytes > budget {
            // Evict the oldest quarter at once so eviction stays amortised O(1) per insert.
            let sorted = frames.sorted { $0.value.used < $1.value.used }
            for (k, v) in sorted.prefix(max(1, sorted.count / 4)) {
                frames[k] = nil
                bytes -= v.frame.bytes.count
            }
        }
    }
}
