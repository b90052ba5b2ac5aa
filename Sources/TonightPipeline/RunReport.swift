import Foundation
import TonightCore

/// The run report (`report.md`, `report.html`) and the Prometheus textfile (`metrics.prom`).
enum RunReport {
    /// Writes the reports into the run directory and, unless the run is a shard's (the merge
    /// reports the night), `WORK/metrics/tonight.prom`. Tonight's figures are compared with the
    /// last completed runs of the work directory (`maxShrink`: each dataset's shrink guard).
    static func write(run: RunRecord, records: [StageRecord], to dir: URL, work: URL,
                      maxShrink: (String) -> Double = { _ in 1 }) throws {
        let history = RunHistory.load(store: RunStore(work: work), before: run.runId)
        let tonight = RunHistory.night(run: run, records: records, runDir: dir)
        let anomalies = run.status == "completed" ? history.anomalies(tonight: tonight, maxShrink: maxShrink) : []
        let page = Page(run: run, records: records, runDir: dir, tonight: tonight, history: history, anomalies: anomalies)
        try FileIO.write(markdown(run: run, records: records, anomalies: anomalies), to: dir.appendingPathComponent("report.md"))
        try FileIO.write(html(page), to: dir.appendingPathComponent("report.html"))
        let prom = metrics(run: run, records: records, previous: work.appendingPathComponent("metrics/tonight.prom"))
            + anomalyMetrics(page)
        try FileIO.write(prom, to: dir.appendingPathComponent("metrics.prom"))
        guard run.shard == nil else { return }
        // The stable path for node_exporter's textfile collector, replaced atomically.
        let metricsDir = work.appendingPathComponent("metrics")
        try FileIO.createDirectory(metricsDir)
        let tmp = metricsDir.appendingPathComponent(".tonight.prom.\(getpid()).tmp")
        try FileIO.write(prom, to: tmp)
        try FileIO.rename(tmp, to: metricsDir.appendingPathComponent("tonight.prom"))
    }

    /// `tonight_anomaly{kind=…,dataset|stage=…}`: 1 for a figure outside its band (or a dataset
    /// past its shrink guard), 0 for every other figure checked tonight.
    static func anomalyMetrics(_ p: Page) -> String {
        var s = "# HELP tonight_anomaly 1 if the figure is outside its usual band over the last runs (or the dataset shrank past its guard).\n"
        s += "# TYPE tonight_anomaly gauge\n"
        let flagged = Set(p.anomalies.map { "\($0.kind.rawValue) \($0.subject)" })
        var lines: [(String, String, String)] = []
        for st in p.tonight.durations.keys.sorted() { lines.append(("duration", "stage", st)) }
        for d in p.tonight.records.keys.sorted() {
            lines.append(("records", "dataset", d))
            lines.append(("shrink", "dataset", d))
        }
        for st in p.tonight.rejects.keys.sorted() { lines.append(("rejects", "stage", st)) }
        for (kind, label, subject) in lines {
            s += "tonight_anomaly{kind=\"\(kind)\",\(label)=\"\(subject)\"} \(flagged.contains("\(kind) \(subject)") ? 1 : 0)\n"
        }
        s += "# HELP tonight_anomalies Figures of the last run outside their usual band.\n# TYPE tonight_anomalies gauge\n"
        s += "tonight_anomalies \(p.anomalies.count)\n"
        return s
    }

