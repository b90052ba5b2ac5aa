import TonightBase
import TonightCore

/// Interned string ids → dense indices, looked up by raw bytes: the FNV-1a hash of the bytes
/// keys an integer dictionary and the bytes kept in an arena settle collisions. Several times
/// faster than `[String: Int32]`, which builds a String and runs Unicode-aware hashing for
/// every one of millions of CSV rows.
struct IDIndex: Sendable {
    // Open addressing on the FNV-1a hash (linear probing, load factor <= 1/2). A slot is one
    // 8-byte word: the hash's high 32 bits, then index + 1 (0 = empty), so a probe costs one
    // cache miss and most mismatches never touch the arena. Probing wraps within the half of
    // the slot array where it starts, so `build` can fill the two halves on two cores.
    private var slots: [UInt64]
    private var mask: Int
    private var halfMask: Int
    private var halfCounts = (0, 0)
    private var arena: [UInt8] = []
    private var starts: [Int32] = [0]
    private(set) var count = 0

    init(capacity: Int) {
        var size = 16
        while size < max(capacity, 8) * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        halfMask = size / 2 - 1
        arena.reserveCapacity(capacity * 12)
        starts.reserveCapacity(capacity + 1)
    }

    /// The slot after `slot`, wrapping within its half.
    @inline(__always) private func probe(after slot: Int) -> Int { (slot & ~halfMask) | ((slot + 1) & halfMask) }

    @inline(__always) static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in b { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h ^ (h >> 29)
    }

    @inline(__always) private static func tag(_ h: UInt64) -> UInt64 { h & 0xFFFF_FFFF_0000_0000 }

    /// Whether id `i` has exactly the bytes `b`.
    @inline(__always) func equals(_ i: Int32, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        starts.withUnsafeBufferPointer { starts in
            let lo = Int(starts[Int(i)])
            let hi = Int(starts[Int(i) + 1])
            guard hi - lo == b.count else { return false }
            return arena.withUnsafeBufferPointer { a in
                let n = b.count
                guard n > 0 else { return true }
                let x = UnsafeRawPointer(a.baseAddress! + lo), y = UnsafeRawPointer(b.baseAddress!)
                // Ids of 8 to 16 bytes (most of them): two overlapping words, no call.
                if n >= 8 && n <= 16 {
                    return x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
                        && x.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                }
                return memcmp(x, y, n) == 0
            }
        }
    }

    func find(_ b: UnsafeBufferPointer<UInt8>) -> Int32? { find(b, hash: Self.hash(b)) }

    /// `find` with the bytes' `hash` computed beforehand.
    func find(_ b: UnsafeBufferPointer<UInt8>, hash h: UInt64) -> Int32? {
        let t = Self.tag(h)
        return slots.withUnsafeBufferPointer { slots -> Int32? in
            var slot = Int(truncatingIfNeeded: h) & mask
            while true {
                let v = slots[slot]
                if v == 0 { return nil }
                if v & 0xFFFF_FFFF_0000_0000 == t {
                    let i = Int32(truncatingIfNeeded: v) - 1
                    if equals(i, b) { return i }
                }
                slot = probe(after: slot)
            }
        }
    }

    mutating func insert(_ b: UnsafeBufferPointer<UInt8>) -> Int32? { insert(b, hash: Self.hash(b)) }

    /// `insert` with the bytes' `hash` computed beforehand (on another core). Returns the new
    /// id's index, or nil if the id is already there.
    mutating func insert(_ b: UnsafeBufferPointer<UInt8>, hash h: UInt64) -> Int32? {
        // Grown at half load overall, or at three quarters in one half (hashes that favour a
        // half must not fill it: a probe in a full half would never end).
        if count * 2 >= slots.count || max(halfCounts.0, halfCounts.1) * 4 >= slots.count / 2 * 3 { grow() }
        let t = Self.tag(h)
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let v = slots[slot]
            if v == 0 { break }
            if v & 0xFFFF_FFFF_0000_0000 == t && equals(Int32(truncatingIfNeeded: v) - 1, b) { return nil }
            slot = probe(after: slot)
        }
        let index = Int32(count)
        slots[slot] = t | UInt64(UInt32(index + 1))
        if slot > halfMask { halfCounts.1 += 1 } else { halfCounts.0 += 1 }
        arena.append(contentsOf: b)
        starts.append(Int32(arena.count))
        count += 1
        return index
    }

    /// The bytes of id `i` (ids are numbered in insertion order).
    @inline(__always)
    func withBytes<R>(of i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let lo = Int(starts[i]), hi = Int(starts[i + 1])
        return try arena.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[lo..<hi])) }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        halfMask = slots.count / 2 - 1
        halfCounts = (0, 0)
        for v in old where v != 0 {
            // The slot position comes from the low bits of the hash, which the word does not
            // keep: recompute it from the id's bytes.
            let h = withBytes(of: Int(Int32(truncatingIfNeeded: v) - 1)) { Self.hash($0) }
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] != 0 { slot = probe(after: slot) }
            slots[slot] = v
            if slot > halfMask { halfCounts.1 += 1 } else { halfCounts.0 += 1 }
        }
    }
}

