import Foundation
import Testing
@testable import TonightExports
import TonightTesting

/// The exports' field rules against the cross-check's definitions of them
/// (`scripts/definitions/common.py` and `playmate.py`, written from user-data.md and INPUTS.md):
/// what an id is (1 to 64 printable characters), what a number is (decimal text, finite) and
/// what a text's ends lose (white space).
@Suite struct FieldRuleDefinitionTests {
    static func id(_ text: String) -> String? {
        Array(text.utf8).withUnsafeBufferPointer { Field.id($0) }
    }

    /// Every scalar Python's Unicode assigns, inside an id: valid exactly when the definition
    /// (`str.isprintable`) says. Until 2026-11-28 only ASCII controls were refused: 137,681
    /// scalars differed (most of them private use; the C1 controls such as U+0085, format
    /// characters such as U+202E and U+200B, U+2028, the no-break and other spaces).
    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func everyScalarInAnIdIsPrintableAsTheDefinitionSays() throws {
        let cases = try definitionOnEveryScalar(module: "common", function: "id_or_empty", from: 0, composed: false)
        let wrong = cases.filter { (Self.id($0.input) ?? "") != $0.output }.map { String($0.scalar, radix: 16) }
        #expect(cases.count > 280_000)
        #expect(wrong.isEmpty, "\(wrong.count) scalars differ: U+\(wrong.prefix(20).joined(separator: ", U+"))")
    }

    /// Every scalar Python's Unicode assigns, at both ends of an ASCII text, of a Latin-1 one
    /// and alone: the exports' text rule (`Field.text`, and `Field.appendText` that the
    /// loaders' columns use) trims exactly what the definition does (feed.md's "white space":
    /// Unicode's White_Space). Until 2026-11-28 an ASCII text kept a vertical tab or form feed
    /// at its ends (a text with a letter beyond ASCII lost them), so "Tennis\u{B}" was a sport
    /// of its own and a feedback answer "no\u{C}" a reject.
    @Test(.enabled(if: ExternalTool.python3.isAvailable), arguments: ["{}ab{}", "{}é{}", "{}"])
    func everyScalarAtTheEndsOfATextIsTrimmedAsTheDefinitionSays(_ template: String) throws {
        let cases = try definitionOnEveryScalar(module: "playmate", function: "clean_or_empty", from: 0, composed: false,
                                                template: template)
        var wrong: [String] = []
        for c in cases {
            let bytes = Array(c.input.utf8)
            let text = bytes.withUnsafeBufferPointer { Field.text($0) } ?? ""
            var strings = ByteStrings()
            bytes.withUnsafeBufferPointer { Field.appendText($0, to: &strings) }
            let appended = strings.withBytes(of: 0) { String(decoding: $0, as: UTF8.self) }
            if text != c.output || appended != c.output { wrong.append(String(c.scalar, radix: 16)) }
        }
        #expect(cases.count > 280_000)
        #expect(wrong.isEmpty, "\(wrong.count) scalars differ: U+\(wrong.prefix(20).joined(separator: ", U+"))")
    }

    @Test(arguments: [
        ("xWMyZ4YEGZ", true), ("  padded\t", true), ("with space", true), ("é" + String(repeating: "x", count: 63), true),
        ("Zoë-87", true), ("東京", true), ("a\u{85}b", false), ("\u{202E}kcatta", false), ("a\u{200B}b", false),
        ("a\u{2028}b", false), ("a\u{A0}b", false), ("a\u{E000}b", false), ("\u{FEFF}id", false), ("a\u{7F}b", false),
    ])
    func ids(_ text: String, _ valid: Bool) {
        #expect((Self.id(text) != nil) == valid, "\(text.debugDescription)")
    }

    /// Every text of 1 to `length` characters over `alphabet`.
    static func texts(over alphabet: String, upTo length: Int) -> [String] {
        var texts = [""]
        var all: [String] = []
        for _ in 1...length {
            texts = texts.flatMap { t in alphabet.map { t + String($0) } }
            all += texts
        }
        return all
    }

    /// The texts `Field` reads (`read`) other than the definition's `function` of `module` in
    /// `scripts/definitions` (a number, a date as days since 1970-01-01, or None), as "text:
    /// ours vs theirs" lines.
    static func differences(_ texts: [String], module: String, function: String, read: (UnsafeBufferPointer<UInt8>) -> Double?) throws
        -> [String]
    {
        let dir = temporaryDirectory("field-\(function)")
        let input = dir.appendingPathComponent("texts.json")
        try JSONEncoder().encode(texts).write(to: input)
        let script = """
            import datetime, json, sys
            sys.path.insert(0, "\(packageRoot.appendingPathComponent("scripts").path)")
            from definitions.\(module) import \(function)
            for t in json.load(open("\(input.path)")):
                v = \(function)(t)
                if isinstance(v, datetime.date):
                    v = (v - datetime.date(1970, 1, 1)).days
                print("-" if v is None else float(v).hex())
            """
        let file = dir.appendingPathComponent("\(function).py")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let result = try shell("python3 '\(file.path)'")
        try #require(result.status == 0, "\(result.output)")
        let want = result.output.split(separator: "\n", omittingEmptySubsequences: false).prefix(texts.count)
        try #require(want.count == texts.count)
        var wrong: [String] = []
        for (text, w) in zip(texts, want) {
            let got = Array(text.utf8).withUnsafeBufferPointer(read)
            let expected: Double? = w == "-" ? nil : Double(String(w))  // Python's float.hex(), which Swift reads
            if got?.bitPattern != expected?.bitPattern { wrong.append("\(text.debugDescription): \(String(describing: got)) vs \(w)") }
        }
        return wrong
    }

