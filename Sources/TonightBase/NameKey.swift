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
}
