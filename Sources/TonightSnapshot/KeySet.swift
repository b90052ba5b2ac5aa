import Foundation

/// The keys of one dataset, for reference checks: an open-addressing table over the key
/// bytes (FNV-1a). Each slot holds the full hash and, for keys of at most 16 bytes (event ids,
/// artist and venue ids), the key itself, so that a lookup touches one slot: a verification
/// pass does hundreds of millions of lookups, and following a slot to a separate key array
/// cost a cache miss each. Longer keys are compared against the flat key bytes. A class, so
/// that lookups pass one reference around; it is filled by one thread, then only read (hence
/// `@unchecked Sendable`).
final class KeySet: @unchecked Sendable {
    private struct Slot {
        /// The key's first 16 bytes, zero-padded (when it has at most 16).
        var low: UInt64 = 0
        var high: UInt64 = 0
        var hash: UInt64 = 0
        /// Key index + 1 (0: empty).
        var index: Int32 = 0
        var length: Int32 = 0
    }

    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var slots: [Slot]
    private var mask: Int

    init(capacity: Int = 1024) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        slots = [Slot](repeating: Slot(), count: n)
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

    /// The first 16 bytes of `b`, zero-padded.
    @inline(__always)
    private static func words(_ b: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var w: (UInt64, UInt64) = (0, 0)
        if let base = b.baseAddress {
            withUnsafeMutableBytes(of: &w) { $0.baseAddress!.copyMemory(from: base, byteCount: min(16, b.count)) }
        }
        return w
    }

    private func key(_ k: Int) -> Range<Int> { (k == 0 ? 0 : ends[k - 1])..<ends[k] }

    @inline(__always)
    private func matches(_ s: Slot, _ b: UnsafeBufferPointer<UInt8>, _ h: UInt64, _ w: (UInt64, UInt64)) -> Bool {
        guard s.hash == h, Int(s.length) == b.count else { return false }
        if b.count <= 16 { return s.low == w.0 && s.high == w.1 }
        let r = key(Int(s.index) - 1)
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + r.lowerBound, b.baseAddress!, b.count) == 0 }
    }

    /// Adds a key (a repeat is ignored).
    func insert(_ b: UnsafeBufferPointer<UInt8>) {
        if (count + 1) * 2 > slots.count { grow() }
        let h = Self.hash(b), w = Self.words(b)
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i].index != 0 {
            if matches(slots[i], b, h, w) { return }
            i = (i + 1) & mask
        }
        bytes.append(contentsOf: b)
        ends.append(bytes.count)
        slots[i] = Slot(low: w.0, high: w.1, hash: h, index: Int32(ends.count), length: Int32(b.count))
    }

    func insert(_ b: [UInt8]) {
        b.withUnsafeBufferPointer { insert($0) }
    }

    func contains(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let h = Self.hash(b), w = Self.words(b)
        return slots.withUnsafeBufferPointer { table in
            var i = Int(truncatingIfNeeded: h) & mask
            while table[i].index != 0 {
                if matches(table[i], b, h, w) { return true }
                i = (i + 1) & mask
            }
            return false
        }
    }

    private func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        mask = slots.count - 1
        for s in old where s.index != 0 {
            var i = Int(truncatingIfNeeded: s.hash) & mask
            while slots[i].index != 0 { i = (i + 1) & mask }
            slots[i] = s
        }
    }
}
