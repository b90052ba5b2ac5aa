import Foundation

/// City-name normalisation of geocoding.md: case folding, accents stripped, punctuation and
/// spaces collapsed, the usual abbreviations expanded (`St.` → Saint, `Ft.` → Fort,
/// `Mt.` → Mount, `Ste` → Sainte).
package enum PlaceName {
    static let abbreviations: [String: String] = ["st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount"]

    package static func normalize(_ s: String) -> String {
        if let fast = asciiNormalize(s) { return fast }
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

    /// The same for pure-ASCII names without Foundation (nearly all of them).
    static func asciiNormalize(_ s: String) -> String? {
        var out: [UInt8] = []
        var word: [UInt8] = []
        func flush() {
            guard !word.isEmpty else { return }
            if !out.isEmpty { out.append(0x20) }
            switch word {
            case [0x73, 0x74]: out.append(contentsOf: Array("saint".utf8))
            case [0x73, 0x74, 0x65]: out.append(contentsOf: Array("sainte".utf8))
            case [0x66, 0x74]: out.append(contentsOf: Array("fort".utf8))
            case [0x6d, 0x74]: out.append(contentsOf: Array("mount".utf8))
            default: out.append(contentsOf: word)
            }
            word.removeAll(keepingCapacity: true)
        }
        for c in s.utf8 {
            if c >= 0x80 { return nil }
            switch c {
            case 0x41...0x5a: word.append(c | 0x20)
            case 0x61...0x7a, 0x30...0x39: word.append(c)
            default: flush()
            }
        }
        flush()
        return String(decoding: out, as: UTF8.self)
    }

    /// The key of a (city, region) pair, with `New York` in NY meaning New York City.
    package static func key(city: String, region: String) -> String {
        var c = normalize(city)
        if region == "NY" && c == "new york" { c = "new york city" }
        return region.uppercased() + "|" + c
    }
}
