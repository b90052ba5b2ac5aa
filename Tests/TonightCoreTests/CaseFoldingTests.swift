import Foundation
import Testing
import TonightBase
import TonightCore
import TonightTesting

/// The name key's case folding (affinity.md: "Unicode NFKC case folding"), which published
/// keys (`artist_suggest`) carry to services in other languages: it must be Unicode's full
/// case folding (CaseFolding.txt's C and F mappings, Python's `str.casefold`), not a lower
/// case. Generated names never tell them apart, so they are compared here on every scalar.
@Suite struct CaseFoldingTests {
    /// Names whose key is not their lower case: `ß` and `ẞ` fold to "ss", ligatures and
    /// compatibility forms open up, final sigma and the Greek symbol variants fold to their
    /// letters, `İ` keeps its dot as U+0307, Cherokee folds to the capitals. The keys were
    /// written by `scripts/definitions/catalog.py`'s `name_key` (Python 3.11, Unicode 14).
    static let foldingCases: [(String, String)] = [
        ("Stra\u{DF}e", "strasse"),
        ("STRASSE", "strasse"),
        ("\u{FB01}re", "fire"),
        ("\u{FB00}", "ff"),
        ("\u{01C4}emal", "d\u{017E}emal"),
        ("\u{0130}stanbul", "i\u{0307}stanbul"),
        ("\u{038C}\u{03A3}\u{039F}\u{03A3}", "\u{03CC}\u{03C3}\u{03BF}\u{03C3}"),
        ("\u{1F48}\u{0394}\u{03A5}\u{03A3}\u{03A3}\u{0395}\u{038E}\u{03A3}", "\u{1F40}\u{03B4}\u{03C5}\u{03C3}\u{03C3}\u{03B5}\u{03CD}\u{03C3}"),
        ("\u{216B}", "xii"),
        ("\u{FF26}\u{FF55}\u{FF4C}\u{FF4C}\u{FF57}\u{FF49}\u{FF44}\u{FF54}\u{FF48}", "fullwidth"),
        ("\u{0149}", "\u{02BC}n"),
        ("\u{01F0}", "\u{01F0}"),
        ("\u{0390}", "\u{0390}"),
        ("\u{FB06}", "st"),
        ("\u{1FB3}", "\u{03B1}\u{03B9}"),
        ("\u{1FBC}", "\u{03B1}\u{03B9}"),
        ("\u{C5}", "\u{E5}"),
        ("K", "k"),
        ("\u{03A9}", "\u{03C9}"),
        ("\u{B5}", "\u{03BC}"),
        ("\u{017F}", "s"),
        ("\u{1E9E}", "ss"),
        ("\u{FB13}", "\u{0574}\u{0576}"),
        ("\u{01C5}", "d\u{017E}"),
        ("\u{03A3}", "\u{03C3}"),
        ("\u{03C2}", "\u{03C3}"),
        ("\u{03D0}", "\u{03B2}"),
        ("\u{03D1}", "\u{03B8}"),
        ("\u{03D5}", "\u{03C6}"),
        ("\u{03D6}", "\u{03C0}"),
        ("\u{03F0}", "\u{03BA}"),
        ("\u{03F1}", "\u{03C1}"),
        ("\u{03F5}", "\u{03B5}"),
        ("\u{1E9B}", "\u{1E61}"),
        ("\u{AB70}", "\u{13A0}"),
        ("\u{13A0}", "\u{13A0}"),
        ("\u{13F8}", "\u{13F0}"),
        ("\u{DF} \u{DF}", "ss ss"),
        ("M\u{F6}tley Cr\u{FC}e", "m\u{F6}tley cr\u{FC}e"),
        ("e\u{0301}", "\u{E9}"),
        ("\u{24B6}", "a"),
        ("\u{338F}", "kg"),
        ("\u{210C}", "h"),
        ("\u{FB00}i", "ffi"),
    ]

    @Test(arguments: foldingCases)
    func nameKeysFoldCaseFully(_ name: String, _ key: String) {
        #expect(TextNormalizer.nameKey(name) == key, "\(name.debugDescription)")
        var fromBytes: [UInt8] = []
        var s = name
        s.withUTF8 { TextNormalizer.appendNameKey($0, to: &fromBytes) }
        #expect(fromBytes == Array(key.utf8), "\(name.debugDescription)")
    }


    /// Every scalar Python's Unicode (14) assigns, between two letters, gets the key the
    /// cross-check's definition gives it, on the general path and the byte path. Foundation's
    /// `.caseInsensitive` folding alone differed on 190 of them (Cherokee, U+1C80–U+1C88).
    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func everyScalarFoldsAsUnicodeSays() throws {
        let cases = try definitionOnEveryScalar(module: "catalog", function: "name_key", from: 0, composed: false)
        var wrong: [String] = []
        for c in cases {
            let want = c.output.unicodeScalars.map(\.value)
            var bytes: [UInt8] = []
            var s = c.input
            s.withUTF8 { TextNormalizer.appendNameKey($0, to: &bytes) }
            let general = NameKey.general(c.input).unicodeScalars.map(\.value)
            let viaBytes = String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value)
            if general != want || viaBytes != want { wrong.append(String(c.scalar, radix: 16)) }
        }
        #expect(cases.count > 280_000)
        #expect(wrong.isEmpty, "\(wrong.count) scalars fold otherwise: U+\(wrong.prefix(20).joined(separator: ", U+"))")
    }

    /// `event_search`'s words split at the space *scalar*. NFKC turns spacing accents (´ ¨ ˜
    /// ¸, common for apostrophes: "Guns N´ Roses", "Rock´n´Roll") into a space and a combining
    /// mark, which Swift's `Character`s fuse, so a split at the space `Character` kept
    /// "rock ́n ́roll" as one word, spaces inside. The words of the cross-check's definition.
    static let wordCases: [(String, [String])] = [
        ("Guns N\u{B4} Roses", ["guns", "n", "roses"]), ("Rock\u{B4}n\u{B4}Roll", ["rock", "n", "roll"]),
        ("Don\u{A8}t", ["don", "t"]), ("a\u{2DC}b", ["a", "b"]), ("x \u{327}y", ["x", "y"]),
        ("Sigur R\u{F3}s", ["sigur", "r\u{F3}s"]), ("L'Arc~en~Ciel", ["l'arc~en~ciel"]), ("AC/DC", ["ac/dc"]),
        ("Florence + the Machine", ["florence", "the", "machine"]), ("t.A.T.u.", ["t.a.t.u"]),
        ("Hello\u{3000}World", ["hello", "world"]), ("\u{FB01}re fly", ["fire", "fly"]),
    ]

    @Test(arguments: wordCases)
    func wordsSplitAtTheSpaceScalar(_ name: String, _ words: [String]) {
        #expect(NameKey.words(ofKey: TextNormalizer.nameKey(name)) == words, "\(name.debugDescription)")
    }
}
