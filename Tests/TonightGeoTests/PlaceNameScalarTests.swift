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
        let cases = try definitionOnEveryScalar(module: "feed", function: "place_name")
        let wrong = cases.filter { c in
            !Self.otherUnicodeVersion.contains(String(c.scalar, radix: 16))
                && PlaceName.normalize(c.input).unicodeScalars.map(\.value) != c.output.unicodeScalars.map(\.value)
        }.map { String($0.scalar, radix: 16) }
        #expect(cases.count > 280_000)
        #expect(wrong.isEmpty, "\(wrong.count) scalars normalise otherwise: U+\(wrong.prefix(60).joined(separator: ", U+"))")
    }
}
