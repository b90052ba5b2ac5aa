import TonightBase
import TonightCore

/// The prefixes of the suggestion indexes (`artist_suggest`, `event_search`) met so far,
/// numbered in order of appearance: each index keeps a list per number instead of a
/// dictionary of lists by prefix text, and a text met again (a performer in every event of
/// its tour) is looked up once per prefix, not hashed into every list.
struct PrefixTable {
    /// Prefixes are 1…`maxScalars` Unicode scalars long.
    let maxScalars: Int
    private var numbers: [String: Int] = [:]
    /// Each number's prefix.
    private(set) var text: [String] = []

    init(maxScalars: Int) { self.maxScalars = maxScalars }

    /// How many prefixes have been numbered.
    var count: Int { text.count }

    /// Appends the numbers of `key`'s first 1…`maxScalars` scalars, shortest first (prefixes
    /// equal as `String`s, as canonically equivalent ones are, share a number).
    mutating func appendNumbers(ofPrefixesOf key: String, to out: inout [Int]) {
        var prefix = ""
        for scalar in key.unicodeScalars.prefix(maxScalars) {
            prefix.unicodeScalars.append(scalar)
            if let k = numbers[prefix] {
                out.append(k)
            } else {
                numbers[prefix] = text.count
                out.append(text.count)
                text.append(prefix)
            }
        }
    }

    /// Appends the numbers of the prefixes of every word (`NameKey.words`) of `name`'s name
    /// key. A number may repeat: a list takes an item once.
    mutating func appendNumbers(ofWordsOf name: String, to out: inout [Int]) {
        for word in NameKey.words(ofKey: TextNormalizer.nameKey(name)) { appendNumbers(ofPrefixesOf: word, to: &out) }
    }
}
