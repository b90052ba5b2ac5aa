import Foundation

extension RunComparison {
    /// The comparison as terminal text: the two runs, then per stage each run's action,
    /// duration and reason, and the counts that differ or not, `A → B`.
    package func text() -> String {
        var out = ""
        for (label, r) in [("A", a), ("B", b)] {
            out += "\(label)  \(r.runId)  \(r.status)  as-of \(r.asOf)  date \(r.date)"
            if let f = r.failedStage { out += "  failed at \(f)" }
            out += "\n"
        }
        for s in stages {
            out += "\n\(s.stage)\n"
            for (label, side) in [("A", s.a), ("B", s.b)] {
                guard let side else {
                    out += "  \(label)  not part of this run\n"
                    continue
                }
                let seconds = side.durationSeconds.map { String(format: "%.2f s", $0) } ?? "-"
                let action = side.action.padding(toLength: 7, withPad: " ", startingAt: 0)
                out += "  \(label)  \(action) \(seconds.padding(toLength: 9, withPad: " ", startingAt: 0)) \(side.reason)\n"
            }
            if let x = s.a?.durationSeconds, let y = s.b?.durationSeconds, x > 0.05, s.a?.action == "run", s.b?.action == "run" {
                out += "  time       \(String(format: "%+.0f%%", (y / x - 1) * 100)) (B against A, both computed)\n"
            }
            out += Self.counts("rows", s.a?.rows, s.b?.rows)
            out += Self.counts("rejects", s.a?.rejects, s.b?.rejects)
            out += Self.counts("warnings", s.a?.warnings, s.b?.warnings)
            let datasets = Set((s.a?.lengths ?? [:]).keys).union((s.b?.lengths ?? [:]).keys).sorted()
            for d in datasets {
                let x = s.a?.lengths[d], y = s.b?.lengths[d]
                func pair(_ f: (Lengths) -> Int) -> String { Self.change(x.map(f), y.map(f)) }
                out += "  lengths    \(d): users \(pair(\.users)), median \(pair(\.median)), p90 \(pair(\.p90)), max \(pair(\.max))\n"
            }
        }
        return out
    }

    /// `  name  k a → b, …` for the union of keys (nothing when both are empty).
    static func counts(_ name: String, _ a: [String: Int]?, _ b: [String: Int]?) -> String {
        let keys = Set((a ?? [:]).keys).union((b ?? [:]).keys).sorted()
        guard !keys.isEmpty else { return "" }
        let items = keys.map { "\($0) \(change(a?[$0], b?[$0]))" }
        return "  " + name.padding(toLength: 10, withPad: " ", startingAt: 0) + " " + items.joined(separator: ", ") + "\n"
    }

    /// `n` when equal, `a → b (+d)` when not, `-` for a missing side.
    static func change(_ a: Int?, _ b: Int?) -> String {
        switch (a, b) {
        case let (x?, y?) where x == y: return "\(x)"
        case let (x?, y?): return "\(x) → \(y) (\(y - x > 0 ? "+" : "")\(y - x))"
        case let (x?, nil): return "\(x) → -"
        case let (nil, y?): return "- → \(y)"
        default: return "-"
        }
    }
}
