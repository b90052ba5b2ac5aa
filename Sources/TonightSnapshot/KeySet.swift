import Foundation

/// The keys of one dataset, for reference checks: an open-addressing table over the key
/// bytes. Each slot holds the full hash and, for keys of at most 16 bytes (event ids, artist
/// and venue ids), the key itself, so that a lookup touches one slot: a verification pass does
/// hundreds of millions of lookups, and following a slot to a separate key array cost a cache
/// miss each. Longer keys are compared against the flat key bytes.
///
/// A class that owns its memory (freed in `deinit`); it is filled by one thread, then only
/// read (hence `@unchecked Sendable`). Hot loops take a `lookup` view: plain pointers, so a
/// lookup pays no reference counting and no exclusivity check (those were a fifth of a
/// verification pass when lookups went through the class).
final class KeySet: @unchecked Sendable {
    struct Slot {
        /// The key's first 16 bytes, zero-padded (when it has at most 16).
        var low: UInt64 = 0
        var high: UInt64 = 0
        var hash: UInt64 = 0
        /// Key index + 1 (0: empty).
        var index: Int32 = 0
        var length: Int32 = 0
    }

    private var slots: UnsafeMutableBufferPointer<Slot>
    /// Every key's bytes, one after another, and where each ends (only long keys are read).
    private var bytes: UnsafeMutableBufferPointer<UInt8>
    private var byteCount = 0
    private var ends: UnsafeMutableBufferPointer<Int>
    /// Keys in the 32-byte slots.
    private var generalCount = 0
    /// Keys held, in all tables.
    var count: Int { generalCount + bitCount + hexCount + (hexHasMax ? 1 : 0) }
    /// Canonical decimal keys below `Compact.bitLimit`, one bit each.
    var bits: UnsafeMutableBufferPointer<UInt64>
    /// 16-digit upper-case hex keys as their value + 1 (0: empty); `UInt64.max` in `hexHasMax`.
    var hexSlots: UnsafeMutableBufferPointer<UInt64>
    var bitCount = 0
    var hexCount = 0
    var hexHasMax = false

