import Foundation

/// City-name normalisation of geocoding.md: case folding, accents stripped, punctuation and
/// spaces collapsed, the usual abbreviations expanded (`St.` → Saint, `Ft.` → Fort,
/// `Mt.` → Mount, `Ste` → Sainte).
package enum PlaceName {
    static let abbreviations: [String: String] = ["st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount"]

    package static func normalize(_ s: String) -> String {
        let folded = s.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var words: [String] = []
        var current = ""
        for u in folded.unicodeScalars {
            if u.properties.isAlphabetic || u.properties.numericType != nil {
                current.unicodeScalars.append(u)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { abbreviations[$0] ?? $0 }.joined(separator: " ")
    }

    /// The key of a (city, region) pair, with `New York` in NY meaning New York City.
    package static func key(city: String, region: String) -> String {
        var c = normalize(city)
        if region == "NY" && c == "new york" { c = "new york city" }
        return region.uppercased() + "|" + c
    }
}
