import Testing
import TonightBase

/// `JSONKey.decode` reads the JSON string at an index: the keys of every record and index
/// line a verification reads. Plain strings take a copy of their bytes, escaped ones the
/// byte-by-byte decoder; both give the same bytes and the index after the closing quote.
@Suite struct JSONKeyDecodeTests {
    static func decode(_ text: String, at start: Int = 0) -> (String, Int)? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            JSONKey.decode(b, at: start).map { (String(decoding: $0.0, as: UTF8.self), $0.1) }
        }
    }

    @Test(arguments: [
        (#""abc","x""#, "abc", 5), (#""""#, "", 2), (#""a\"b""#, "a\"b", 6), (#""a\\b""#, "a\\b", 6),
        (#""\n\t\r\b\f\/""#, "\n\t\r\u{8}\u{c}/", 14), (#""caf\u00e9!""#, "café!", 12), (#""ünï""#, "ünï", 7),
        (#""tail\u0041""#, "tailA", 12),
    ])
    func decodes(_ text: String, _ expected: String, _ end: Int) throws {
        let (got, after) = try #require(Self.decode(text))
        #expect(got == expected)
        #expect(after == end)
    }

    @Test(arguments: [#"abc""#, #""abc"#, #""ab\"#, #""a\x""#, #""\u12""#, #""\ud800""#, ""])
    func refusesWhatIsNotOneString(_ text: String) {
        #expect(Self.decode(text) == nil)
    }

    @Test func startsWhereItIsTold() throws {
        let (got, after) = try #require(Self.decode(#"{"key":"u1","x":1}"#, at: 7))
        #expect(got == "u1")
        #expect(after == 11)
    }
}