extension IDIndex {
    /// The index of `ids` (rows in file order, `hashes[r]` the hash of row `r`) built on both
    /// cores: each fills the half of the slot array where its rows' probes start, rows in
    /// order, so the first row of an id wins as with `insert`. Returns the index, whose ids
    /// are the rows that are not `duplicates` numbered in order, and the repeated rows.
    static func build(_ ids: ByteStrings, hashes: [UInt64]) -> (index: IDIndex, duplicates: [Int]) {
        let n = ids.count
        var size = 16
        while size < 2 * n + 2 { size <<= 1 }  // each half holds more slots than there are rows
        var index = IDIndex(capacity: 0)
        index.slots = [UInt64](repeating: 0, count: size)
        index.mask = size - 1
        index.halfMask = size / 2 - 1
        index.arena = ids.bytes
        index.starts = ids.starts
        index.count = n
        let reader = index  // rows' bytes, read by both cores while the slots are written
        let halves = try! Parallel.writing(into: &index.slots, parts: 2) { half, slots -> (repeated: [Int], placed: Int) in
            var dups: [Int] = []
            var placed = 0
            hashes.withUnsafeBufferPointer { hashes in
                for r in 0..<n {
                    let h = hashes[r]
                    var slot = Int(truncatingIfNeeded: h) & reader.mask
                    guard (slot > reader.halfMask ? 1 : 0) == half else { continue }
                    let t = Self.tag(h)
                    var fresh = true
                    while true {
                        let v = slots[slot]
                        if v == 0 { break }
                        if v & 0xFFFF_FFFF_0000_0000 == t,
                            reader.withBytes(of: r, { reader.equals(Int32(truncatingIfNeeded: v) - 1, $0) })
                        {
                            fresh = false
                            break
                        }
                        slot = reader.probe(after: slot)
                    }
                    if fresh {
                        slots[slot] = t | UInt64(UInt32(r + 1))
                        placed += 1
                    } else {
                        dups.append(r)
                    }
                }
            }
            return (dups, placed)
        }
        let (repeated, filled) = (halves.map(\.repeated), halves.map(\.placed))
        index.halfCounts = (filled[0], filled[1])
        let duplicates = (repeated[0] + repeated[1]).sorted()
        guard !duplicates.isEmpty else { return (index, []) }
        // Repeated rows leave the arena; the kept rows are renumbered in order.
        var renumber = [Int32](repeating: -1, count: n)
        var arena: [UInt8] = []
        arena.reserveCapacity(ids.bytes.count)
        var starts: [Int32] = [0]
        starts.reserveCapacity(n + 1 - duplicates.count)
        var next = 0
        for r in 0..<n {
            if next < duplicates.count, duplicates[next] == r {
                next += 1
                continue
            }
            renumber[r] = Int32(starts.count - 1)
            ids.withBytes(of: r) { arena.append(contentsOf: $0) }
            starts.append(Int32(arena.count))
        }
        index.arena = arena
        index.starts = starts
        index.count = starts.count - 1
        for k in index.slots.indices where index.slots[k] != 0 {
            let v = index.slots[k]
            let row = Int(Int32(truncatingIfNeeded: v) - 1)
            index.slots[k] = (v & 0xFFFF_FFFF_0000_0000) | UInt64(UInt32(renumber[row] + 1))
        }
        return (index, duplicates)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
