import Foundation
import TonightBase

/// City-name normalisation of geocoding.md: case folding, accents stripped, punctuation and
/// spaces collapsed, the usual abbreviations expanded (`St.` → Saint, `Ft.` → Fort,
/// `Mt.` → Mount, `Ste` → Sainte).
package enum PlaceName {
    static let abbreviations: [String: String] = ["st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount"]

    package static func normalize(_ s: String) -> String {
        if let fast = asciiNormalize(s) { return fast }
        return words(generalFold(s))
    }

    /// Case folded (Unicode's full folding), compatibility-decomposed (NFKD), nonspacing marks
    /// dropped, composed again (NFKC): the cross-check's definition. Until 2026-11-28 this was
    /// Foundation's diacritic-, case- and width-insensitive folding, which keeps compatibility
    /// forms ("ﬁ", "²", "Ĳ", "ª", "ʰ", "Ⅻ", "①") and some marks, and lower-cases (Cherokee);
    /// `PlaceNameScalarTests` compares every assigned scalar with the definition.
    static func generalFold(_ s: String) -> String {
        var kept = String.UnicodeScalarView()
        for c in NameKey.caseFolded(s).decomposedStringWithCompatibilityMapping.unicodeScalars
        where c.properties.generalCategory != .nonspacingMark {
            kept.append(c)
        }
        return String(kept).precomposedStringWithCompatibilityMapping
    }

    /// Words of letters (general category L) and numbers (any numeric type), one space
    /// between, the usual abbreviations expanded.
    static func words(_ folded: String) -> String {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for u in folded.unicodeScalars {
            if isWordScalar(u) {
                current.append(u)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words.map { abbreviations[$0] ?? $0 }.joined(separator: " ")
    }

    static func isWordScalar(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return u.properties.numericType != nil
        }
    }

    /// The same for pure-ASCII names without Foundation (nearly all of them): words of
    /// letters and digits, lower-cased, one space between, written straight into the string
    /// (a word is checked for an abbreviation once written).
    static func asciiNormalize(_ s: String) -> String? {
        var s = s
        return s.withUTF8 { b -> String? in
            for c in b where c >= 0x80 { return nil }
            // "st" → "saint" is the most a word grows (2 bytes to 5), plus a space per word.
            return String(unsafeUninitializedCapacity: b.count * 3 + 1) { out in
                var n = 0, word = -1
                func finish() {
                    guard word >= 0 else { return }
                    let length = n - word
                    if length == 2 || length == 3 {
                        let w0 = out[word], w1 = out[word + 1]
                        let w2: UInt8 = length == 3 ? out[word + 2] : 0
                        let long: StaticString?
                        switch (w0, w1, w2) {
                        case (0x73, 0x74, 0): long = "saint"
                        case (0x73, 0x74, 0x65): long = "sainte"
                        case (0x66, 0x74, 0): long = "fort"
                        case (0x6D, 0x74, 0): long = "mount"
                        default: long = nil
                        }
                        if let long {
                            n = word
                            long.withUTF8Buffer { for c in $0 { out[n] = c; n += 1 } }
                        }
                    }
                    word = -1
                }
                for c in b {
                    let lower: UInt8
                    switch c {
                    case 0x41...0x5A: lower = c | 0x20
                    case 0x61...0x7A, 0x30...0x39: lower = c
                    default:
                        finish()
                        continue
                    }
                    if word < 0 {
                        if n > 0 {
                            out[n] = 0x20
                            n += 1
                        }
                        word = n
                    }
                    out[n] = lower
                    n += 1
                }
                finish()
                return n
            }
        }
    }

    /// The key of a (city, region) pair, with `New York` in NY meaning New York City.
    package static func key(city: String, region: String) -> String {
        key(normalizedCity: normalize(city), upperRegion: region.uppercased())
    }

    /// `key` of a name already normalised and a region already upper-cased.
    static func key(normalizedCity c: String, upperRegion region: String) -> String {
        region + "|" + (region == "NY" && c == "new york" ? "new york city" : c)
    }
}
