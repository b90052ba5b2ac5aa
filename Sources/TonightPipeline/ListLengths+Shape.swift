/// A stage's measures of the data's shape (`shape.<name>` details, what `tonight-bench`
/// prints: explore candidates per user, events in reach of sampled located users), kept as
/// histograms (`shape.histogram.<name>`) so that a merge of shards states them exactly.
extension ListLengths {
    /// "N <label>; min a median b p90 c max d" over every counted value ("0 <label>" when
    /// there is none).
    package func summary(label: String) -> String {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return "0 \(label)" }
        let sorted = counts.keys.sorted()
        let at = { value(atRank: $0, sorted) }
        return "\(total) \(label); min \(sorted[0]) median \(at(total / 2)) p90 \(at(total * 9 / 10)) max \(sorted.last!)"
    }

    /// The label of a `summary` ("users" in "10 users; min …").
    package static func label(ofSummary text: String) -> String? {
        guard let space = text.firstIndex(of: " ") else { return nil }
        let rest = text[text.index(after: space)...]
        return String(rest[..<(rest.firstIndex(of: ";") ?? rest.endIndex)])
    }
}

extension StageOutcome {
    /// Records measure `name` of the data's shape: its summary and its histogram.
    package mutating func recordShape(_ name: String, _ values: [Int], label: String) {
        let l = ListLengths(values, users: values.count)
        details["shape.\(name)"] = l.summary(label: label)
        details["shape.histogram.\(name)"] = l.text
    }
}
