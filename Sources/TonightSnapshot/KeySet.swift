import Foundation

/// The keys of one dataset, for reference checks: an open-addressing table of FNV-1a
/// hashes over the key bytes, which are kept (flat) for an exact comparison. Lookups by raw
/// bytes, no `String`, no allocation.
struct KeySet: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Slot: key index + 1 (0: empty).
    private var slots: [Int32]
    private var mask: Int

    init(capacity: Int = 1024) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        slots = [Int32](repeating: 0, count: n)
        mask = n - 1
    }

    var count: Int { ends.count }

    @inline(__always)
    static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in b {
            h ^= UInt64(c)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h ^ (h >> 29)
    }

    private func key(_ k: Int) -> Range<Int> { (k == 0 ? 0 : ends[k - 1])..<ends[k] }

    @inline(__always)
    private func equal(_ k: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let r = key(k)
        guard r.count == b.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            b.count == 0 || memcmp(all.baseAddress! + r.lowerBound, b.baseAddress!, b.count) == 0
        }
    }

    /// Adds a key (a repeat is ignored).
    mutating func insert(_ b: UnsafeBufferPointer<UInt8>) {
        if (count + 1) * 2 > slots.count { grow() }
        var i = Int(truncatingIfNeeded: Self.hash(b)) & mask
        while slots[i] != 0 {
            if equal(Int(slots[i]) - 1, b) { return }
            i = (i + 1) & mask
        }
        bytes.append(contentsOf: b)
        ends.append(bytes.count)
        slots[i] = Int32(ends.count)
    }

    mutating func insert(_ b: [UInt8]) {
        b.withUnsafeBufferPointer { insert($0) }
    }

    func contains(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = Int(truncatingIfNeeded: Self.hash(b)) & mask
        while slots[i] != 0 {
            if equal(Int(slots[i]) - 1, b) { return true }
            i = (i + 1) & mask
        }
        return false
    }

    private mutating func grow() {
        let n = slots.count * 2
        slots = [Int32](repeating: 0, count: n)
        mask = n - 1
        bytes.withUnsafeBufferPointer { all in
            for k in 0..<ends.count {
                let r = key(k)
                var i = Int(truncatingIfNeeded: Self.hash(UnsafeBufferPointer(rebasing: all[r]))) & mask
                while slots[i] != 0 { i = (i + 1) & mask }
                slots[i] = Int32(k + 1)
            }
        }
    }
}