    static func markdown(run: RunRecord, records: [StageRecord], anomalies: [Anomaly] = []) -> String {
        var s = "# Tonight run \(run.runId)\n\n"
        if run.status != "completed" {
            // What an on-call engineer needs first: which stage, why, what was kept.
            s += "## Run \(run.status)" + (run.failedStage.map { " at stage `\($0)`" } ?? "") + "\n\n"
            if let e = run.error { s += MarkdownText.block(e) + "\n\n" }
            let skipped = run.stages.filter { $0.action == "not run" }.map(\.stage)
            if !skipped.isEmpty { s += "Not run: \(skipped.joined(separator: ", ")).\n\n" }
        }
        if !anomalies.isEmpty {
            s += "## \(anomalies.count) figure(s) outside the usual band\n\n" + anomalies.map { "- \($0.message)" }.joined(separator: "\n") + "\n\n"
        }
        s += "- status: **\(run.status)**\n- as of: \(run.asOf) (date \(run.date))\n- inputs: \(MarkdownText.code(run.inputs))\n"
        s += "- started: \(run.startedAt), finished: \(run.finishedAt ?? "-")\n- code: \(run.codeVersion)\n"
        if let e = run.error { s += "- error: \(MarkdownText.code(e))\n" }
        s += "\n## Stages\n\n| stage | action | seconds | CPU s | rows | rejects | warnings | peak MB |\n|---|---|---:|---:|---|---:|---:|---:|\n"
        for (i, e) in run.stages.enumerated() {
            let r = records.first { $0.stage == e.stage }
            let rows = r?.rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") ?? "-"
            s += "| \(e.stage) | \(e.action) | \(String(format: "%.2f", run.stages[i].durationSeconds ?? 0)) | \(cpuText(r)) | \(rows) | "
            s += "\(r?.rejects.values.reduce(0, +) ?? 0) | \(r?.warnings.values.reduce(0, +) ?? 0) | "
            s += "\(r.map { String($0.peakMemoryBytes >> 20) } ?? "-") |\n"
        }
        s += "\n## Why each stage ran or was reused\n\n"
        for e in run.stages { s += "- **\(e.stage)** \(e.action): \(MarkdownText.literal(e.reason))\n" }
        for r in records where !r.rejects.isEmpty || !r.warnings.isEmpty || !r.details.isEmpty {
            s += "\n## \(r.stage)\n\n"
            if !r.rejects.isEmpty {
                s += "Rejects by reason:\n\n" + r.rejects.sorted { $0.key < $1.key }.map { "- \($0.key): \($0.value)" }
                    .joined(separator: "\n") + "\n\n"
            }
            if !r.warnings.isEmpty {
                s += "Warnings by kind:\n\n" + r.warnings.sorted { $0.key < $1.key }.map { "- \($0.key): \($0.value)" }
                    .joined(separator: "\n") + "\n\n"
            }
            // Details quote inputs (example ids, unknown names): literal, never Markdown.
            for (k, v) in r.details.sorted(by: { $0.key < $1.key }) { s += "- \(k): \(MarkdownText.literal(v))\n" }
        }
        return s
    }

    /// A stage's CPU seconds for the stage tables: "-" for an output reused (its CPU was an
    /// earlier run's) or a record without the figure.
    static func cpuText(_ record: StageRecord?) -> String {
        guard let record, record.reusedFrom == nil, let cpu = record.cpuSeconds else { return "-" }
        return String(format: "%.2f", cpu)
    }

    /// Prometheus text format: per-stage duration, CPU, rows, rejects; last success time.
    static func metrics(run: RunRecord, records: [StageRecord], previous: URL) -> String {
        var s = "# HELP tonight_stage_duration_seconds Wall time of the stage in the last run.\n"
        s += "# TYPE tonight_stage_duration_seconds gauge\n"
        for e in run.stages { s += "tonight_stage_duration_seconds{stage=\"\(e.stage)\",action=\"\(e.action)\"} \(e.durationSeconds ?? 0)\n" }
        s += "# HELP tonight_stage_cpu_seconds User and system CPU of the process while the stage ran (stages side by side count each other's); only stages computed in the last run.\n"
        s += "# TYPE tonight_stage_cpu_seconds gauge\n"
        for r in records where r.reusedFrom == nil {
            if let cpu = r.cpuSeconds { s += "tonight_stage_cpu_seconds{stage=\"\(r.stage)\"} \(cpu)\n" }
        }
        s += "# HELP tonight_stage_rows Rows written per stage table.\n# TYPE tonight_stage_rows gauge\n"
        for r in records {
            for (t, n) in r.rows.sorted(by: { $0.key < $1.key }) { s += "tonight_stage_rows{stage=\"\(r.stage)\",table=\"\(t)\"} \(n)\n" }
        }
        s += "# HELP tonight_stage_rejects Rejected records per stage.\n# TYPE tonight_stage_rejects gauge\n"
        for r in records { s += "tonight_stage_rejects{stage=\"\(r.stage)\"} \(r.rejects.values.reduce(0, +))\n" }
        s += "# HELP tonight_stage_failed 1 for the stage a failed or interrupted run stopped at.\n# TYPE tonight_stage_failed gauge\n"
        for e in run.stages { s += "tonight_stage_failed{stage=\"\(e.stage)\"} \(run.failedStage == e.stage ? 1 : 0)\n" }
        s += "# HELP tonight_run_success 1 if the last run completed.\n# TYPE tonight_run_success gauge\n"
        s += "tonight_run_success \(run.status == "completed" ? 1 : 0)\n"
        s += "# HELP tonight_last_success_timestamp_seconds Unix time of the last completed run.\n"
        s += "# TYPE tonight_last_success_timestamp_seconds gauge\n"
        var last: Double = 0
        if run.status == "completed" {
            last = Date().timeIntervalSince1970.rounded()
        } else if let prev = try? String(contentsOf: previous, encoding: .utf8) {
            for line in prev.split(separator: "\n") where line.hasPrefix("tonight_last_success_timestamp_seconds ") {
                last = Double(line.split(separator: " ").last ?? "0") ?? 0
            }
        }
        s += "tonight_last_success_timestamp_seconds \(Int64(last))\n"
        return s
    }
}