    init(capacity: Int = 1024) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        slots = .allocate(capacity: n)
        slots.initialize(repeating: Slot())
        bytes = .allocate(capacity: max(64, capacity * 8))
        ends = .allocate(capacity: max(16, capacity))
        bits = .allocate(capacity: 1)
        bits.initialize(repeating: 0)
        hexSlots = .allocate(capacity: 16)
        hexSlots.initialize(repeating: 0)
    }

    deinit {
        slots.deallocate()
        bytes.deallocate()
        ends.deallocate()
        bits.deallocate()
        hexSlots.deallocate()
    }

    /// A read-only view for lookups, valid while this set is alive and not changed.
    var lookup: Lookup {
        Lookup(slots: UnsafePointer(slots.baseAddress!), mask: slots.count - 1, bytes: UnsafePointer(bytes.baseAddress!),
               ends: UnsafePointer(ends.baseAddress!), bits: UnsafePointer(bits.baseAddress!), bitWords: bits.count,
               hexSlots: UnsafePointer(hexSlots.baseAddress!), hexMask: hexSlots.count - 1, hexHasMax: hexHasMax)
    }

    /// Pointers into a `KeySet` (see `lookup`).
    struct Lookup {
        let slots: UnsafePointer<Slot>
        let mask: Int
        let bytes: UnsafePointer<UInt8>
        let ends: UnsafePointer<Int>
        let bits: UnsafePointer<UInt64>
        let bitWords: Int
        let hexSlots: UnsafePointer<UInt64>
        let hexMask: Int
        let hexHasMax: Bool

        @inline(__always)
        func contains(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            if let v = Compact.decimal(b) {
                let word = v >> 6
                return word < bitWords && bits[word] & (1 << UInt64(v & 63)) != 0
            }
            if let v = Compact.hex16(b) { return containsHex(v) }
            return containsGeneral(b)
        }

        @inline(__always)
        func containsHex(_ v: UInt64) -> Bool {
            if v == .max { return hexHasMax }
            var i = Compact.slot(v, hexMask)
            while hexSlots[i] != 0 {
                if hexSlots[i] == v &+ 1 { return true }
                i = (i + 1) & hexMask
            }
            return false
        }

        /// A key of neither compact shape, in the 32-byte slots.
        @inline(__always)
        func containsGeneral(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            let w = KeySet.words(b), h = KeySet.hash(b, w)
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i].index != 0 {
                if matches(slots[i], b, h, w) { return true }
                i = (i + 1) & mask
            }
            return false
        }

        @inline(__always)
        func matches(_ s: Slot, _ b: UnsafeBufferPointer<UInt8>, _ h: UInt64, _ w: (UInt64, UInt64)) -> Bool {
            guard s.hash == h, Int(s.length) == b.count else { return false }
            if b.count <= 16 { return s.low == w.0 && s.high == w.1 }
            let k = Int(s.index) - 1
            let start = k == 0 ? 0 : ends[k - 1]
            return memcmp(bytes + start, b.baseAddress!, b.count) == 0
        }
    }

    /// The hash of a key: its two first words mixed with its length for keys of at most 16
    /// bytes (a few multiplications instead of one per byte), FNV-1a over the bytes beyond.
    @inline(__always)
    static func hash(_ b: UnsafeBufferPointer<UInt8>, _ w: (UInt64, UInt64)) -> UInt64 {
        var h = (w.0 ^ UInt64(b.count) &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 31) ^ w.1) &* 0x94D0_49BB_1331_11EB
        if b.count > 16 {
            for c in b[16...] {
                h ^= UInt64(c)
                h = h &* 0x0000_0100_0000_01b3
            }
        }
        return h ^ (h >> 29)
    }

    /// The first 16 bytes of `b`, zero-padded.
    @inline(__always)
    static func words(_ b: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var w: (UInt64, UInt64) = (0, 0)
        if let base = b.baseAddress {
            withUnsafeMutableBytes(of: &w) { $0.baseAddress!.copyMemory(from: base, byteCount: min(16, b.count)) }
        }
        return w
    }

    /// Adds a key (a repeat is ignored).
    func insert(_ b: UnsafeBufferPointer<UInt8>) {
        if let v = Compact.decimal(b) {
            insertBit(v)
        } else if let v = Compact.hex16(b) {
            insertHex(v)
        } else {
            insertGeneral(b)
        }
    }

    private func insertGeneral(_ b: UnsafeBufferPointer<UInt8>) {
        if (generalCount + 1) * 2 > slots.count { grow() }
        let w = Self.words(b), h = Self.hash(b, w)
        let view = lookup
        var i = Int(truncatingIfNeeded: h) & view.mask
        while slots[i].index != 0 {
            if view.matches(slots[i], b, h, w) { return }
            i = (i + 1) & view.mask
        }
        if byteCount + b.count > bytes.count { bytes = Self.enlarged(bytes, to: byteCount + b.count, used: byteCount) }
        if generalCount == ends.count { ends = Self.enlarged(ends, to: generalCount + 1, used: generalCount) }
        if let base = b.baseAddress { (bytes.baseAddress! + byteCount).update(from: base, count: b.count) }
        byteCount += b.count
        ends[generalCount] = byteCount
        generalCount += 1
        slots[i] = Slot(low: w.0, high: w.1, hash: h, index: Int32(generalCount), length: Int32(b.count))
    }

    func insert(_ b: [UInt8]) {
        b.withUnsafeBufferPointer { insert($0) }
    }

    func contains(_ b: UnsafeBufferPointer<UInt8>) -> Bool { lookup.contains(b) }

    /// A buffer of at least `needed` (doubling), its first `used` elements copied.
    private static func enlarged<T>(_ old: UnsafeMutableBufferPointer<T>, to needed: Int, used: Int) -> UnsafeMutableBufferPointer<T> {
        var n = old.count * 2
        while n < needed { n *= 2 }
        let new = UnsafeMutableBufferPointer<T>.allocate(capacity: n)
        if used > 0 { new.baseAddress!.moveInitialize(from: old.baseAddress!, count: used) }
        old.deallocate()
        return new
    }

    private func grow() {
        let old = slots
        slots = .allocate(capacity: old.count * 2)
        slots.initialize(repeating: Slot())
        let mask = slots.count - 1
        for s in old where s.index != 0 {
            var i = Int(truncatingIfNeeded: s.hash) & mask
            while slots[i].index != 0 { i = (i + 1) & mask }
            slots[i] = s
        }
        old.deallocate()
    }
}
