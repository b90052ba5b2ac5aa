import Foundation
import Testing
@testable import TonightCore
import TonightGenerator

/// The JSON writers' number text: what `Double.description` prints (shortest round trip),
/// whether written token by token (`JSONWriter`) or through a raw cursor (`JSONCursor`).
@Suite struct JSONWriterTests {
    static let edgeCases: [Double] = [
        0, -0.0, 1, -1, 0.1, 1.0 / 3, 2.5, 1e15, 1e15 + 0.5, 1e16, 123456789012345.6, .leastNonzeroMagnitude, -2.2250738585072014e-308,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0.49197597409354993, 24.912243558044374, 705.7394198505721,
    ]

    static func writerText(_ v: Double) -> String {
        var w = JSONWriter()
        w.value(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func cursorText(_ v: Double) -> String {
        var w = JSONWriter()
        w.beginArray()
        w.element(maxBytes: JSONCursor.maxDoubleBytes) { $0.double(v) }
        w.endArray()
        return String(decoding: w.bytes.dropFirst().dropLast(), as: UTF8.self)
    }

    /// The text a JSON number of `v` should have: an integer when integral (below 1e15), else
    /// Swift's shortest round-trip form.
    static func expected(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return v.description
    }

    @Test(arguments: edgeCases)
    func edgeCaseNumbers(_ v: Double) {
        #expect(Self.writerText(v) == Self.expected(v))
        #expect(Self.cursorText(v) == Self.expected(v))
        #expect(Double(Self.cursorText(v)) == v || v == 0)
    }

    @Test func randomNumbersRoundTrip() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let v = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (rng.next() & 1 == 0 ? 1 : -1)
            let text = Self.cursorText(v)
            #expect(text == Self.writerText(v))
            #expect(Double(text) == v, "\(v) printed as \(text)")
        }
    }

