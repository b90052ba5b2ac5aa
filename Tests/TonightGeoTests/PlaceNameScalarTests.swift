import Foundation
import Testing
import TonightTesting
@testable import TonightGeo

/// `PlaceName.normalize` (geocoding.md: case folding, accents stripped, punctuation and spaces
/// collapsed) on every assigned scalar between two letters, against the cross-check's
/// definition (`scripts/definitions/feed.py`'s `place_name`). Until 2026-11-28 the general path
/// was Foundation's folding, which differed on 4,300 scalars: compatibility forms kept ("ﬁ",
/// "²", "Ĳ", "ª", "Ⅻ", "①"), marks of other scripts kept, spacing vowel signs joined to words.
@Suite struct PlaceNameScalarTests {
    /// Scalars whose properties changed between Python's Unicode (14) and Swift's: U+1171E
    /// (Ahom consonant sign medial ra) became a spacing mark (Mc) in Unicode 15.
    static let otherUnicodeVersion: Set<String> = ["1171e"]

    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func everyScalarNormalisesAsTheDefinitionSays() throws {
        let script = """
            import sys, unicodedata
            sys.path.insert(0, "\(packageRoot.appendingPathComponent("scripts").path)")
            from definitions.feed import place_name
            out = []
            for c in range(0x80, 0x110000):
                if 0xD800 <= c < 0xE000 or unicodedata.category(chr(c)) == "Cn":
                    continue
                s = unicodedata.normalize("NFC", "a" + chr(c) + "b")
                out.append("%s %s" % (",".join(str(ord(x)) for x in s), ",".join(str(ord(x)) for x in place_name(s)) or "-"))
            print("\\n".join(out))
            """
        let file = temporaryDirectory("placename").appendingPathComponent("names.py")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let result = try shell("python3 '\(file.path)'")
        try #require(result.status == 0)
        func scalars(_ text: Substring) -> String {
            var s = String.UnicodeScalarView()
            for v in text.split(separator: ",") { s.append(Unicode.Scalar(UInt32(v)!)!) }
            return String(s)
        }
        var checked = 0, wrong: [String] = []
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { Issue.record("bad line \(line)"); return }
            let want = parts[1] == "-" ? "" : scalars(parts[1])
            let scalar = parts[0].split(separator: ",").dropFirst().first.map { String(UInt32($0)!, radix: 16) } ?? "?"
            if Self.otherUnicodeVersion.contains(scalar) { continue }
            if PlaceName.normalize(scalars(parts[0])).unicodeScalars.map(\.value) != want.unicodeScalars.map(\.value) {
                wrong.append(scalar)
            }
            checked += 1
        }
        #expect(checked > 280_000)
        #expect(wrong.isEmpty, "\(wrong.count) scalars normalise otherwise: U+\(wrong.prefix(60).joined(separator: ", U+"))")
    }
}