    /// Every text of up to four characters over digits, point, signs, exponents, spaces and a
    /// few letters (hex, `inf`, `nan`, underscores): `Field.double` gives the definition's
    /// number, or nil when it has none.
    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func numbersAreTheDefinitions() throws {
        let all = Self.texts(over: "05.-+eE x_n\t", upTo: 4) + [
            "1e400", "-1e400", "1e-400", "nan", "inf", "-inf", "Infinity", "0x1p3", "1_000", String(repeating: "1", count: 39),
            String(repeating: "1", count: 40), "12345678901234567890", "0.1000000000000000055511151231257827",
        ]
        let wrong = try Self.differences(all, module: "common", function: "number") { Field.double($0) }
        #expect(all.count > 20_000)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(10))")
    }

    /// Every text of up to six characters over `$`, digits, `,`, `.`, `-` and a space: a budget
    /// (`Field.double`, else `Field.money`: PostgreSQL's `money`, `$1,025.00`) is the
    /// definition's (`tickets.budget`), or absent where it has none.
    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func budgetsAreTheDefinitions() throws {
        let all = Self.texts(over: "$10,.- ", upTo: 6) + [
            "$1,025.50", "$1,000,000.00", "$1,000,000.001", "$12,345,678", "$1,2345", "$12,34", "$1,025.5.0", "\t$25.00 ",
            "$" + String(repeating: "1", count: 39), "$" + String(repeating: "1", count: 40), "$999,999,999,999,999,999,999",
        ]
        var money = 0
        let wrong = try Self.differences(all, module: "tickets", function: "budget") { b in
            if let d = Field.double(b) { return d }
            let m = Field.money(b)
            if m != nil { money += 1 }
            return m
        }
        #expect(all.count > 100_000 && money > 100, "\(money) amounts")
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(10))")
    }

    /// Birthdays: `1990-01-05` followed by every text of up to five characters over a
    /// timestamp's characters, and the forms exporters write (times, fractions, zones, each
    /// right and wrong) after real and unreal dates: `PlaymateLoader.birthday` gives the
    /// definition's date (`playmate.birthday_date`: a `YYYY-MM-DD`, or that date at midnight as a
    /// timestamp), or none where it has none. A definition that took the date of any time of day
    /// differs on 480 texts; one that let an offset pass 14 hours, on 24.
    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func birthdaysAreTheDefinitions() throws {
        var all = Self.texts(over: "T 0:.Z+1", upTo: 5).map { "1990-01-05" + $0 }
        let times = ["T00:00:00", " 00:00:00", "T00:00:01", "T12:00:00", "T23:59:59", "T00:00", "T24:00:00", "t00:00:00", "  00:00:00"]
        let fractions = ["", ".0", ",000", ".000000000", ".001", ".", ".0a", ".10"]
        let zones = ["", "Z", "z", "+00", "-00", "+0000", "+00:00", "-05:00", "+05:30", "+14:00", "+14:59", "+15:00", "+05:60", "+5",
                     "+05:0", "+0500Z", " Z", "UTC", "ZZ", "+00:00:00"]
        for date in ["1990-01-05", "2024-02-29", "2023-02-29", "1990-13-01", "1990-1-05", "19900105", "1900-01-01"] {
            for t in times { for f in fractions { for z in zones { all.append(date + t + f + z) } } }
        }
        // 3 real dates × 2 times × 4 fractions of zeros × 10 zones are midnights.
        var midnight = 0
        let wrong = try Self.differences(all, module: "playmate", function: "birthday_date") { b in
            let read = PlaymateLoader.birthday(b)
            if case .midnight = read { midnight += 1 }
            return read.days.map(Double.init)
        }
        #expect(all.count > 40_000 && midnight == 240, "\(all.count) texts, \(midnight) at midnight")
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(10))")
    }

    /// Sessions' instants: every text of up to ten characters over `9`, `0` and `.`, numbers
    /// of 8 to 14 digits at the edges of the two epoch forms, signs, spaces, exponents and
    /// other digits, and the ISO forms: `PlaymateLoader.occursAt` gives the definition's
    /// instant (`common.session_instant`), or none where it has none. A definition that read
    /// 11 digits as seconds differs on 8 texts; one that took a fraction on milliseconds, on 18.
    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func instantsAreTheDefinitions() throws {
        var all = Self.texts(over: "90.", upTo: 10)
        for n in ["946684800", "946684799", "4102444799", "4102444800", "999999999", "1732300000", "0946684800", "00000000000",
                  "17323000001", "946684800000", "946684800001", "4102444799999", "4102444799001", "999999999999", "1732300000250",
                  "17323000002500", "12345678", "1234567890123456789012"] {
            for f in ["", ".0", ".25", ".000", ".", ".0.0", "e3", ",5", " ", "Z"] { all.append(n + f) }
            for p in ["-", "+", " ", "0x"] { all.append(p + n) }
        }
        all += ["1_732_300_000", "1,732,300,000", "\u{FF11}732300000", "2026-11-22T18:00:00Z", "2026-11-22 18:00:00.5+01:00",
                "2026-11-22T18:00:00", "1.7323e9"]
        var epochs = 0
        let wrong = try Self.differences(all, module: "common", function: "session_instant") { b in
            guard let (t, epoch) = PlaymateLoader.occursAt(String(decoding: b, as: UTF8.self)) else { return nil }
            if epoch { epochs += 1 }
            return Double(t)
        }
        #expect(all.count > 80_000 && epochs > 1_000, "\(all.count) texts, \(epochs) epochs")
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(10))")
    }
}
