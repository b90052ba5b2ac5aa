/// The growable byte buffer the SAX thread writes records into (`RawRecordBatch`'s layout).
///
/// A value the SAX handler holds in place: as a class (until 2026-11-30) every write loaded
/// the reference and retained and released it around the call, ~100 M instructions of a
/// realistic parse on libxml2's thread (parse-feed-log.md, "Instructions, not samples").
/// Raw memory, not an `Array`: Array's per-append uniqueness and capacity checks cost more
/// than libxml2's own work on this path (measured). Its owner frees it (`deallocate`) or
/// hands it to a `RawRecordBatch`, which does.
struct RawRecordBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    private(set) var records = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1024)
        base = .allocate(capacity: self.capacity)
    }

    func deallocate() { base.deallocate() }

    mutating func reset() {
        count = 0
        records = 0
    }

    @inline(__always) private mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    @inline(never) private mutating func grow(_ needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let b = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        b.update(from: base, count: count)
        base.deallocate()
        base = b
        capacity = c
    }

    @inline(__always) private func put32(_ v: UInt32, at i: Int) {
        UnsafeMutableRawPointer(base + i).storeBytes(of: v.littleEndian, as: UInt32.self)
    }

    @inline(__always) mutating func beginRecord(_ section: FeedSection, line: Int, column: Int) {
        reserve(9)
        base[count] = UInt8(section.rawValue)
        put32(UInt32(clamping: line), at: count + 1)
        put32(UInt32(clamping: column), at: count + 5)
        count += 9
    }

    @inline(__always) mutating func item(_ code: UInt8, _ value: UnsafeBufferPointer<UInt8>) {
        reserve(5 + value.count)
        base[count] = code
        put32(UInt32(value.count), at: count + 1)
        if let v = value.baseAddress { (base + count + 5).update(from: v, count: value.count) }
        count += 5 + value.count
    }

    @inline(__always) mutating func empty(_ code: UInt8) {
        reserve(5)
        base[count] = code
        put32(0, at: count + 1)
        count += 5
    }

    /// Starts an item whose bytes arrive in pieces; returns where to patch the length.
    @inline(__always) mutating func beginItem(_ code: UInt8) -> Int {
        empty(code)
        return count
    }

    @inline(__always) mutating func append(_ piece: UnsafeBufferPointer<UInt8>) {
        reserve(piece.count)
        if let p = piece.baseAddress { (base + count).update(from: p, count: piece.count) }
        count += piece.count
    }

    @inline(__always) func endItem(_ start: Int) {
        put32(UInt32(count - start), at: start - 4)
    }

    @inline(__always) mutating func endRecord() {
        reserve(1)
        base[count] = RawRecordBatch.end
        count += 1
        records += 1
    }
}
