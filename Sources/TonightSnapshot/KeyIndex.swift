import TonightBase
import Foundation

/// The key index of a dataset held in memory: the first and last key of every frame, as raw
/// UTF-8 in one contiguous buffer, searched by binary search with byte comparison.
package struct KeyIndex: Sendable {
    /// Byte ranges into `keys`: first key of frame i at `bounds[2i]..<bounds[2i+1]`, last key
    /// at `bounds[2i+1]..<bounds[2i+2]`.
    private var keys: [UInt8] = []
    private var bounds: [Int32] = [0]
    private(set) var records: [Int] = []

    var count: Int { records.count }

    /// Reads and parses an index file (itself seekable zstd, every frame checked).
    package init(file path: String) throws {
        let indexFile = try SeekableZstdFile(path: path)
        var text: [UInt8] = []
        for i in 0..<indexFile.frames.count { text += try indexFile.frame(i) }
        try self.init(ndjson: text, path: path)
    }

    /// Parses the index file's NDJSON (`{"frame":N,"first":"…","last":"…","records":N}` per
    /// line, frames in order). Anything else is corruption.
    package init(ndjson: [UInt8], path: String) throws {
        try ndjson.withUnsafeBufferPointer { buf in
            var i = 0
            var frame = 0
            while i < buf.count {
                guard let p = memchr(buf.baseAddress! + i, 0x0A, buf.count - i) else {
                    throw SnapshotError(file: path, "index line \(frame + 1) is not terminated")
                }
                let nl = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - buf.baseAddress!
                try parseLine(UnsafeBufferPointer(rebasing: buf[i..<nl]), frame: frame, path: path)
                frame += 1
                i = nl + 1
            }
        }
    }

    /// One index line. Keys without escapes (every key this project writes) are compared and
    /// stored where they lie in the line; an escaped one is decoded first. A verification
    /// parses a line per frame, two million on a night's snapshot: an array per key and a
    /// `String` walk per literal were 2.6 % of its CPU.
    private mutating func parseLine(_ line: UnsafeBufferPointer<UInt8>, frame: Int, path: String) throws {
        func fail() -> SnapshotError { SnapshotError(file: path, "index line \(frame + 1) is malformed") }
        var i = 0
        func expect(_ s: StaticString) throws {
            let n = s.utf8CodeUnitCount
            guard line.count - i >= n, memcmp(line.baseAddress! + i, s.utf8Start, n) == 0 else { throw fail() }
            i += n
        }
        func integer() throws -> Int {
            var v = 0, digits = 0
            while i < line.count, line[i] >= 0x30, line[i] <= 0x39, digits < 18 {
                v = v * 10 + Int(line[i] - 0x30)
                i += 1
                digits += 1
            }
            guard digits > 0 else { throw fail() }
            return v
        }
        /// The key string at `i` (its opening quote): lent in place when it has no escape,
        /// else decoded into `decoded`.
        func key(_ decoded: inout [UInt8]) throws -> UnsafeBufferPointer<UInt8>? {
            if let p = JSONKey.plain(line, at: i) {
                i = p.end
                return UnsafeBufferPointer(rebasing: line[p.contents])
            }
            guard let (k, after) = JSONKey.decode(line, at: i) else { throw fail() }
            decoded = k
            i = after
            return nil
        }
        try expect(#"{"frame":"#)
        guard try integer() == frame else { throw SnapshotError(file: path, "index line \(frame + 1) names another frame") }
        try expect(#","first":"#)
        var firstDecoded: [UInt8] = [], lastDecoded: [UInt8] = []
        let firstLent = try key(&firstDecoded)
        try expect(#","last":"#)
        let lastLent = try key(&lastDecoded)
        try expect(#","records":"#)
        let n = try integer()
        try expect("}")
        guard i == line.count, n > 0 else { throw fail() }
        try firstDecoded.withUnsafeBufferPointer { fd in
            try lastDecoded.withUnsafeBufferPointer { ld in
                let first = firstLent ?? fd, last = lastLent ?? ld
                // Frames hold disjoint, increasing key ranges: previous last < first ≤ last.
                let afterPrevious = count == 0 || compare(first, slot: 2 * count - 1) > 0
                guard afterPrevious, !Self.precedes(last, first) else {
                    throw SnapshotError(file: path, "index line \(frame + 1): keys out of order")
                }
                keys.append(contentsOf: first)
                bounds.append(Int32(keys.count))
                keys.append(contentsOf: last)
                bounds.append(Int32(keys.count))
            }
        }
        records.append(n)
    }

    /// Whether `a` sorts before `b` by bytes.
    private static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = min(a.count, b.count)
        let c = n == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, n)
        return c != 0 ? c < 0 : a.count < b.count
    }

    func first(_ frame: Int) -> String { string(2 * frame) }
    func last(_ frame: Int) -> String { string(2 * frame + 1) }

    /// Whether frame `frame`'s first (or last) key is `key`, without copying either.
    func isFirst(_ key: [UInt8], of frame: Int) -> Bool { key.withUnsafeBufferPointer { isFirst($0, of: frame) } }
    func isLast(_ key: [UInt8], of frame: Int) -> Bool { key.withUnsafeBufferPointer { isLast($0, of: frame) } }
    func isFirst(_ key: UnsafeBufferPointer<UInt8>, of frame: Int) -> Bool { compare(key, slot: 2 * frame) == 0 }
    func isLast(_ key: UnsafeBufferPointer<UInt8>, of frame: Int) -> Bool { compare(key, slot: 2 * frame + 1) == 0 }

    private func string(_ slot: Int) -> String {
        String(decoding: keys[Int(bounds[slot])..<Int(bounds[slot + 1])], as: UTF8.self)
    }

    /// -1, 0, 1 as `key` sorts before, equal to or after the key in `slot`.
    private func compare(_ key: UnsafeBufferPointer<UInt8>, slot: Int) -> Int {
        keys.withUnsafeBufferPointer { k in
            let lo = Int(bounds[slot]), hi = Int(bounds[slot + 1])
            let n = min(key.count, hi - lo)
            let c = n == 0 ? 0 : memcmp(key.baseAddress!, k.baseAddress! + lo, n)
            if c != 0 { return c < 0 ? -1 : 1 }
            return key.count == hi - lo ? 0 : (key.count < hi - lo ? -1 : 1)
        }
    }

    /// The frame that would hold `key`, if any: the last frame whose first key is ≤ key,
    /// provided key ≤ its last key.
    package func frame(for key: String) -> Int? {
        var key = key
        return key.withUTF8 { k -> Int? in
            var lo = 0, hi = count  // find the first frame with first > key
            while lo < hi {
                let mid = (lo + hi) / 2
                if compare(k, slot: 2 * mid) >= 0 { lo = mid + 1 } else { hi = mid }
            }
            let f = lo - 1
            guard f >= 0, compare(k, slot: 2 * f + 1) <= 0 else { return nil }
            return f
        }
    }
}