    @Test(arguments: [Int64.min, Int64.max, 0, 9, 10, -1, -10, 1_234_567_890_123])
    func integers(_ v: Int64) {
        var w = JSONWriter()
        w.beginArray()
        w.element(maxBytes: JSONCursor.maxIntBytes) { $0.int(v) }
        w.element(maxBytes: JSONCursor.maxIntBytes) { $0.int(v) }
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self) == "[\(v),\(v)]")
    }

    /// Integers written eight digits at a time straight into place: every count of digits at
    /// its edges (10^k - 1, 10^k, both signs) and 100,000 random values of every magnitude,
    /// through the cursor and the writer, as `String` prints them; with 0 to `maxDecimals`
    /// decimals, the text of the same digits with a point (`withDigits`, zero-padded).
    @Test func integersOfEveryLengthAndDecimalsAsTextPrintsThem() {
        var values: [Int64] = [0, 1, -1, Int64.min, Int64.max, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, 1 - power, -power, -power - 1]
        }
        var random = SplitMix64(seed: 11)
        for _ in 0..<100_000 {
            let bits = Int(random.next() % 64)
            let v = Int64(bitPattern: random.next() >> UInt64(63 - bits))
            values.append(v)
        }
        for v in values {
            var w = JSONWriter()
            w.value(v)
            var c = JSONWriter()
            c.beginArray()
            c.element(maxBytes: JSONCursor.maxIntBytes) { $0.int(v) }
            c.endArray()
            guard String(decoding: w.bytes, as: UTF8.self) == String(v), String(decoding: c.bytes, as: UTF8.self) == "[\(v)]" else {
                Issue.record("\(v): writer \(String(decoding: w.bytes, as: UTF8.self)), cursor \(String(decoding: c.bytes, as: UTF8.self))")
                return
            }
            let decimals = Int(v.magnitude % UInt64(JSONNumber.maxDecimals + 1))
            var text = ""
            JSONNumber.withDigits(v, decimals: decimals) { text = String(decoding: $0, as: UTF8.self) }
            guard text == Self.pointed(v, decimals) else {
                Issue.record("\(v) with \(decimals) decimals: \(text), expected \(Self.pointed(v, decimals))")
                return
            }
        }
    }

    /// Field names of every length a `FieldName` holds (3 to 32 bytes with the quotes and
    /// the colon, so both of the key's 16-byte stores count), escapes included, written by
    /// the cursor one after another in a run bounded by their exact length, read back as the
    /// writer's keys.
    @Test func cursorKeysOfEveryLengthAreTheWritersKeys() {
        let names = (0...29).map { String(repeating: "k", count: $0) } + ["a\"b", "tab\t", "é"]
        var run = JSONWriter()
        var total = 0
        for name in names { total += JSONWriter.FieldName(name).count + 1 }
        run.beginArray()
        run.elements(maxBytes: total) { c in
            for name in names {
                c.key(JSONWriter.FieldName(name))
                c.byte(UInt8(ascii: "0"))
            }
        }
        run.endArray()
        let expected = "[" + names.map { name -> String in
            var one = JSONWriter()
            one.beginObject()
            one.field(name, 0)
            one.endObject()
            return String(decoding: one.bytes.dropFirst().dropLast(), as: UTF8.self)
        }.joined() + "]"
        #expect(String(decoding: run.bytes, as: UTF8.self) == expected)
    }

    /// A name with the punctuation before it is that punctuation, then the name as the
    /// writer's key (escapes included), through the cursor as through `withBytes`.
    @Test(arguments: ["score", "distanceKm", "a\"b", String(repeating: "k", count: 28)])
    func prefixedNamesCarryTheirPunctuation(_ name: String) {
        var plain = JSONWriter()
        plain.beginObject()
        plain.field(name, 0)
        let key = String(decoding: plain.bytes.dropFirst().dropLast(), as: UTF8.self)
        for (prefix, text) in [(",", ","), ("{", "{")] as [(StaticString, String)] {
            let n = JSONWriter.FieldName(name, prefix: prefix)
            #expect(n.withBytes { String(decoding: $0, as: UTF8.self) } == text + key)
            var w = JSONWriter()
            w.beginArray()
            w.element(maxBytes: n.count) { $0.key(n) }
            #expect(String(decoding: w.bytes.dropFirst(), as: UTF8.self) == text + key)
        }
    }

    /// The eight digits made in one word: every value below 100,000, the edges of every
    /// digit count and 1,000,000 random values below 10^8, against `String`'s zero-padded text.
    @Test func eightDigitsAreTheZeroPaddedText() {
        var values = Array(UInt32(0)..<100_000)
        var power: UInt32 = 1
        for _ in 0..<8 {
            power *= 10
            values += [power - 1, power, power + 1].filter { $0 < 100_000_000 }
        }
        var random = SplitMix64(seed: 12)
        for _ in 0..<1_000_000 { values.append(UInt32(random.next() % 100_000_000)) }
        for x in values {
            let word = JSONNumber.eightDigits(x) | 0x3030_3030_3030_3030
            let text = withUnsafeBytes(of: word.littleEndian) { String(decoding: $0, as: UTF8.self) }
            let expected = String(repeating: "0", count: 8 - String(x).count) + String(x)
            guard text == expected else {
                Issue.record("\(x): \(text), expected \(expected)")
                return
            }
        }
    }

    /// The cursor's decimals (the whole part and the fraction made eight digits at a time,
    /// the fraction's trailing zeros counted from the word) against `withDecimal`: every
    /// count of places from 0 to 12, both signs, 200,000 random values of every magnitude
    /// and the values whose fraction is all zeros, one digit, or ends in zeros. Each is
    /// written as the last element of a run bounded by its exact length.
    @Test func cursorDecimalsAreWithDecimalsText() {
        var random = SplitMix64(seed: 13)
        var cases: [(Int64, Int)] = []
        for places in 0...12 {
            for n: Int64 in [1, 5, 10, 12, 100, 120, 1_000_000_000, 99_999_999_999, 123_456_789_000_000] {
                cases += [(n, places), (-n, places)]
            }
        }
        for _ in 0..<200_000 {
            let bits = Int(random.next() % 63)
            var n = Int64(random.next() >> UInt64(64 - max(1, bits)))
            if random.next() % 3 == 0, n < Int64.max / 1000 { n *= 1000 }
            cases.append((random.next() % 2 == 0 ? n : -n, Int(random.next() % 13)))
        }
        cases += [(Int64.max, 8), (Int64.min + 1, 3), (Int64.min, 2), (Int64.min, 0)]
        for (n, places) in cases {
            var expected = ""
            JSONNumber.withDecimal(n, places: places) { expected = String(decoding: $0, as: UTF8.self) }
            // withDecimal against the digits of `String` (no trailing zero in the fraction).
            #expect(expected == Self.stripped(Self.pointed(n, places)), "withDecimal(\(n), \(places))")
            var w = JSONWriter()
            w.beginArray()
            w.element(maxBytes: expected.utf8.count) { $0.decimal(n, places: places) }
            w.endArray()
            let text = String(decoding: w.bytes.dropFirst().dropLast(), as: UTF8.self)
            guard text == expected else {
                Issue.record("\(n) with \(places) places: \(text), expected \(expected)")
                return
            }
        }
    }

    /// `text` without the trailing zeros of its fraction (nor a bare point).
    static func stripped(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var t = Substring(text)
        while t.hasSuffix("0") { t = t.dropLast() }
        if t.hasSuffix(".") { t = t.dropLast() }
        return String(t)
    }

    /// `v / 10^decimals` as text, from `String(v)`'s digits (the reference of `withDigits`).
    static func pointed(_ v: Int64, _ decimals: Int) -> String {
        guard decimals > 0 else { return String(v) }
        var digits = String(v.magnitude)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        let cut = digits.index(digits.endIndex, offsetBy: -decimals)
        return (v < 0 ? "-" : "") + digits[..<cut] + "." + digits[cut...]
    }

    @Test func elementsMixWithTokensAndParse() throws {
        let name = JSONWriter.FieldName("distanceKm")
        var w = JSONWriter()
        w.beginKeyedList("user \"1\"")
        for i in 0..<3 {
            w.element(maxBytes: 64) { c in
                c.byte(UInt8(ascii: "{"))
                c.key(name)
                c.double(Double(i) + 0.25)
                c.byte(UInt8(ascii: ","))
                c.write(#""ok":"#)
                c.bool(i == 1)
                c.byte(UInt8(ascii: "}"))
            }
        }
        w.closeKeyedList()
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text == #"{"key":"user \"1\"","items":[{"distanceKm":0.25,"ok":false},{"distanceKm":1.25,"ok":true},{"distanceKm":2.25,"ok":false}]}"#)
        _ = try JSONSerialization.jsonObject(with: Data(w.bytes))
    }

    /// The cursor's inline copy: every length of every size class (and past them, where it
    /// calls `copyMemory`) at several misalignments, bytes around the copy untouched.
    @Test func inlineCopyCopiesExactlyTheBytes() {
        var rng = SplitMix64(seed: 7)
        let source = (0..<128).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for n in 0...80 {
            for offset in [0, 1, 3, 7, 13] {
                var out = [UInt8](repeating: 0xEE, count: 128)
                source.withUnsafeBytes { src in
                    out.withUnsafeMutableBytes { dst in JSONCursor.copy(dst.baseAddress! + offset, src.baseAddress! + 5, n) }
                }
                #expect(Array(out[offset..<(offset + n)]) == Array(source[5..<(5 + n)]), "length \(n) at offset \(offset)")
                #expect(out[..<offset].allSatisfy { $0 == 0xEE } && out[(offset + n)...].allSatisfy { $0 == 0xEE }, "length \(n) wrote outside")
            }
        }
    }

    /// `elements` writes a run of items straight into the writer's buffer: the same text as
    /// one `element` per item, commas included, mixed with tokens, the buffer grown for a
    /// larger run.
    @Test(arguments: [1, 3, 200])
    func elementsWriteTheSameTextAsOneElementPerItem(_ items: Int) {
        let name = JSONWriter.FieldName("event")
        func item(_ i: Int, _ c: inout JSONCursor) {
            c.byte(UInt8(ascii: "{"))
            c.key(name)
            c.write("\"E\(i)\"")
            c.byte(UInt8(ascii: ","))
            c.write(#""d":"#)
            c.double(Double(i) / 8, .distance)
            c.byte(UInt8(ascii: "}"))
        }
        var one = JSONWriter(), run = JSONWriter()
        for w in [0, 1] {
            for r in 0..<2 {  // two records: the second written after the first, in the same buffer
                if w == 0 {
                    one.beginKeyedList("u\(r)")
                    for i in 0..<items { one.element(maxBytes: 64) { item(i, &$0) } }
                    one.element(maxBytes: 8) { $0.int(-1) }
                    one.closeKeyedList()
                } else {
                    run.beginKeyedList("u\(r)")
                    run.elements(maxBytes: items * 64) { c in
                        for i in 0..<items {
                            if i > 0 { c.byte(UInt8(ascii: ",")) }
                            item(i, &c)
                        }
                    }
                    run.element(maxBytes: 8) { $0.int(-1) }
                    run.closeKeyedList()
                }
            }
        }
        #expect(String(decoding: run.bytes, as: UTF8.self) == String(decoding: one.bytes, as: UTF8.self))
        #expect(String(decoding: run.bytes, as: UTF8.self).hasPrefix(#"{"key":"u0","items":[{"event":"E0","d":0},"#))
        // Only what was written counts: the capacity reserved for each run's bound is left out.
        #expect(run.bytes.count == one.bytes.count)
    }

    /// Ids with every hex digit in every position, the extremes, then random ones.
    static func testEventIDs() -> [UInt64] {
        var rng = SplitMix64(seed: 19)
        var ids: [UInt64] = [0, .max, 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0x9999_AAAA_0000_FFFF, 1 << 63, 0xA]
        for d in 0..<UInt64(16) { for p in 0..<UInt64(16) { ids.append(d << (4 * p)) } }
        for _ in 0..<100_000 { ids.append(rng.next()) }
        return ids
    }

    /// The text of an event id by the standard library: 16 upper-case hex digits, zero-padded
    /// (the reference that the fast writers are checked against).
    static func referenceEventID(_ id: UInt64) -> String {
        let digits = String(id, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The cursor writes an event id from the number (`eventID`), and so do `EventID.format`
    /// and `JSONWriter.value(eventID:)`: the quoted text of the reference, every nibble value
    /// in every position, and nothing around it.
    @Test func eventIDIsTheFormattedIDQuoted() {
        let ids = Self.testEventIDs()
        let reference = ids.map { "\"\(Self.referenceEventID($0))\"" }
        var w = JSONWriter()
        w.beginArray()
        for id in ids { w.element(maxBytes: 18) { $0.eventID(id) } }
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self) == "[" + reference.joined(separator: ",") + "]")
        #expect(ids.map { "\"\(EventID.format($0))\"" } == reference)
        var v = JSONWriter()
        v.beginObject()
        for (k, id) in ids.prefix(300).enumerated() { v.field("e\(k % 3)", eventID: id) }
        v.endObject()
        var s = JSONWriter()
        s.beginObject()
        for (k, id) in ids.prefix(300).enumerated() { s.field("e\(k % 3)", Self.referenceEventID(id)) }
        s.endObject()
        #expect(String(decoding: v.bytes, as: UTF8.self) == String(decoding: s.bytes, as: UTF8.self))
    }

    /// `take` hands out a copy sized to the record and keeps the writer's buffer for the
    /// next one: returning the buffer itself gave every record the writer's whole capacity
    /// and made the writer allocate a new buffer per record (catalog and playmate peak
    /// memory 400 -> 325 MB and 650 -> 355 MB on realistic `full`).
    @Test(arguments: [1, 40, 3_000])
    func takeKeepsTheBufferAndHandsOutAnExactCopy(_ items: Int) {
        var w = JSONWriter(capacity: 1 << 16)
        var taken: [[UInt8]] = []
        let buffer = w.bytes.withUnsafeBufferPointer { $0.baseAddress }
        for r in 0..<3 {
            w.beginObject()
            w.key("key")
            w.value("user-\(r)")
            w.key("items")
            w.beginArray()
            for i in 0..<items { w.value(Int64(i * r)) }
            w.endArray()
            w.endObject()
            let expected = w.bytes.withUnsafeBufferPointer { [UInt8]($0) }  // a copy: `w.bytes` itself would share the buffer
            let record = w.take()
            #expect(record == expected && w.bytes.isEmpty)
            #expect(record.capacity < max(64, 2 * record.count), "record of \(record.count) bytes holds \(record.capacity)")
            let shared = record.withUnsafeBufferPointer { $0.baseAddress } == w.bytes.withUnsafeBufferPointer { $0.baseAddress }
            #expect(!shared)
            taken.append(record)
        }
        #expect(w.bytes.withUnsafeBufferPointer { $0.baseAddress } == buffer, "the writer's buffer was replaced")
        #expect(w.bytes.capacity >= 1 << 16)
        #expect(String(decoding: taken[2], as: UTF8.self).hasPrefix("{\"key\":\"user-2\",\"items\":[0"))
    }
}
