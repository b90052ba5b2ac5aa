import Foundation
import Testing
import TonightBase
import TonightGenerator

/// `JSONKey.appendEncoded` writes every JSON string of the pipeline (`JSONWriter.appendString`
/// is it) and every key of the key indexes: runs between escapes are appended whole, so the
/// escapes at the start, in the middle and at the end of a string, next to each other or
/// alone, must each land where they belong.
@Suite struct JSONKeyEncodeTests {
    static func encode(_ s: String) -> String {
        var out: [UInt8] = []
        JSONKey.appendEncoded(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: [
        ("abc", #""abc""#), ("", #""""#), ("\"", #""\"""#), ("a\"b", #""a\"b""#), ("\\end", #""\\end""#),
        ("tail\\", #""tail\\""#), ("\n\r\t", #""\n\r\t""#), ("x\u{1}y\u{1f}", #""x\u0001y\u001f""#),
        ("\u{0}", #""\u0000""#), ("café \"ü\"", #""café \"ü\"""#), ("🎟️ tonight", #""🎟️ tonight""#), ("\u{7f}", "\"\u{7f}\""),
    ])
    func writesTheEscapesWhereTheyAre(_ text: String, _ expected: String) {
        #expect(Self.encode(text) == expected)
    }

    /// Every ASCII character alone and between others, and random strings of escapes, plain
    /// runs and multi-byte characters: Foundation's JSON parser and `JSONKey.decode` read back
    /// the string written.
    @Test func readsBackAsTheSameString() throws {
        var texts = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        texts += (0..<128).map { "a" + String(UnicodeScalar(UInt8($0))) + "bc" }
        let pieces = ["\"", "\\", "\n", "\u{1}", "\t", "plain", "é", "名", "🎟️", " ", "/", "\u{1f}"]
        var random = SplitMix64(seed: 19)
        for _ in 0..<2_000 {
            texts.append((0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for text in texts {
            let json = Self.encode(text)
            let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
            #expect(parsed == text, "\(json)")
            let bytes = Array(json.utf8)
            let decoded = bytes.withUnsafeBufferPointer { JSONKey.decode($0, at: 0) }
            #expect(decoded.map { String(decoding: $0.0, as: UTF8.self) } == text, "\(json)")
            #expect(decoded?.1 == bytes.count)
        }
    }
}
