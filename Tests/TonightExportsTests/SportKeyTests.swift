import Foundation
import Testing
@testable import TonightExports
import TonightGenerator
import TonightTesting

/// `PlaymateLoader.sportKey` on ASCII text (its own loop) against the Foundation trimming and
/// lowercasing it stands in for, and non-ASCII text against Unicode's full case folding (the
/// cross-check's definition: Python's `str.casefold`, NFC).
@Suite struct SportKeyTests {
    static func reference(_ s: String) -> String { s.trimmingCharacters(in: .whitespaces).lowercased() }

    /// Every ASCII byte alone, at both ends and inside a word, and random ASCII strings.
    static var asciiCases: [String] {
        var out: [String] = ["", " ", "\t", "  Tennis  ", "\tBEACH Volleyball\t", "Five-a-side ", "a\u{0B}", "\u{0C}b", "x\r\n"]
        for b in 0..<UInt8(128) {
            let c = String(UnicodeScalar(b))
            out += [c, c + "Ab", "Ab" + c, "A" + c + "b", " " + c + " "]
        }
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2_000 {
            let n = Int(rng.next() % 12)
            out.append(String((0..<n).map { _ in Character(UnicodeScalar(UInt8(rng.next() % 128))) }))
        }
        return out
    }

    @Test func asciiTextIsTrimmedAndLowercasedAsFoundationDoes() {
        for s in Self.asciiCases {
            #expect(PlaymateLoader.sportKey(s) == Self.reference(s), "\(Array(s.utf8))")
            let fast = Array(s.utf8).withUnsafeBufferPointer { PlaymateLoader.asciiSportKey($0) }
            #expect(fast == Self.reference(s))
        }
    }

    /// Trimmed as before; folded, not lower-cased: until 2026-11-28 "Straße" kept its ß and
    /// Cherokee its two cases, so a player avoiding "STRASSENFUSSBALL" was offered "Straßenfußball".
    static let foldingCases: [(String, String)] = [
        ("Pétanque", "pétanque"), (" ÉQUIPE ", "équipe"), ("\u{A0}Judo\u{A0}", "judo"), ("Kendō\u{2003}", "kendō"),
        ("Straßenfußball", "strassenfussball"), ("STRASSENFUSSBALL", "strassenfussball"), ("ΣΑΣ", "σασ"), ("σας", "σασ"),
        ("\u{13A0}\u{13A1}", "\u{13A0}\u{13A1}"), ("\u{AB70}\u{AB71}", "\u{13A0}\u{13A1}"), ("\u{1C80}olo", "\u{432}olo"),
        ("İstanbul run", "i\u{307}stanbul run"), ("\u{FB00} Ball", "ff ball"),
    ]

    @Test(arguments: foldingCases)
    func otherTextIsCaseFolded(_ s: String, _ key: String) {
        #expect(PlaymateLoader.sportKey(s) == key, "\(s.debugDescription)")
    }

    /// Every scalar Python's Unicode assigns, between two letters (NFC, as the loader's text
    /// rule hands it over), gets the cross-check definition's key.
    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func everyScalarFoldsAsTheDefinitionSays() throws {
        let cases = try definitionOnEveryScalar(module: "playmate", function: "sport_key", skipping: ["Zs"])
        let wrong = cases.filter { PlaymateLoader.sportKey($0.input).unicodeScalars.map(\.value) != $0.output.unicodeScalars.map(\.value) }
            .map { String($0.scalar, radix: 16) }
        #expect(cases.count > 280_000)
        #expect(wrong.isEmpty, "\(wrong.count) scalars fold otherwise: U+\(wrong.prefix(20).joined(separator: ", U+"))")
    }
}
