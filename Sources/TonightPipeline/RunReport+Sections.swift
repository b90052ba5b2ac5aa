import Foundation

extension RunReport {
    /// Rejects and warnings by reason (per stage, with a chart), and rejects by input file.
    static func rejects(_ p: Page) -> String {
        let withIssues = p.records.filter { !$0.rejects.isEmpty || !$0.warnings.isEmpty }
        var s = "<h2>Rejects and warnings</h2>"
        guard !withIssues.isEmpty else { return s + "<p>No rejects and no warnings.</p>" }
        var reasons: [[String]] = []
        var chart: [(label: String, value: Double, text: String)] = []
        for r in withIssues {
            for (k, v) in r.rejects.sorted(by: { $0.key < $1.key }) {
                reasons.append(["<code>\(h(r.stage))</code>", "reject", h(k), String(v)])
                chart.append(("\(r.stage): \(k)", Double(v), "\(v)"))
            }
            for (k, v) in r.warnings.sorted(by: { $0.key < $1.key }) {
                let examples = r.details["examples." + k].map { " (e.g. \(h($0)))" } ?? ""
                reasons.append(["<code>\(h(r.stage))</code>", "warning", h(k) + examples, String(v)])
            }
        }
        s += "<h3>By reason</h3>" + table(["stage", "kind", "reason", "rows"], reasons, numeric: [3])
        if !chart.isEmpty { s += ReportSVG.bars(chart, color: "#d8453b") }
        var files: [[String]] = []
        for r in p.records where !r.rejects.isEmpty {
            let byFile = r.details.filter { $0.key.hasPrefix("rejectsIn.") }
            if byFile.isEmpty {
                // One input file: every reject is that file's.
                let inputs = r.inputs.filter { $0.kind == "file" && $0.path != nil }
                let name = inputs.count == 1 ? (inputs[0].path! as NSString).lastPathComponent : "(\(r.stage) inputs)"
                files.append(["<code>\(h(r.stage))</code>", h(name), String(r.rejects.values.reduce(0, +))])
            } else {
                for (k, v) in byFile.sorted(by: { $0.key < $1.key }) {
                    files.append(["<code>\(h(r.stage))</code>", h(String(k.dropFirst("rejectsIn.".count))), h(v)])
                }
            }
        }
        if !files.isEmpty { s += "<h3>By file</h3>" + table(["stage", "file", "rejected rows"], files, numeric: [2]) }
        return s
    }

    /// How precisely venues were placed (the geocode stage's `precision.*` counts).
    static func geocoding(_ p: Page) -> String {
        guard let r = p.records.first(where: { $0.stage == "geocode" }) else { return "" }
        let precision = r.details.filter { $0.key.hasPrefix("precision.") }
            .compactMap { k, v in Int(v).map { (String(k.dropFirst("precision.".count)), $0) } }.sorted { $0.1 > $1.1 }
        guard !precision.isEmpty else { return "" }
        let total = max(1, precision.map(\.1).reduce(0, +))
        var s = "<h2>Geocoding precision</h2>"
        s += ReportSVG.bars(precision.map { ($0.0, Double($0.1), String(format: "%d (%.1f %%)", $0.1, 100 * Double($0.1) / Double(total))) })
        if let u = r.details["unresolvedVenues"] { s += "<p>Unresolved venues (first 20): \(h(u))</p>" }
        return s
    }

    /// A histogram per per-user dataset (explore, feed, tonight, alerts, sessions).
    static func lengths(_ p: Page) -> String {
        var s = ""
        for r in p.records {
            for (k, v) in r.details.sorted(by: { $0.key < $1.key }) where k.hasPrefix("histogram.") {
                guard let l = ListLengths(text: v) else { continue }
                let name = String(k.dropFirst("histogram.".count))
                s += "<h3><code>\(h(name))</code></h3><p>\(h(l.distribution))</p>"
                s += l.counts.isEmpty ? "" : ReportSVG.histogram(l, label: "\(name) list lengths")
            }
        }
        return s.isEmpty ? "" : "<h2>List lengths</h2>" + s
    }

    /// Published datasets: records, bytes compressed and not.
    static func datasets(_ p: Page) -> String {
        let t = p.tonight
        guard !t.records.isEmpty else { return "" }
        var rows: [[String]] = []
        for name in t.records.keys.sorted() {
            let c = t.bytes[name] ?? 0, u = t.uncompressedBytes[name] ?? 0
            rows.append(["<code>\(h(name))</code>", String(t.records[name]!), bytes(c), bytes(u), c > 0 ? String(format: "%.2f×", Double(u) / Double(c)) : ""])
        }
        let c = t.bytes.values.reduce(0, +), u = t.uncompressedBytes.values.reduce(0, +)
        rows.append(["<b>all</b>", String(t.records.values.reduce(0, +)), bytes(c), bytes(u), c > 0 ? String(format: "%.2f×", Double(u) / Double(c)) : ""])
        return "<h2>Datasets</h2>" + table(["dataset", "records", "compressed", "uncompressed", "ratio"], rows, numeric: [1, 2, 3, 4])
    }

    /// The last runs beside tonight: a row per figure, a column per run (oldest first), a
    /// trend line, flagged cells in red.
    static func trends(_ p: Page) -> String {
        let nights = p.history.nights
        guard !nights.isEmpty else { return "<h2>Run over run</h2><p>No earlier completed run in this work directory.</p>" }
        let all = nights + [p.tonight]
        let head = ["figure"] + nights.map { String($0.date.suffix(5)) } + ["tonight", "trend"]
        let flagged = Set(p.anomalies.map { "\($0.kind.rawValue) \($0.subject)" })
        func rows(_ kind: String, _ names: [String], _ value: (RunHistory.Night, String) -> Double?, _ fmt: (Double) -> String) -> [[String]] {
            names.map { name in
                let values = all.map { value($0, name) }
                let flag = flagged.contains("\(kind) \(name)") || (kind == "records" && flagged.contains("shrink \(name)"))
                var row = ["<code>\(h(name))</code>"] + values.dropLast().map { $0.map(fmt) ?? "–" }
                row.append(flag ? "<b>\(values.last!.map(fmt) ?? "–")</b>" : values.last!.map(fmt) ?? "–")
                row.append(ReportSVG.sparkline(values.compactMap { $0 }, flagged: flag))
                return row
            }
        }
        let numeric = Set(1...(nights.count + 1))
        let stageNames = p.run.stages.map(\.stage).filter { s in all.contains { $0.durations[s] != nil } }
        let datasetNames = Array(Set(all.flatMap { $0.records.keys })).sorted()
        let rejectStages = Array(Set(all.flatMap { $0.rejects.filter { $0.value > 0 }.keys })).sorted()
        var s = "<h2>Run over run (the last \(nights.count) completed runs)</h2>"
        s += "<h3>Stage seconds (stages that ran)</h3>" + table(head, rows("duration", stageNames, { $0.durations[$1] }, { String(format: "%.1f", $0) }), numeric: numeric)
        s += "<h3>Records per dataset</h3>" + table(head, rows("records", datasetNames, { n, d in n.records[d].map(Double.init) }, compact), numeric: numeric)
        if !rejectStages.isEmpty {
            s += "<h3>Rejected rows</h3>" + table(head, rows("rejects", rejectStages, { n, st in n.rejects[st].map(Double.init) }, compact), numeric: numeric)
        }
        return s
    }
}
