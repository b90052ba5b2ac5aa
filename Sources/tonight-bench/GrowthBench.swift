import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator
import TonightPipeline

/// Two sizes of one shape (`small` and `full`): every stage's time and the whole run's, and how
/// much they grow against how much the data grows. A stage whose time grows faster than its
/// users (×100 from small to full) does work per user that grows with the data: an
/// algorithm, not a constant, to fix. `small` is a smaller world (every count ÷100: a user
/// of `full` has more events in reach); with `--same-world` it is `full`'s world with a
/// hundredth of its users and players, so that only the people grow.
struct GrowthBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "growth", abstract: "Every stage on small and on full (same shape): time growth against data growth (issue 12).")

    @Option(help: "The small data set (generated there if missing).") var small: String = "bench-data/small"
    @Option(help: "The full data set (generated there if missing).") var full: String = "bench-data/full"
    @Option(help: "Shape to generate when a directory is empty: realistic or uniform.") var shape: String = "realistic"
    @Option(help: "Rounds, each one run of both sets (medians are reported).") var runs: Int = 3
    @Flag(name: .customLong("same-world"),
          help: "The small set is the full world with 1/100 of its users and players (generated as `--scale full --users N --players N` when missing; default directory bench-data/full-people1pc): growth in users alone.")
    var sameWorld = false
    @OptionGroup var output: BenchOutput

    /// What one `tonight run --force` took.
    struct Run {
        var stages: [String: Double] = [:]
        /// The NDJSON bytes of each stage's datasets (its output work).
        var output: [String: Double] = [:]
        var order: [String] = []
        var wall = 0.0
        /// The per-user stages' floors (`PipelineFloors`: inputs through `cat`, NDJSON
        /// through `zstd -1 -T0`), timed beside this run.
        var floors: [String: Double] = [:]
    }

    /// The stages whose floors are timed: those whose work grows with the users.
    static let floorStages = ["tickets", "alerts", "playmate"]

    func run() throws {
        let small = sameWorld && self.small == "bench-data/small" ? "bench-data/full-people1pc" : self.small
        let sets = [("small", URL(fileURLWithPath: small)), ("full", URL(fileURLWithPath: full))]
        try PipelineBench.generateIfMissing(sets[1].1, scale: "full", shape: shape)
        if sameWorld {
            let people = GeneratorScale.full.with(users: GeneratorScale.full.users / 100, players: GeneratorScale.full.players / 100)
            try PipelineBench.generateIfMissing(sets[0].1, scale: people, shape: shape)
        } else {
            try PipelineBench.generateIfMissing(sets[0].1, scale: "small", shape: shape)
        }
        let infos = sets.map { GeneratedInfo.read($0.1) }
        guard let a = infos[0], let b = infos[1], a.shape == b.shape else {
            throw ValidationError("both data sets must be generated, with the same shape")
        }
        if sameWorld { try Self.requireSameWorld(sets[0].1, sets[1].1) }
        let tonight = ChildProcess.siblingTonight
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-growth-\(getpid())")
        defer { try? FileIO.removeItem(work) }

        let oneAtATime = try PipelineBench.oneAtATimeConfig(in: work)
        var floorsError: Error?
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
            // The floors of this run's outputs, before the next run replaces them.
            if floorsError == nil {
                do {
                    var floors = try PipelineFloors(work: work.appendingPathComponent(name), order: run.order.filter(Self.floorStages.contains))
                    try floors.measureRound()
                    for s in floors.stages { run.floors[s.name] = s.floor(round: 0) }
                } catch {
                    // E.g. /dev/shm too small for the decompressed lists: the times still stand.
                    floorsError = error
                    FileHandle.standardError.write(Data("  floors left out: \(error)\n".utf8))
                }
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
        let world = sameWorld ? "the same world (feed and affinity byte-identical), \(a.counts["users"] ?? 0) → \(b.counts["users"] ?? 0) users and \(a.counts["players"] ?? 0) → \(b.counts["players"] ?? 0) players" : "every count ×\(Int(factor.rounded()))"
        let name = "Growth from \(URL(fileURLWithPath: small).lastPathComponent) (\(a.scale), \(a.counts["users"] ?? 0) users) to \(URL(fileURLWithPath: full).lastPathComponent) (full, \(b.counts["users"] ?? 0) users), \(a.shape ?? "uniform") shape, \(world): medians of \(self.runs) interleaved rounds of `tonight run --force` (stage figures from runs with the stages one after another, the whole run as the nightly job runs it; floors timed beside each round's first run)"
        var table = Self.table(name, small: runs[0], full: runs[1], factor: factor)
        if sameWorld {
            table.note("Both sets are one world: the same feed, affinity and number of sessions, with a hundredth of the users and players in the smaller (`tonight generate --scale full --users \(a.counts["users"] ?? 0) --players \(a.counts["players"] ?? 0)`; each person drawn from the same distributions). Only the people grow, so a per-user stage that does constant work per user grows by at most the users' factor; what it does once for the world (the event index, the places, the sessions' own datasets) makes it grow less. The stages that do not read users (parse-feed, parse-affinity, geocode, planner) do the same work at both sizes, and catalog nearly so (it only counts favourites): their rows show the host's noise.")
        } else {
            table.note("Every stage of `small` is mostly fixed cost (start-up, tables, the event index): its time grows far less than its data. `÷ users` is each stage's growth per unit of user growth (1.00: linear in users). But `full` is not `small` with more users: every count grows ×100 (artists, venues, events, sessions), so a user has ×100 the events in reach and a player the sessions, and the lists are longer (the NDJSON columns: what each stage writes). A per-user stage whose time grows with its output (last column near 1 or below) does constant work per item written; one above 1 does more work per item at full size.")
        }
        try output.emit(benchmark: "growth-\(a.shape ?? "uniform")" + (sameWorld ? "-same-world" : ""), tables: [table])
    }

    /// The growth table of both sets' rounds: each stage's medians and growths, the floors'
    /// growth beside the per-user stages', and the goals (time growth ≤ the users' factor).
    static func table(_ title: String, small: [Run], full: [Run], factor: Double) -> BenchTable {
        let scale = "×\(Int(factor.rounded()))"
        var table = BenchTable(
            title,
            columns: ["stage", "small s", "full s", "full ÷ small", "÷ users \(scale)",
                      "NDJSON MB small", "NDJSON MB full", "NDJSON growth", "time growth ÷ NDJSON growth",
                      "floor growth", "time growth ÷ floor growth"])
        func growth(_ stage: String, _ value: (Run) -> Double?) -> (small: Double, full: Double, growth: Double)? {
            let s = median(small.compactMap(value)), f = median(full.compactMap(value))
            return s > 0 ? (s, f, f / s) : nil
        }
        var floorNotes: [String] = []
        for stage in full.first?.order ?? [] {
            let time = growth(stage) { $0.stages[stage] }
            var row = [stage, sec(time?.small ?? 0), sec(time?.full ?? 0), String(format: "%.1f×", time?.growth ?? 0),
                       String(format: "%.2f", factor > 0 ? (time?.growth ?? 0) / factor : 0)]
            if let t = time, let a = small.first?.output[stage], let b = full.first?.output[stage], a > 0 {
                row += [String(format: "%.1f", a / 1e6), String(format: "%.1f", b / 1e6), String(format: "%.1f×", b / a), String(format: "%.2f", t.growth / (b / a))]
            } else {
                row += ["", "", "", ""]
            }
            if let t = time, let floor = growth(stage, { $0.floors[stage] }) {
                row += [String(format: "%.1f×", floor.growth), String(format: "%.2f", t.growth / floor.growth)]
                if floor.growth > factor {
                    floorNotes.append(String(
                        format: "%@: its floor grows %.1f× (%.3f → %.3f s: its inputs through `cat`, its NDJSON through `zstd -1 -T0`), more than the users' %@: on this pair no program that writes these datasets grows ≤ %@; the stage grows %.2f× as much as its floor",
                        stage, floor.growth, floor.small, floor.full, scale, scale, t.growth / floor.growth))
                }
            } else {
                row += ["", ""]
            }
            table.row(row)
        }
        let s = median(small.map(\.wall)), f = median(full.map(\.wall))
        table.row(["whole run (wall)", sec(s), sec(f), String(format: "%.1f×", s > 0 ? f / s : 0), String(format: "%.2f", s > 0 && factor > 0 ? f / s / factor : 0),
                   "", "", "", "", "", ""])
        for stage in floorStages {
            guard let t = growth(stage, { $0.stages[stage] }) else { continue }
            table.goal(Goal(name: "\(stage): time growth for \(scale) users", value: t.growth, goal: factor, direction: .atMost, unit: "×", decimals: 1))
        }
        if s > 0 {
            table.goal(Goal(name: "whole run: time growth for \(scale) users", value: f / s, goal: factor, direction: .atMost, unit: "×", decimals: 1))
        }
        for n in floorNotes { table.note(n) }
        return table
    }

    /// Refuses two sets whose worlds differ (`--same-world`): their feeds and affinity files
    /// must be byte-identical, and their sessions as many.
    static func requireSameWorld(_ a: URL, _ b: URL) throws {
        for file in ["feed.xml", "affinity.txt"] {
            let (x, y) = (a.appendingPathComponent(file), b.appendingPathComponent(file))
            guard FileIO.size(x) == FileIO.size(y), try ContentHash.file(x) == ContentHash.file(y) else {
                throw ValidationError("--same-world: \(file) differs between \(a.path) and \(b.path); generate the small set with `tonight generate --scale full --users N --players N` and the same seed and shape")
            }
        }
        guard GeneratedInfo.read(a)?.counts["sessions"] == GeneratedInfo.read(b)?.counts["sessions"] else {
            throw ValidationError("--same-world: the sets hold different numbers of sessions")
        }
    }
}
