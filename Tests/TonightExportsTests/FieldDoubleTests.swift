import Foundation
import Testing
@testable import TonightExports

/// `Field.double`'s fast path for plain decimals against the general parse it skips
/// (`Double(String)`, i.e. `strtod`): the same bits, or both nil, for every text.
@Suite struct FieldDoubleTests {
    /// The general parse alone, as `Field.double` read every cell before the fast path.
    static func general(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard !t.isEmpty, t.utf8.count < 40 else { return nil }
        for c in t.utf8 where !((c >= 48 && c <= 57) || c == 46 || c == 45 || c == 43 || c == 101 || c == 69) { return nil }
        guard let v = Double(t), v.isFinite else { return nil }
        return v
    }

    static func field(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { Field.double($0) }
    }

    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?): return x.bitPattern == y.bitPattern
        default: return false
        }
    }

    /// Every text of up to five characters over digits, point and signs.
    @Test func everyShortText() {
        let alphabet = Array("0159.-+")
        var texts = [""]
        var wrong: [String] = []
        for _ in 1...5 {
            texts = texts.flatMap { t in alphabet.map { t + String($0) } }
            for t in texts where !Self.same(Self.field(t), Self.general(t)) { wrong.append(t) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    /// Coordinates, radii and prices as exporters write them, and digit counts around the
    /// fast path's limit of 15, with leading zeros, signs and stray spaces.
    @Test func randomDecimals() {
        var rng = SystemRandomNumberGenerator()
        var wrong: [String] = []
        for n in 0..<300_000 {
            let whole = Int.random(in: 0...(n % 3 == 0 ? 999_999_999 : 180), using: &rng)
            let places = Int.random(in: 0...12, using: &rng)
            var text = String(whole)
            if n % 7 == 0 { text = String(repeating: "0", count: Int.random(in: 1...4, using: &rng)) + text }
            if places > 0 || n % 11 == 0 {
                text += "."
                for _ in 0..<places { text += String(Int.random(in: 0...9, using: &rng)) }
            }
            if n % 2 == 0 { text = "-" + text } else if n % 13 == 0 { text = "+" + text }
            if n % 17 == 0 { text = " " + text + "\t" }
            if !Self.same(Self.field(text), Self.general(text)) { wrong.append(text) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    @Test(arguments: ["40.712776", "-73.935242", ".5", "5.", "-0", "-0.0", "+12.25", "0.1", "0.3", "123456789012345",
                      "1234567890123456", "9007199254740993", "0.000000000000001", "1e5", "1.5E-3", "", "-", ".", "+.", "1.2.3",
                      "--1", "1-", "١٢", "0x1A", "nan", "inf", "  7.25  "])
    func knownTexts(_ text: String) {
        #expect(Self.same(Self.field(text), Self.general(text)), "\(text)")
    }
}
