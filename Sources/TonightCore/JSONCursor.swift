/// Writes JSON tokens through a raw pointer into a buffer of known size: for the
/// hot loops that write millions of small objects (list items), where `JSONWriter`'s
/// per-token array appends (each with a capacity and uniqueness check) cost more than the
/// bytes. Commas are the caller's; every write checks the capacity.
///
/// `@usableFromInline`, as are the types its methods use: Swift 6.3 inlines a `package`
/// type's `@inlinable` methods into another module only when the type is `@usableFromInline`
/// (or public), and the lists are written in `TonightRanking`, where a call into this module
/// per byte, key and number cost more than the work (ranking-log.md, "The JSON cursor inlined").
@usableFromInline
package struct JSONCursor: TextOutputStream {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    @usableFromInline var end = 0
    /// Bytes written so far.
    package var count: Int { end }

    /// A cursor over `buffer`, whose last `storeSlack` bytes are not part of the bound: only
    /// the fixed-size stores of `digits` (8 bytes) and `key` (32) reach into them.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(buffer.count >= Self.storeSlack)
        base = buffer.baseAddress!
        capacity = buffer.count - Self.storeSlack
    }

    /// Bytes past the bound that the fixed-size stores (`digits`, `key`) may write; what
    /// lands there is never counted.
    @usableFromInline static var storeSlack: Int { 32 }

    @inlinable @inline(__always)
    mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(end + n <= capacity, "JSONCursor: item larger than its declared bound")
        defer { end += n }
        return base + end
    }

    @inlinable @inline(__always)
    package mutating func byte(_ b: UInt8) {
        reserve(1).pointee = b
    }

    @inlinable @inline(__always)
    package mutating func bytes(_ b: UnsafeRawBufferPointer) {
        guard let src = b.baseAddress else { return }
        Self.copy(UnsafeMutableRawPointer(reserve(b.count)), src, b.count)
    }

    /// Copies `n` bytes. The cursor's copies are a few bytes each (an event id, a field
    /// name, digits): inline loads and stores, two overlapping ones per size class, where a
    /// call of `memmove` per copy was ~3 % of the tickets stage's CPU.
    @inlinable @inline(__always)
    static func copy(_ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, _ n: Int) {
        switch n {
        case 16...32:
            let a = src.loadUnaligned(as: SIMD16<UInt8>.self)
            let b = src.loadUnaligned(fromByteOffset: n - 16, as: SIMD16<UInt8>.self)
            dst.storeBytes(of: a, as: SIMD16<UInt8>.self)
            dst.storeBytes(of: b, toByteOffset: n - 16, as: SIMD16<UInt8>.self)
        case 8..<16:
            let a = src.loadUnaligned(as: UInt64.self)
            let b = src.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            dst.storeBytes(of: a, as: UInt64.self)
            dst.storeBytes(of: b, toByteOffset: n - 8, as: UInt64.self)
        case 4..<8:
            let a = src.loadUnaligned(as: UInt32.self)
            let b = src.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            dst.storeBytes(of: a, as: UInt32.self)
            dst.storeBytes(of: b, toByteOffset: n - 4, as: UInt32.self)
        case 0..<4:
            for i in 0..<n { dst.storeBytes(of: src.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self) }
        default:
            dst.copyMemory(from: src, byteCount: n)
        }
    }

    /// Bytes `range` of `buffer` (pre-encoded JSON).
    @inline(__always)
    package mutating func bytes(_ buffer: [UInt8], _ range: Range<Int>) {
        buffer.withUnsafeBytes { bytes(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// An event id as its JSON string: `"` and the 16 upper-case hex digits of
    /// `EventID.format`, then `"`, from the number (list items carry the id, so writing one
    /// reads no per-event text table: that read was a cache miss per item).
    @inlinable @inline(__always)
    package mutating func eventID(_ id: UInt64) {
        let p = UnsafeMutableRawPointer(reserve(18))
        p.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        p.storeBytes(of: Self.hexDigits(UInt32(truncatingIfNeeded: id >> 32)), toByteOffset: 1, as: UInt64.self)
        p.storeBytes(of: Self.hexDigits(UInt32(truncatingIfNeeded: id)), toByteOffset: 9, as: UInt64.self)
        p.storeBytes(of: UInt8(ascii: "\""), toByteOffset: 17, as: UInt8.self)
    }

    /// The eight upper-case hex digits of `x`, most significant first in memory order: each
    /// nibble spread to a byte, then `0`–`9`/`A`–`F` in every byte at once (no carries
    /// cross bytes: every byte stays below 0x47).
    @inlinable @inline(__always)
    static func hexDigits(_ x: UInt32) -> UInt64 {
        var v = UInt64(x)
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // Byte i (from the least significant) holds nibble i; a letter needs 7 more.
        let letters = ((v &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let ascii = v &+ 0x3030_3030_3030_3030 &+ letters &* 7
        // The most significant nibble goes first: byte-swap into memory order.
        return (ascii.byteSwapped).littleEndian
    }

    /// `"name":`: the name's whole 32-byte storage in two 16-byte stores, of which its
    /// `count` bytes are kept (the rest fall within the next writes or the `storeSlack`),
    /// without a copy sized at run time.
    @inlinable @inline(__always)
    package mutating func key(_ k: JSONWriter.FieldName) {
        precondition(end + k.count <= capacity, "JSONCursor: item larger than its declared bound")
        let p = UnsafeMutableRawPointer(base + end)
        withUnsafeBytes(of: k.storage) {
            p.storeBytes(of: $0.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            p.storeBytes(of: $0.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16, as: SIMD16<UInt8>.self)
        }
        end += k.count
    }

    /// An integer, as `String(v)` prints it. Below 10^8 (every id and count the lists hold)
    /// the digits are made at once in one 64-bit word (`JSONNumber.eightDigits`) and stored
    /// straight into place, inline; other values take `otherInt`, out of line, so that this
    /// path stays small enough to inline into the writers' loops.
    @inlinable @inline(__always)
    package mutating func int(_ v: Int64) {
        if v >= 0 && v < 100_000_000 {
            leading(UInt32(truncatingIfNeeded: v))
        } else {
            otherInt(v)
        }
    }

    /// `int` for negative values and those of nine digits or more (`withDigits`, which
    /// makes them eight at a time too), out of line.
    @usableFromInline @inline(never)
    mutating func otherInt(_ v: Int64) {
        JSONNumber.withDigits(v) { bytes($0) }
    }

    /// The digits of `x` < 10^8 without leading zeros (`0` for zero).
    @inlinable @inline(__always)
    mutating func leading(_ x: UInt32) {
        let d = JSONNumber.eightDigits(x)
        // The first digit is the lowest byte; a leading zero is a zero byte below the first
        // non-zero one (x = 0 keeps its last digit).
        let zeros = x == 0 ? 7 : d.trailingZeroBitCount >> 3
        digits(d, skipping: zeros, count: 8 - zeros)
    }

    /// `count` of the eight digits `d` (`JSONNumber.eightDigits`) after the first `skip`
    /// (skip + count ≤ 8): one 8-byte store, of which `count` bytes are kept (the others
    /// fall within the next writes or the buffer's `storeSlack`).
    @inlinable @inline(__always)
    mutating func digits(_ d: UInt64, skipping skip: Int, count: Int) {
        // The bound counts the `count` bytes kept; the rest of the store lands in the slack.
        precondition(end + count <= capacity, "JSONCursor: item larger than its declared bound")
        let text = (d | 0x3030_3030_3030_3030) >> UInt64(8 * skip)
        UnsafeMutableRawPointer(base + end).storeBytes(of: text.littleEndian, as: UInt64.self)
        end += count
    }

    /// A JSON number with the same text as `JSONWriter.value(_: Double)`.
    @usableFromInline
    package mutating func double(_ v: Double) {
        if let i = JSONNumber.integral(v) {
            int(i)
            return
        }
        v.write(to: &self)
    }

    /// A JSON number no more precise than `precision`: the same text as
    /// `double(precision.rounded(v))`, written from the scaled integer when that text is a
    /// plain decimal (most published numbers), without the shortest-digits search.
    @inlinable @inline(__always)
    package mutating func double(_ v: Double, _ precision: NumberPrecision) {
        if let (n, places) = precision.scaledDecimal(v) {
            decimal(n, places: places)
        } else {
            double(precision.rounded(v))
        }
    }

    /// `n / 10^places` as plain decimal text, trailing zeros of the fraction dropped (the
    /// text of `JSONNumber.withDecimal`). With 1 to 8 places and |n| / 10^places below 10^8
    /// (every distance, score and coordinate the lists write), inline: the whole part's
    /// digits as `int` makes them, the fraction's eight digits at once with its trailing
    /// zeros counted from the word (its high zero bytes), without a division per zero.
    @inlinable @inline(__always)
    mutating func decimal(_ n: Int64, places: Int) {
        guard places > 0, places <= 8 else { return otherDecimal(n, places: places) }
        let m = n.magnitude, scale = UInt64(NumberPrecision.power(places))
        let whole = m / scale
        guard whole < 100_000_000 else { return otherDecimal(n, places: places) }
        if n < 0 { byte(UInt8(ascii: "-")) }
        leading(UInt32(truncatingIfNeeded: whole))
        let fraction = UInt32(truncatingIfNeeded: m - whole * scale)
        guard fraction != 0 else { return }
        // The fraction's `places` digits are the last of its eight (the rest are zeros);
        // its trailing zeros are the word's highest zero bytes.
        let d = JSONNumber.eightDigits(fraction)
        byte(UInt8(ascii: "."))
        digits(d, skipping: 8 - places, count: places - d.leadingZeroBitCount >> 3)
    }

    /// `decimal` for the other values (no places or more than 8, a whole part of nine
    /// digits or more), out of line.
    @usableFromInline @inline(never)
    mutating func otherDecimal(_ n: Int64, places: Int) {
        JSONNumber.withDecimal(n, places: places) { bytes($0) }
    }

    /// `[a,b,…]` (a concrete buffer: a generic sequence is not specialised across modules).
    @inlinable
    package mutating func ints(_ values: UnsafeBufferPointer<Int64>) {
        byte(UInt8(ascii: "["))
        var first = true
        for v in values {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            int(v)
        }
        byte(UInt8(ascii: "]"))
    }

    @inlinable
    package mutating func bool(_ v: Bool) {
        let text: StaticString = v ? "true" : "false"
        text.withUTF8Buffer { bytes(UnsafeRawBufferPointer($0)) }
    }

    @usableFromInline
    package mutating func write(_ string: String) {
        var s = string
        s.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }

    @usableFromInline
    package mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes(UnsafeRawBufferPointer(buffer))
    }

    /// The most bytes `int` writes.
    package static let maxIntBytes = 20
    /// The most bytes `double` writes (`-2.2250738585072014e-308`).
    package static let maxDoubleBytes = 24
}

extension JSONWriter {
    /// Appends a run of values (array elements) of at most `maxBytes` bytes in all, written
    /// by `body` through one `JSONCursor` straight into the spare capacity of `bytes` (grown
    /// geometrically when short): the comma before the first is added, `body` writes the
    /// ones between. For records of many small items (one append per item was a `memmove`
    /// call and an array append each; writing them to a scratch buffer first and appending
    /// that was a copy of every list record, 0.8 % of the tickets stage in `memmove`).
    package mutating func elements(maxBytes: Int, _ body: (inout JSONCursor) -> Void) {
        let comma = !isFirst
        bytes.append(addingCapacity: maxBytes + 1 + JSONCursor.storeSlack) { span in
            span.withUnsafeMutableBufferPointer { buffer, count in
                var c = JSONCursor(UnsafeMutableBufferPointer(rebasing: buffer[count...]))
                if comma { c.byte(UInt8(ascii: ",")) }
                body(&c)
                count += c.count
            }
        }
        markWritten()
    }

    /// Appends one value (an array element: the comma is added) of at most `maxBytes`
    /// bytes, written by `body` through a `JSONCursor` straight into `bytes`.
    package mutating func element(maxBytes: Int, _ body: (inout JSONCursor) -> Void) {
        elements(maxBytes: maxBytes, body)
    }
}
