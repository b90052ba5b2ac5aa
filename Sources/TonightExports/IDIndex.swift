/// Interned string ids → dense indices, looked up by raw bytes: the FNV-1a hash of the bytes
/// keys an integer dictionary and the bytes kept in an arena settle collisions. Several times
/// faster than `[String: Int32]`, which builds a String and runs Unicode-aware hashing for
/// every one of millions of CSV rows.
struct IDIndex: Sendable {
    // Open addressing on the FNV-1a hash (linear probing, load factor <= 1/2): the slot
    // holds index + 1 (0 = empty) and the full hash, so most misses never touch the arena.
    private var slots: [Int32]
    private var slotHashes: [UInt64]
    private var mask: Int
    private var arena: [UInt8] = []
    private var starts: [Int32] = [0]
    private(set) var count = 0

    init(capacity: Int) {
        var size = 16
        while size < max(capacity, 8) * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size)
        slotHashes = [UInt64](repeating: 0, count: size)
        mask = size - 1
        arena.reserveCapacity(capacity * 12)
        starts.reserveCapacity(capacity + 1)
    }

    @inline(__always) static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in b { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h ^ (h >> 29)
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
        let h = Self.hash(b)
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let v = slots[slot]
            if v == 0 { return nil }
            if slotHashes[slot] == h && equals(v - 1, b) { return v - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Adds an id; nil if it is already there.
    mutating func insert(_ b: UnsafeBufferPointer<UInt8>) -> Int32? {
        if count * 2 >= slots.count { grow() }
        let h = Self.hash(b)
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let v = slots[slot]
            if v == 0 { break }
            if slotHashes[slot] == h && equals(v - 1, b) { return nil }
            slot = (slot + 1) & mask
        }
        let index = Int32(count)
        slots[slot] = index + 1
        slotHashes[slot] = h
        arena.append(contentsOf: b)
        starts.append(Int32(arena.count))
        count += 1
        return index
    }

    private mutating func grow() {
        let oldSlots = slots, oldHashes = slotHashes
        slots = [Int32](repeating: 0, count: oldSlots.count * 2)
        slotHashes = [UInt64](repeating: 0, count: oldSlots.count * 2)
        mask = slots.count - 1
        for k in oldSlots.indices where oldSlots[k] != 0 {
            var slot = Int(truncatingIfNeeded: oldHashes[k]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = oldSlots[k]
            slotHashes[slot] = oldHashes[k]
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
