import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator
import TonightPipeline

/// The same world at two sizes (`small` and `full` of one shape): every stage's time and the
/// whole run's, and how much they grow against how much the data grows. A stage whose time
/// grows faster than its users (×100 from small to full) does work per user that grows with
/// the data: an algorithm, not a constant, to fix.
struct GrowthBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "growth", abstract: "Every stage on small and on full (same shape): time growth against data growth (issue 12).")

    @Option(help: "The small data set (generated there if missing).") var small: String = "bench-data/small"
    @Option(help: "The full data set (generated there if missing).") var full: String = "bench-data/full"
    @Option(help: "Shape to generate when a directory is empty: realistic or uniform.") var shape: String = "realistic"
    @Option(help: "Rounds, each one run of both sets (medians are reported).") var runs: Int = 3
    @OptionGroup var output: BenchOutput

    /// What one `tonight run --force` took.
    struct Run {
        var stages: [String: Double] = [:]
        /// The NDJSON bytes of each stage's datasets (its output work).
        var output: [String: Double] = [:]
        var order: [String] = []
        var wall = 0.0
    }

    func run() throws {
        let sets = [("small", URL(fileURLWithPath: small)), ("full", URL(fileURLWithPath: full))]
        for (scale, dir) in sets { try PipelineBench.generateIfMissing(dir, scale: scale, shape: shape) }
        let infos = sets.map { GeneratedInfo.read($0.1) }
        guard let a = infos[0], let b = infos[1], a.shape == b.shape else {
            throw ValidationError("both data sets must be generated, with the same shape")
        }
        let tonight = ChildProcess.siblingTonight
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-growth-\(getpid())")
        defer { try? FileIO.removeItem(work) }

        let oneAtATime = try PipelineBench.oneAtATimeConfig(in: work)
        // The stage figures come from a run with the stages one after another (a stage beside
        // another shares the cores); the whole run's wall from one as the nightly job makes it.
        func once(_ dir: URL, _ name: String) throws -> Run {
            let (_, store, id, record) = try PipelineBench.forcedRun(tonight: tonight, data: dir, work: work.appendingPathComponent(name),
                                                                     arguments: ["--config", oneAtATime.path])
            var run = Run(order: record.stages.map(\.stage))
            for s in record.stages {
                if let r = store.record(run: id, stage: s.stage) { run.stages[s.stage] = r.durationSeconds }
                let entries = (try? DatasetFiles.read(store.runDirectory(id).appendingPathComponent(s.stage))) ?? []
                if !entries.isEmpty { run.output[s.stage] = Double(entries.reduce(0) { $0 + $1.uncompressedBytes }) }
            }
            run.wall = try PipelineBench.forcedRun(tonight: tonight, data: dir, work: work.appendingPathComponent(name)).0.seconds
            return run
        }

        // Rounds interleave the two sets (this host's speed drifts within the hour).
        var runs: [[Run]] = [[], []]
        for round in 0..<self.runs {
            for (k, (scale, dir)) in sets.enumerated() { runs[k].append(try once(dir, scale)) }
            FileHandle.standardError.write(Data("  round \(round + 1)/\(self.runs): small \(sec(runs[0].last!.wall)) s, full \(sec(runs[1].last!.wall)) s\n".utf8))
        }
        let users = (Double(a.counts["users"] ?? 0), Double(b.counts["users"] ?? 0))
        let factor = users.0 > 0 ? users.1 / users.0 : 0
        var table = BenchTable(
            "Growth from \(URL(fileURLWithPath: small).lastPathComponent) (small, \(a.counts["users"] ?? 0) users) to \(URL(fileURLWithPath: full).lastPathComponent) (full, \(b.counts["users"] ?? 0) users), \(a.shape ?? "uniform") shape: medians of \(self.runs) interleaved rounds of `tonight run --force` (stage figures from runs with the stages one after another, the whole run as the nightly job runs it)",
            columns: ["stage", "small s", "full s", "full ÷ small", "÷ users ×\(Int(factor.rounded()))",
                      "NDJSON MB small", "NDJSON MB full", "NDJSON growth", "time growth ÷ NDJSON growth"])
        for stage in runs[1].first?.order ?? [] {
            let s = median(runs[0].compactMap { $0.stages[stage] }), f = median(runs[1].compactMap { $0.stages[stage] })
            let growth = s > 0 ? f / s : 0
            var row = [stage, sec(s), sec(f), String(format: "%.1f×", growth), String(format: "%.2f", factor > 0 ? growth / factor : 0)]
            if let a = runs[0].first?.output[stage], let b = runs[1].first?.output[stage], a > 0 {
                row += [String(format: "%.1f", a / 1e6), String(format: "%.1f", b / 1e6), String(format: "%.1f×", b / a), String(format: "%.2f", growth / (b / a))]
            } else {
                row += ["", "", "", ""]
            }
            table.row(row)
        }
        let s = median(runs[0].map(\.wall)), f = median(runs[1].map(\.wall))
        table.row(["whole run (wall)", sec(s), sec(f), String(format: "%.1f×", f / s), String(format: "%.2f", f / s / factor), "", "", "", ""])
        for stage in ["tickets", "alerts", "playmate"] {
            let s = median(runs[0].compactMap { $0.stages[stage] }), f = median(runs[1].compactMap { $0.stages[stage] })
            guard s > 0 else { continue }
            table.goal(Goal(name: "\(stage): time growth for ×\(Int(factor.rounded())) users", value: f / s, goal: factor, direction: .atMost, unit: "×", decimals: 1))
        }
        table.goal(Goal(name: "whole run: time growth for ×\(Int(factor.rounded())) users", value: f / s, goal: factor, direction: .atMost, unit: "×", decimals: 1))
        table.note("Every stage of `small` is mostly fixed cost (start-up, tables, the event index): its time grows far less than its data. `÷ users` is each stage's growth per unit of user growth (1.00: linear in users). But `full` is not `small` with more users: every count grows ×100 (artists, venues, events, sessions), so a user has ×100 the events in reach and a player the sessions, and the lists are longer (the NDJSON columns: what each stage writes). A per-user stage whose time grows with its output (last column near 1 or below) does constant work per item written; one above 1 does more work per item at full size.")
        try output.emit(benchmark: "growth-\(a.shape ?? "uniform")", tables: [table])
    }
}
