import Testing
import TonightBase
import TonightGenerator

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

/// `JSONKey.startsRecord`, a verification's test that a line opens with `{"key":`: true for
/// exactly the lines `Sequence.starts(with:)` accepts, which it replaced.
@Suite struct JSONKeyRecordStartTests {
    static func starts(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { JSONKey.startsRecord($0) }
    }

    @Test(arguments: [#"{"key":"u1"}"#, #"{"key":"#, #"{"key":1"#])
    func acceptsARecordsOpening(_ line: String) {
        #expect(Self.starts(line))
    }

    @Test(arguments: ["", "{", #"{"key""#, #"{"Key":"u1"}"#, #"{"kez":"u1"}"#, #" {"key":"u1"}"#, #"["key":"u1"]"#,
                      #"{'key':"u1"}"#, #"{"key" :"u1"}"#, #"{"keys":"u1"}"#])
    func refusesEverythingElse(_ line: String) {
        #expect(!Self.starts(line))
    }

    /// Each of the seven bytes changed to every other value: refused; and the same answer as
    /// `starts(with:)` for every line of up to eight bytes drawn from the prefix's own bytes.
    @Test func agreesWithStartsWith() {
        let prefix = Array(#"{"key":"#.utf8)
        for position in 0..<7 {
            for value in 0...255 where UInt8(value) != prefix[position] {
                var line = prefix + Array(#""u1"}"#.utf8)
                line[position] = UInt8(value)
                #expect(!line.withUnsafeBufferPointer { JSONKey.startsRecord($0) })
            }
        }
        var generator = SplitMix64(seed: 7)
        let alphabet = prefix + [0x20, 0x7D]
        for _ in 0..<20_000 {
            let line = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            #expect(line.withUnsafeBufferPointer { JSONKey.startsRecord($0) } == line.starts(with: prefix))
        }
    }
}
