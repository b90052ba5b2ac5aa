import Foundation

/// The name key of affinity.md (NFKC, case folding, whitespace runs as one space, trimmed):
/// the general path, shared by the pipeline and the reader's `suggestArtists(prefix:)`.
package enum NameKey {
    package static func general(_ s: String) -> String {
        let folded = completingFold(
            s.precomposedStringWithCompatibilityMapping
                .folding(options: [.caseInsensitive], locale: nil)
                .precomposedStringWithCompatibilityMapping)
        var out = ""
        out.reserveCapacity(folded.utf8.count)
        var pendingSpace = false
        for ch in folded.unicodeScalars {
            if ch.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.unicodeScalars.append(" ")
                pendingSpace = false
            }
            out.unicodeScalars.append(ch)
        }
        return out
    }

    /// Whether `key` starts with `prefix` scalar by scalar, as the pipeline cuts the search
    /// prefixes (`String.hasPrefix` compares `Character`s, which fuse a letter with a following
    /// combining mark that NFKC leaves apart, so "abcdq" was no prefix of "abcdq̇r").
    package static func hasPrefix(_ key: String, _ prefix: String) -> Bool {
        key.unicodeScalars.starts(with: prefix.unicodeScalars)
    }

    /// The words of a name key for search as you type over events: split at spaces, with
    /// punctuation and symbols trimmed from both ends of each word ("rivera," → "rivera"),
    /// empty words dropped. The pipeline's `event_search` and the reader's `searchEvents` use it.
    /// Split at the space scalar, not the space `Character`: NFKC makes spacing accents (´ ¨ ˜)
    /// a space and a combining mark, which one `Character` holds.
    package static func words(ofKey key: String) -> [String] {
        key.unicodeScalars.split(separator: " ").compactMap { word in
            let scalars = Array(word)
            let keep = { (c: Unicode.Scalar) in c.properties.isAlphabetic || c.properties.numericType != nil }
            guard let first = scalars.firstIndex(where: keep), let last = scalars.lastIndex(where: keep) else { return nil }
            var out = ""
            out.unicodeScalars.append(contentsOf: scalars[first...last])
            return out
        }
    }

    /// Unicode's full case folding where Foundation's `.caseInsensitive` folding stops short
    /// of it. Foundation lower-cases, and lower case is not the folding for two sets of
    /// letters (found by comparing every scalar with Python's `str.casefold`,
    /// `CaseFoldingTests`): Cherokee, whose small letters fold to the capitals (Unicode's
    /// stability rule; Foundation turns the capitals into small letters), and the Cyrillic
    /// variants U+1C80–U+1C88, which fold to the letters they vary (в, д, о, …) and which
    /// Foundation leaves. A scalar of the result that still changes when case-folded
    /// (`changesWhenCaseFolded`) takes the lower case of its upper case when that is folded,
    /// else its upper case (Cherokee); the result is composed again (NFKC).
    static func completingFold(_ s: String) -> String { completingFold(s, compatibility: true) }

    /// Unicode's full case folding of `s`, composed (NFC): what "compared case-insensitively"
    /// compares (default caseless matching), without NFKC's compatibility mappings. "Straße"
    /// and "STRASSE" give "strasse", Cherokee small letters their capitals, "ΣΑΣ" "σασ".
    package static func caseFolded(_ s: String) -> String {
        completingFold(s.folding(options: [.caseInsensitive], locale: nil), compatibility: false).precomposedStringWithCanonicalMapping
    }

    /// `completingFold`, composing the result with NFKC (`compatibility`) or NFC.
    static func completingFold(_ s: String, compatibility: Bool) -> String {
        guard s.unicodeScalars.contains(where: { $0.value >= 0x80 && $0.properties.changesWhenCaseFolded }) else { return s }
        var out = String.UnicodeScalarView()
        for c in s.unicodeScalars {
            guard c.value >= 0x80, c.properties.changesWhenCaseFolded else {
                out.append(c)
                continue
            }
            let upper = c.properties.uppercaseMapping, lowerOfUpper = upper.lowercased()
            let folded = { (t: String) in !t.unicodeScalars.contains { $0.properties.changesWhenCaseFolded } }
            out.append(contentsOf: (folded(lowerOfUpper) ? lowerOfUpper : folded(upper) ? upper : String(c)).unicodeScalars)
        }
        return compatibility ? String(out).precomposedStringWithCompatibilityMapping : String(out).precomposedStringWithCanonicalMapping
    }
}
