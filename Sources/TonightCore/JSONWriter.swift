import TonightBase

/// A fast, allocation-light writer of compact JSON into a byte buffer, used for NDJSON
/// outputs (rejects, dumps, snapshot records). Commas are placed automatically.
///
/// Hand-written because Foundation's JSONEncoder is several times slower on millions of
/// small records and cannot guarantee the field order that keeps outputs byte-identical.
@usableFromInline
package struct JSONWriter: Sendable {
    @usableFromInline package var bytes: [UInt8]
    private var first = true

    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// No value yet in the current object or array (the next one takes no comma).
    var isFirst: Bool { first }

    /// A value was written by other means (`element`).
    mutating func markWritten() { first = false }

    @inline(__always) private mutating func comma() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    package mutating func beginObject() {
        comma()
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    package mutating func beginArray() {
        comma()
        bytes.append(UInt8(ascii: "["))
        first = true
    }

    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    package mutating func key(_ k: String) {
        comma()
        var k = k
        // Keys are field names: plain ASCII needs no escaping scan.
        let plain = k.withUTF8 { b -> Bool in
            guard b.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) else { return false }
            bytes.append(0x22)
            bytes.append(contentsOf: b)
            bytes.append(0x22)
            return true
        }
        if !plain { appendString(k) }
        bytes.append(UInt8(ascii: ":"))
        first = true
    }

    /// A field name encoded once (`"name":`, at most 32 bytes) and held inline, for writers
    /// of millions of records (an array would be retained and released at every use).
    @usableFromInline
    package struct FieldName: Sendable {
        @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        @usableFromInline let count: Int

        /// `"name":` after the punctuation `prefix` (`,` for a member after the first, `{`
        /// for an object's first), which `JSONCursor.key` then writes in the same store.
        package init(_ name: String, prefix: StaticString = "") {
            var w = JSONWriter(capacity: name.utf8.count + 3 + prefix.utf8CodeUnitCount)
            prefix.withUTF8Buffer { w.bytes.append(contentsOf: $0) }
            w.appendString(name)
            w.bytes.append(UInt8(ascii: ":"))
            precondition(w.bytes.count <= 32, "field name too long for FieldName: \(name)")
            count = w.bytes.count
            withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: w.bytes) }
        }

        @inline(__always)
        func append(to bytes: inout [UInt8]) {
            withUnsafeBytes(of: storage) { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }

        @inlinable @inline(__always)
        func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            withUnsafeBytes(of: storage) { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    package mutating func key(_ k: FieldName) {
        comma()
        k.append(to: &bytes)
        first = true
    }

    /// Ends a record kept in the buffer (the next value starts without a comma); callers
    /// that batch records note `bytes.count` as the record's end.
    @usableFromInline
    package mutating func endRecord() {
        first = true
    }

    /// Opens a per-key list record, `{"key":K,"items":[`, the shape of every list dataset.
    package mutating func beginKeyedList(_ k: String) {
        beginObject()
        field(Self.keyField, k)
        key(Self.itemsField)
        beginArray()
    }

    /// The field names of every keyed list, encoded once.
    private static let keyField = FieldName("key"), itemsField = FieldName("items")

    /// Closes a record opened by `beginKeyedList` and takes its bytes.
    package mutating func endKeyedList() -> [UInt8] {
        closeKeyedList()
        return take()
    }

    /// Closes a record opened by `beginKeyedList`, leaving it in the buffer (for writers
    /// that batch records: the record ends at `bytes.count`).
    package mutating func closeKeyedList() {
        endArray()
        endObject()
        endRecord()
    }

    /// The bytes written so far, leaving the writer empty for the next record: a copy sized
    /// to them, the writer keeping its buffer. (Returning `bytes` itself handed the caller
    /// the whole buffer, its capacity included, and the `removeAll(keepingCapacity:)` that
    /// followed, finding the buffer shared, allocated a new one of that capacity for every
    /// record: 11.5 M buffers in `catalog` and `playmate` on realistic `full`, the records
    /// kept in memory each holding a writer's capacity.)
    package mutating func take() -> [UInt8] {
        let out = bytes.withUnsafeBufferPointer { [UInt8]($0) }
        clear()
        return out
    }

    /// Empties the writer, keeping its buffer: for callers that have just copied `bytes` out
    /// themselves (appending them to a file or another buffer), where `take` would copy twice.
    package mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
        first = true
    }

    package mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        first = true
    }

    package mutating func value(_ s: String) {
        comma()
        appendString(s)
    }

    package mutating func value(_ v: Int64) {
        comma()
        appendInt(v)
    }

    package mutating func value(_ v: Int) { value(Int64(v)) }

    package mutating func value(_ v: Bool) {
        comma()
        let text: StaticString = v ? "true" : "false"
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func value(_ v: Double) {
        comma()
        appendDouble(v)
    }

    /// Writes pre-encoded JSON (a whole value) as is.
    package mutating func raw(_ json: [UInt8]) {
        comma()
        bytes.append(contentsOf: json)
    }

    /// Writes pre-encoded JSON stored at `range` of `buffer` (no slice, so no retain).
    package mutating func raw(_ buffer: [UInt8], _ range: Range<Int>) {
        comma()
        buffer.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Writes pre-encoded JSON held in a larger buffer (a concrete type: a generic
    /// collection parameter is not specialised across modules and is copied byte by byte).
    package mutating func raw(_ json: ArraySlice<UInt8>) {
        comma()
        bytes.append(contentsOf: json)
    }

    /// An event id as its JSON string (the text of `EventID.format`), written from the number
    /// without making that text.
    package mutating func value(eventID id: UInt64) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: JSONCursor.hexDigits(UInt32(truncatingIfNeeded: id >> 32))) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: JSONCursor.hexDigits(UInt32(truncatingIfNeeded: id))) { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func field(_ k: String, eventID id: UInt64) { key(k); value(eventID: id) }

    // Convenience: key + value; optional variants omit the field when nil (never `null`).
    package mutating func field(_ k: String, _ v: String) { key(k); value(v) }
    package mutating func field(_ k: String, _ v: Int64) { key(k); value(v) }
    package mutating func field(_ k: String, _ v: Int) { key(k); value(Int64(v)) }
    package mutating func field(_ k: String, _ v: Double) { key(k); value(v) }
    package mutating func field(_ k: String, _ v: Bool) { key(k); value(v) }
    package mutating func field(_ k: String, _ v: String?) { if let v { field(k, v) } }
    package mutating func field(_ k: String, _ v: Int64?) { if let v { field(k, v) } }
    package mutating func field(_ k: String, _ v: Double?) { if let v { field(k, v) } }
    /// A number written no more precisely than `precision`.
    package mutating func field(_ k: String, _ v: Double, _ precision: NumberPrecision) { key(k); value(v, precision) }

    /// `value(precision.rounded(v))`, written from the scaled integer when that text is a
    /// plain decimal (most published numbers): the same bytes as `JSONCursor.double(_:_:)`,
    /// without the shortest-digits search of the general path.
    package mutating func value(_ v: Double, _ precision: NumberPrecision) {
        guard let (n, places) = precision.scaledDecimal(v) else { return value(precision.rounded(v)) }
        comma()
        JSONNumber.withDecimal(n, places: places) { bytes.append(contentsOf: $0) }
    }
    package mutating func field(_ k: String, _ v: Double?, _ precision: NumberPrecision) { if let v { field(k, v, precision) } }
    // The same with a name encoded once (`FieldName`), for writers of many records.
    package mutating func field(_ k: FieldName, _ v: String) { key(k); value(v) }
    package mutating func field(_ k: FieldName, _ v: Int) { key(k); value(Int64(v)) }
    package mutating func field(_ k: FieldName, _ v: Double) { key(k); value(v) }
    package mutating func field(_ k: FieldName, _ v: Double, _ precision: NumberPrecision) { key(k); value(v, precision) }
    package mutating func field(_ k: FieldName, _ v: Double?, _ precision: NumberPrecision) { if let v { field(k, v, precision) } }
    package mutating func field(_ k: String, ints: [Int64]) {
        key(k)
        beginArray()
        for v in ints { value(v) }
        endArray()
    }
    package mutating func field(_ k: String, strings: [String]) {
        key(k)
        beginArray()
        for v in strings { value(v) }
        endArray()
    }

    @inline(__always) private mutating func appendInt(_ v: Int64) {
        JSONNumber.withDigits(v) { bytes.append(contentsOf: $0) }
    }

    private mutating func appendDouble(_ v: Double) {
        if let i = JSONNumber.integral(v) {
            appendInt(i)
            return
        }
        // The standard library's shortest round-trip digits (what `description` prints),
        // handed to `_writeASCII` below from a stack buffer: no String is allocated.
        v.write(to: &self)
    }

    /// A JSON string: `JSONKey`'s encoding, the one the reader's key lookups compare.
    package mutating func appendString(_ s: String) {
        JSONKey.appendEncoded(s, to: &bytes)
    }
}

/// Lets `Double.write(to:)` print straight into the buffer. `_writeASCII` is the standard
/// library's allocation-free path for number printing; without it the text arrives through
/// `write(_:)`, with the same bytes.
extension JSONWriter: TextOutputStream {
    @usableFromInline
    package mutating func write(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    @usableFromInline
    package mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}

/// The number text shared by `JSONWriter` and `JSONCursor`.
@usableFromInline
enum JSONNumber {
    /// The most decimals `withDigits` writes.
    @inlinable static var maxDecimals: Int { 39 }

    /// The decimal digits of `v` (with its sign), from a stack buffer; with `decimals` > 0
    /// (at most `maxDecimals`), the last `decimals` digits (zero-padded) after a point:
    /// `v / 10^decimals` exactly. Eight digits at a time from the right (`eightDigits`, as
    /// the cursor writes them), until the magnitude and the digit before the point are
    /// written; then the leading zeros of the leftmost eight are left out.
    @inlinable @inline(__always)
    static func withDigits(_ v: Int64, decimals: Int = 0, _ body: (UnsafeRawBufferPointer) -> Void) {
        precondition(decimals >= 0 && decimals <= maxDecimals, "at most \(maxDecimals) decimals")
        var tmp: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)  // 48 bytes of scratch
        withUnsafeMutableBytes(of: &tmp) { buf in
            let base = buf.baseAddress!
            let end = buf.count, units = end - decimals - 1  // the digit before the point
            var mag = v.magnitude, start = end, leftmost: UInt64 = 0
            repeat {
                start -= 8
                leftmost = eightDigits(UInt32(truncatingIfNeeded: mag % 100_000_000)) | 0x3030_3030_3030_3030
                base.storeBytes(of: leftmost.littleEndian, toByteOffset: start, as: UInt64.self)
                mag /= 100_000_000
            } while mag > 0 || start > units
            // Only the leftmost eight can start with zeros: the loop stops at the first
            // eight that holds the units digit or the magnitude's first digit.
            let nonZero = leftmost ^ 0x3030_3030_3030_3030
            start += min(nonZero == 0 ? 8 : nonZero.trailingZeroBitCount >> 3, units - start)
            if decimals > 0 {
                // The integer digits one byte to the left, the point in the place of the last.
                (base + start - 1).copyMemory(from: base + start, byteCount: units + 1 - start)
                start -= 1
                buf[units] = UInt8(ascii: ".")
            }
            if v < 0 {
                start -= 1
                buf[start] = UInt8(ascii: "-")
            }
            body(UnsafeRawBufferPointer(rebasing: buf[start..<end]))
        }
    }

    /// The eight decimal digits of `x` < 10^8, zero-padded, as values 0–9 in the bytes of one
    /// word in memory order (the first digit in the lowest byte; add `0x30` to each for
    /// ASCII). Lane by lane, without a loop: the two halves of four digits in 32-bit lanes,
    /// split by 100 into 16-bit lanes, then by 10 into bytes, each quotient a multiply and a
    /// shift (x/100 = x·5243 >> 19 below 43,699; x/10 = x·103 >> 10 below 179) whose
    /// spill into the lane below is masked off.
    @inlinable @inline(__always)
    static func eightDigits(_ x: UInt32) -> UInt64 {
        let v = UInt64(x / 10_000) | UInt64(x % 10_000) << 32
        let hundreds = ((v &* 5243) >> 19) & 0x0000_007F_0000_007F
        let pairs = hundreds | (v &- hundreds &* 100) << 16
        let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
        return tens | (pairs &- tens &* 10) << 8
    }

    /// `n / 10^places` as plain decimal text, trailing zeros of the fraction dropped (an
    /// integer has no point): the fast path of numbers with a precision.
    @inlinable @inline(__always)
    static func withDecimal(_ n: Int64, places: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        var mag = n.magnitude, p = places
        while p > 0 && mag % 10 == 0 {
            mag /= 10
            p -= 1
        }
        // A magnitude of 2^63 (Int64.min, nothing stripped: it ends in 8) is `n` itself.
        let value = Int64(exactly: mag).map { n < 0 ? -$0 : $0 } ?? n
        withDigits(value, decimals: p, body)
    }

    /// The integer a double is printed as: non-finite values as 0 (JSON has no NaN), integral
    /// values below 1e15 without a fraction; nil for the shortest round-trip form.
    @inline(__always)
    static func integral(_ v: Double) -> Int64? {
        guard v.isFinite else { return 0 }
        return v == v.rounded() && abs(v) < 1e15 ? Int64(v) : nil
    }
}
