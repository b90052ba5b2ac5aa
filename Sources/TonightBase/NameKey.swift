import Foundation

/// The name key of affinity.md (NFKC, case folding, whitespace runs as one space, trimmed):
/// the general path, shared by the pipeline and the reader's `suggestArtists(prefix:)`.
package enum NameKey {
    package static func general(_ s: String) -> String {
        let folded = s.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
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

    /// The words of a name key for search as you type over events: split at spaces, with
    /// punctuation and symbols trimmed from both ends of each word ("rivera," → "rivera"),
    /// empty words dropped. The pipeline's `event_search` and the reader's `searchEvents` use it.
    package static func words(ofKey key: String) -> [String] {
        key.split(separator: " ").compactMap { word in
            let scalars = Array(word.unicodeScalars)
            let keep = { (c: Unicode.Scalar) in c.properties.isAlphabetic || c.properties.numericType != nil }
            guard let first = scalars.firstIndex(where: keep), let last = scalars.lastIndex(where: keep) else { return nil }
            var out = ""
            out.unicodeScalars.append(contentsOf: scalars[first...last])
            return out
        }
    }
}
