/// A read-only set of 64-bit integers: open addressing with linear probing on a Fibonacci
/// (multiplicative) hash, load factor at most 1/2.
///
/// Hand-written because the loaders test millions of export rows against the feed's ids, and
/// `Set<Int64>` hashes every probe with seeded SipHash (it showed in perf of load-tickets);
/// swift-collections' hashed containers use the same `Hasher`. Ids here are not chosen by an
/// attacker who could aim at collisions (they come from our own feed), so a fixed
/// multiplicative hash is enough.
///
/// Dense small ids (the feed's artist ids: 200,000 below about 1,000,000) are kept as a bitmap
/// instead: 125 KB that stay in cache, where a hash table of 4 MB misses on nearly every probe
/// of millions of random favourites.
///
/// `@usableFromInline`, so that `contains` inlines into the loaders (another module inlines a
/// `package` type's `@inlinable` methods only when the type is `@usableFromInline`).
@usableFromInline
package struct IntegerSet: Sendable {
    /// Slot values; `empty` marks a free slot (the value `empty` itself is kept in `hasEmpty`).
    @usableFromInline var slots: [UInt64]
    @usableFromInline var hasEmpty = false
    @usableFromInline let shift: UInt64
    @usableFromInline static let empty: UInt64 = 0
    /// Bit `v` set for each `v` in the set, when every value is below `bitmapLimit`.
    @usableFromInline var bitmap: [UInt64] = []
    @usableFromInline let bitmapLimit: UInt64
    /// How many distinct values the set holds.
    package private(set) var count = 0

    /// A set of `values` (repeats are kept once).
    package init(_ values: some Sequence<UInt64>) {
        let list = Array(values)
        let largest = list.max() ?? 0
        // A bitmap when it is no larger than 8 bytes per value (the hash table's 16).
        if largest < UInt64(max(1 << 16, list.count * 64)) {
            bitmapLimit = largest + 1
            bitmap = [UInt64](repeating: 0, count: Int(largest / 64) + 1)
            for v in list where bitmap[Int(v >> 6)] & (1 << (v & 63)) == 0 {
                bitmap[Int(v >> 6)] |= 1 << (v & 63)
                count += 1
            }
            slots = []
            shift = 0
            return
        }
        bitmapLimit = 0
        var bits: UInt64 = 4
        while (1 << bits) < max(list.count, 8) * 2 { bits += 1 }
        slots = [UInt64](repeating: Self.empty, count: 1 << bits)
        shift = 64 - bits
        for v in list { insert(v) }
    }

    /// A set of signed values (stored by bit pattern).
    package init(_ values: some Sequence<Int64>) {
        self.init(values.lazy.map { UInt64(bitPattern: $0) })
    }

    @inlinable @inline(__always) func slot(_ v: UInt64) -> Int {
        Int(truncatingIfNeeded: (v &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private mutating func insert(_ v: UInt64) {
        if v == Self.empty {
            if !hasEmpty { count += 1 }
            hasEmpty = true
            return
        }
        let mask = slots.count - 1
        var s = slot(v)
        while true {
            let x = slots[s]
            if x == v { return }
            if x == Self.empty { break }
            s = (s + 1) & mask
        }
        slots[s] = v
        count += 1
    }

    /// Whether `v` is in the set (inlinable: the loaders call it per row from other modules).
    @inlinable @inline(__always)
    package func contains(_ v: UInt64) -> Bool {
        if bitmapLimit > 0 {
            guard v < bitmapLimit else { return false }
            return bitmap.withUnsafeBufferPointer { $0[Int(v >> 6)] & (1 << (v & 63)) != 0 }
        }
        if v == Self.empty { return hasEmpty }
        return slots.withUnsafeBufferPointer { b in
            let mask = b.count - 1
            var s = slot(v)
            while true {
                let x = b[s]
                if x == v { return true }
                if x == Self.empty { return false }
                s = (s + 1) & mask
            }
        }
    }

    /// Whether the signed value `v` is in the set.
    @inlinable @inline(__always)
    package func contains(_ v: Int64) -> Bool { contains(UInt64(bitPattern: v)) }
}
