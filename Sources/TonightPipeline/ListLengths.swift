import Foundation

/// The list lengths of a per-user dataset, as a histogram: what a stage reports as its
/// `length.<dataset>` detail ("users with a list, min/median/p90/max length"), and what a shard
/// reports as `histogram.<dataset>` so that the merge states the exact distribution of the
/// whole run.
package struct ListLengths: Equatable, Sendable {
    /// Users (or players) the stage ranked, with a list or not.
    package var users: Int
    /// Length → lists of that length.
    package var counts: [Int: Int]

    package init(users: Int, counts: [Int: Int] = [:]) {
        self.users = users
        self.counts = counts
    }

    package init(_ lengths: [Int], users: Int) {
        self.users = users
        counts = [:]
        for l in lengths { counts[l, default: 0] += 1 }
    }

    /// "users with a list, min/median/p90/max length" (the `length.*` detail).
    package var distribution: String {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return "0 of \(users) users have a list" }
        let sorted = counts.keys.sorted()
        let at = { value(atRank: $0, sorted) }
        return "\(total) of \(users) users; length min \(sorted[0]) median \(at(total / 2)) p90 \(at(total * 9 / 10)) max \(sorted.last!)"
    }

    /// The length at rank `r` (0-based) of all the lists in length order (`sorted`: the
    /// lengths present, ascending).
    func value(atRank r: Int, _ sorted: [Int]) -> Int {
        var seen = 0
        for l in sorted {
            seen += counts[l]!
            if r < seen { return l }
        }
        return sorted.last!
    }

    /// `users=N lengths=L:C,L:C` (lengths ascending): the `histogram.*` detail of a shard.
    package var text: String {
        "users=\(users) lengths=" + counts.keys.sorted().map { "\($0):\(counts[$0]!)" }.joined(separator: ",")
    }

    /// Reads `text`; nil when malformed.
    package init?(text: String) {
        let fields = text.split(separator: " ")
        guard fields.count == 2, fields[0].hasPrefix("users="), fields[1].hasPrefix("lengths="),
              let users = Int(fields[0].dropFirst(6)) else { return nil }
        self.users = users
        counts = [:]
        for pair in fields[1].dropFirst(8).split(separator: ",") {
            let kv = pair.split(separator: ":")
            guard kv.count == 2, let l = Int(kv[0]), let c = Int(kv[1]), l >= 0, c > 0 else { return nil }
            counts[l, default: 0] += c
        }
    }

    /// The lengths of two disjoint sets of users together.
    package mutating func add(_ other: ListLengths) {
        users += other.users
        for (l, c) in other.counts { counts[l, default: 0] += c }
    }
}
