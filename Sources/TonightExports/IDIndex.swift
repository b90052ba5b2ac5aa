/// Interned string ids → dense indices, looked up by raw bytes: the FNV-1a hash of the bytes
/// keys an integer dictionary and the bytes kept in an arena settle collisions. Several times
/// faster than `[String: Int32]`, which builds a String and runs Unicode-aware hashing for
/// every one of millions of CSV rows.
struct IDIndex: Sendable {
    private var first: [UInt64: Int32] = [:]
    private var next: [Int32] = []
    private var arena: [UInt8] = []
    private var starts: [Int32] = [0]

    var count: Int { next.count }

    init(capacity: Int) {
        first.reserveCapacity(capacity)
        next.reserveCapacity(capacity)
        arena.reserveCapacity(capacity * 12)
        starts.reserveCapacity(capacity + 1)
    }

    @inline(__always) static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in b { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h
    }

    @inline(__always) private func equals(_ i: Int32, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let lo = Int(starts[Int(i)])
        let hi = Int(starts[Int(i) + 1])
        guard hi - lo == b.count else { return false }
        return arena.withUnsafeBufferPointer { a in
            b.count == 0 || memcmp(a.baseAddress! + lo, b.baseAddress!, b.count) == 0
        }
    }

    func find(_ b: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard var i = first[Self.hash(b)] else { return nil }
        while i >= 0 {
            if equals(i, b) { return i }
            i = next[Int(i)]
        }
        return nil
    }

    /// Adds an id; nil if it is already there.
    mutating func insert(_ b: UnsafeBufferPointer<UInt8>) -> Int32? {
        let h = Self.hash(b)
        if var i = first[h] {
            while i >= 0 {
                if equals(i, b) { return nil }
                i = next[Int(i)]
            }
        }
        let index = Int32(next.count)
        next.append(first[h] ?? -1)
        first[h] = index
        arena.append(contentsOf: b)
        starts.append(Int32(arena.count))
        return index
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
