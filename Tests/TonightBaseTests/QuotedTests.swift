import Foundation
import Testing
@testable import TonightBase

/// Text from inputs repeated in messages, reports and log lines: no control character gets
/// through raw (a terminal would act on an escape sequence; a line break would start what
/// reads as another log line), and nothing else is changed.
@Suite struct QuotedTests {
    static let hostile: [(raw: String, line: String)] = [
        ("1\u{1B}[2J\u{1B}]0;owned\u{07}", #"1\u{1B}[2J\u{1B}]0;owned\u{07}"#),
        ("10\u{0}96", #"10\u{0}96"#),
        ("x\u{009B}2Jy", #"x\u{009B}2Jy"#),
        ("ok\n2026-11-30T00:00:00Z INFO publish: done", #"ok\n2026-11-30T00:00:00Z INFO publish: done"#),
        ("a\rb\tc\u{7F}d", #"a\rb\tc\u{7F}d"#),
    ]

    @Test(arguments: hostile)
    func aLineEscapesEveryControlCharacter(_ raw: String, _ line: String) {
        #expect(Quoted.line(raw) == line)
        #expect(!Quoted.line(raw).unicodeScalars.contains(where: Quoted.isControl))
        // The limited form escapes the same way.
        #expect(Quoted.text(raw) == line)
    }

    @Test(arguments: ["", "plain ascii", "Beyoncé — 東京ドーム 🎫", "quote ' and \\ backslash", String(repeating: "long ", count: 1000)])
    func textWithoutControlCharactersIsLeftAsItIs(_ s: String) {
        #expect(Quoted.line(s) == s)
    }

    @Test func theControlCharactersAreC0DeleteAndC1() {
        let controls = (0..<0x20).map { $0 } + [0x7F] + (0x80..<0xA0).map { $0 }
        for v in 0..<0x300 {
            let scalar = Unicode.Scalar(UInt32(v))!
            #expect(Quoted.isControl(scalar) == controls.contains(v), "U+\(String(v, radix: 16))")
        }
    }

    @Test func linesKeepTheirBreaksAndEscapeTheRest() {
        #expect(Quoted.lines("Error: '\u{1B}[2J'\nUsage: x\r\n\n") == "Error: '\\u{1B}[2J'\nUsage: x\\r\n\n")
        #expect(Quoted.lines("one line") == "one line")
    }

    /// DEL and every C1 control become `\u00XX` in JSON text; the rest, C0 escapes included,
    /// stays as the encoder wrote it.
    @Test func jsonTextGetsDeleteAndC1Escaped() throws {
        let all = String(String.UnicodeScalarView((0x7F..<0xA0).map { Unicode.Scalar(UInt32($0))! }))
        let json = String(decoding: try JSONSerialization.data(withJSONObject: ["m": "a\u{1B}" + all + "é"]), as: UTF8.self)
        let escaped = Quoted.jsonControls(json)
        #expect(!escaped.unicodeScalars.contains(where: Quoted.isControl))
        #expect(escaped.contains(#"\u007F\u0080"#) && escaped.contains(#"\u009F"#) && escaped.contains(#"\u001b"#))
        let back = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(back == ["m": "a\u{1B}" + all + "é"])
        #expect(Quoted.jsonControls(#"{"m":"plain é"}"#) == #"{"m":"plain é"}"#)
    }

    @Test func aListShowsItsFirstItemsAndCountsTheRest() {
        #expect(Quoted.list(["a", "b"], limit: 3) == "a, b")
        #expect(Quoted.list(["a", "b", "c"], limit: 3) == "a, b, c")
        #expect(Quoted.list(["a", "b", "c", "d", "e"], limit: 3) == "a, b, c, … (2 more)")
        #expect(Quoted.list([String](), limit: 3) == "")
    }
}
