import Foundation
import TonightCore

extension RunReport {
    /// What a report shows: the run, its stage records, tonight's figures, the earlier nights
    /// and what stands out.
    struct Page {
        var run: RunRecord
        var records: [StageRecord]
        var runDir: URL
        var tonight: RunHistory.Night
        var history: RunHistory
        var anomalies: [Anomaly]
    }

    static let css = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2327;margin:0 auto;padding:16px 24px;max-width:1180px}
        h1{font-size:22px;margin:8px 0}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #dde3e6;padding-bottom:4px}
        h3{font-size:14px;margin:16px 0 4px}
        table{border-collapse:collapse;width:100%;table-layout:auto;margin:6px 0}
        th,td{border:1px solid #dde3e6;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
        th{background:#f3f6f7}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        .badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-weight:600}
        .ok{background:#2e8540}.bad{background:#d8453b}.warn{background:#c77c02}
        .failure{border:2px solid #d8453b;background:#fdf0ef;padding:8px 12px;border-radius:6px}
        .anomalies{border:2px solid #c77c02;background:#fff8e8;padding:8px 12px;border-radius:6px}
        .normal{border:1px solid #2e8540;background:#eff8f1;padding:8px 12px;border-radius:6px}
        code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
        pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
        td.flag{background:#fde2df;font-weight:600}.muted{color:#66757b}svg{display:block;max-width:100%}
        """

    static func h(_ s: String) -> String { ReportSVG.escape(s) }

    static func table(_ head: [String], _ rows: [[String]], numeric: Set<Int> = []) -> String {
        var s = "<table><thead><tr>" + head.map { "<th>\(h($0))</th>" }.joined() + "</tr></thead><tbody>"
        for r in rows {
            s += "<tr>" + r.enumerated().map { i, c in numeric.contains(i) ? "<td class=\"n\">\(c)</td>" : "<td>\(c)</td>" }.joined() + "</tr>"
        }
        return s + "</tbody></table>"
    }

    static func bytes(_ b: Int64) -> String {
        b >= 1 << 30 ? String(format: "%.2f GiB", Double(b) / 1_073_741_824) : b >= 1 << 20 ? String(format: "%.1f MiB", Double(b) / 1_048_576)
            : b >= 1 << 10 ? String(format: "%.1f KiB", Double(b) / 1024) : "\(b) B"
    }

    static func compact(_ x: Double) -> String {
        abs(x) >= 1e6 ? String(format: "%.2fM", x / 1e6) : abs(x) >= 1e4 ? String(format: "%.1fk", x / 1e3) : x == x.rounded() ? String(Int(x)) : String(format: "%.2f", x)
    }

    /// The report as one self-contained HTML5 page: the failure first (if any), then what
    /// stands out against the last nights, the stage timeline, tables and pictures.
    static func html(_ p: Page) -> String {
        let run = p.run
        var b = "<h1>Tonight run \(h(run.runId))</h1><p>"
        let badge = run.status == "completed" ? "ok" : "bad"
        b += "<span class=\"badge \(badge)\">\(h(run.status))</span> as of \(h(run.asOf)) (run date \(h(run.date)))"
        if let s = run.shard { b += " · shard \(h(s))" }
        if let n = run.mergedShards { b += " · merge of \(n) shard(s)" }
        b += String(format: " · %.1f s", wallSeconds(run)) + " · <span class=\"muted\">\(h(run.codeVersion)) · started \(h(run.startedAt)) · inputs <code>\(h(run.inputs))</code></span></p>"
        b += failure(p) + anomalies(p)
        b += "<h2>Stage timeline</h2>" + timeline(run)
        b += "<h2>Stages</h2>" + stages(p)
        b += rejects(p) + geocoding(p) + lengths(p) + datasets(p) + trends(p)
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
            + "<title>Tonight run \(h(run.runId)) (\(h(run.status)))</title><style>\(css)</style></head><body>\(b)</body></html>\n"
    }

    /// A failed or interrupted run: the stage, the error and the kept evidence, first.
    static func failure(_ p: Page) -> String {
        let run = p.run
        guard run.status != "completed" else { return "" }
        var s = "<section class=\"failure\"><h2>Run \(h(run.status))" + (run.failedStage.map { " at stage <code>\(h($0))</code>" } ?? "") + "</h2>"
        if let e = run.error { s += "<pre>\(h(e))</pre>" }
        if let stage = run.failedStage {
            let kept = p.runDir.appendingPathComponent("\(stage).failed")
            let rejects = kept.appendingPathComponent("rejects.ndjson")
            if FileManager.default.fileExists(atPath: rejects.path) {
                s += "<p>Rejects kept in <code>\(h(rejects.path))</code>.</p>" + keptRejects(rejects)
            } else if FileManager.default.fileExists(atPath: kept.path) {
                s += "<p>The stage's folder is kept in <code>\(h(kept.path))</code>.</p>"
            }
        }
        let skipped = run.stages.filter { $0.action == "not run" }.map(\.stage)
        if !skipped.isEmpty { s += "<p>Not run: \(h(skipped.joined(separator: ", "))). Nothing was published; the previous snapshot is still served.</p>" }
        return s + "</section>"
    }

    /// A failed stage's kept rejects (its counts died with it) by reason and file, read from
    /// the first 1,000,000 lines of its rejects file.
    static func keptRejects(_ url: URL) -> String {
        struct Row: Decodable {
            var reason: String?
            var file: String?
        }
        guard let data = try? FileIO.read(url) else { return "" }
        var counts: [String: [String: Int]] = [:]
        let decoder = JSONDecoder()
        var lines = 0
        for line in data.split(separator: 0x0A) where lines < 1_000_000 {
            lines += 1
            let row = try? decoder.decode(Row.self, from: Data(line))
            counts[row?.reason ?? "(unreadable line)", default: [:]][row?.file.map { ($0 as NSString).lastPathComponent } ?? "-", default: 0] += 1
        }
        let rows = counts.flatMap { reason, files in files.map { [h(reason), h($0.key), String($0.value)] } }
            .sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
        return rows.isEmpty ? "" : table(["reason", "file", "rejected rows"], rows, numeric: [2])
    }

    static func anomalies(_ p: Page) -> String {
        let earlier = p.history.nights.count
        if !p.anomalies.isEmpty {
            return "<section class=\"anomalies\"><h2>\(p.anomalies.count) figure(s) outside the usual band</h2><ul>"
                + p.anomalies.map { "<li>\(h($0.message))</li>" }.joined() + "</ul></section>"
        }
        if earlier < AnomalyRule.minimumHistory {
            return "<section class=\"normal\"><p>\(earlier) earlier completed run(s) in this work directory: bands need \(AnomalyRule.minimumHistory); nothing is flagged yet.</p></section>"
        }
        return "<section class=\"normal\"><p>Nothing outside its usual band against the last \(min(earlier, AnomalyRule.window)) runs (durations, records, rejects; shrink guards).</p></section>"
    }

    /// Each stage's bar from its start (`startSeconds`; a record of an older run has none: its
    /// stages ran one after another, so each starts where the one before ended).
    static func bars(_ run: RunRecord) -> [(name: String, action: String, start: Double, seconds: Double)] {
        var next = 0.0
        return run.stages.map { e in
            let d = e.durationSeconds ?? 0
            let start = e.startSeconds ?? next
            next = start + d
            return (e.stage, e.action, start, d)
        }
    }

    /// The run's wall time from its first stage's start to its last stage's end (not the sum
    /// of the stages: they run side by side).
    static func wallSeconds(_ run: RunRecord) -> Double {
        bars(run).map { $0.start + $0.seconds }.max() ?? 0
    }

    static func timeline(_ run: RunRecord) -> String {
        ReportSVG.timeline(bars(run)) + "<p class=\"muted\">Blue: ran; hatched grey: reused from an earlier run; red: failed. Stages start once the stages they read are done, side by side where the graph allows (<code>runs.stagesAtOnce</code>).</p>"
    }

    static func stages(_ p: Page) -> String {
        var rows: [[String]] = []
        for e in p.run.stages {
            let r = p.records.first { $0.stage == e.stage }
            let counts = r?.rows.sorted { $0.key < $1.key }.filter { !$0.key.hasPrefix("rows.") }.map { "\(h($0.key)) \($0.value)" }.joined(separator: ", ") ?? ""
            rows.append([
                "<code>\(h(e.stage))</code>", h(e.action), String(format: "%.2f", e.durationSeconds ?? 0), RunReport.cpuText(r), counts,
                String(r?.rejects.values.reduce(0, +) ?? 0), String(r?.warnings.values.reduce(0, +) ?? 0),
                r.map { String($0.peakMemoryBytes >> 20) } ?? "", h(e.reason),
            ])
        }
        return table(["stage", "action", "seconds", "CPU s", "rows", "rejects", "warnings", "peak MiB", "why"], rows, numeric: [2, 3, 5, 6, 7])
    }
}
