import ArgumentParser
import Foundation
import TonightCore
import TonightPipeline
import TonightSnapshot

/// Two builds of `tonight` on one data set, whole runs interleaved in one invocation: every
/// stage's and the whole run's medians side by side, in wall and in CPU seconds, and whether
/// both published the same datasets. The before/after of a refactor ("outputs change only on
/// purpose") and of a speed change, on a host whose speed drifts more than most changes gain.
struct CompareBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Two builds' `tonight run --force`, interleaved: stage and whole-run medians, same datasets or not.")

    @Option(help: "The other build's `tonight` executable (e.g. from a `git worktree` of the old commit).")
    var other: String
    @Option(help: "What the other build is (its column's name).") var otherName: String = "old"
    @Option(help: "This build's `tonight` (default: the one beside this tonight-bench).") var this: String?
    @Option(help: "What this build is (its column's name).") var thisName: String = "new"
    @Option(help: "Data directory (generated if missing).") var data: String = "bench-data/full"
    @Option(help: "Scale to generate when the data directory is empty.") var scale: String = "full"
    @Option(help: "Shape to generate when the data directory is empty: realistic or uniform.") var shape: String = "realistic"
    @Option(help: "Rounds (each runs both builds, in alternating order).") var runs: Int = 3
    @Flag(help: "Run the stages one after another (`runs.stagesAtOnce 1`), so that each stage's figure is its own.")
    var oneAtATime = false
    @Option(help: "The section of the Markdown file.") var section: String = "compare"
    @OptionGroup var output: BenchOutput

    /// One build's figures over the rounds.
    struct Figures {
        var name: String
        var executable: String
        var walls: [Double] = []
        var peaks: [Double] = []
        var stages: [String: [Double]] = [:]
        /// CPU seconds: each stage's (`stage.json`'s `cpuSeconds`; none from a build older
        /// than the field) and each whole run's.
        var stagesCPU: [String: [Double]] = [:]
        var wallsCPU: [Double] = []
        var order: [String] = []
        /// The published datasets' SHA-256 (data and index files) of every round.
        var datasets: [[String: String]] = []
        /// Whether this build ran first in each round.
        var ranFirst: [Bool] = []
    }

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() throws {
        let dir = URL(fileURLWithPath: data)
        let dataName = try PipelineBench.dataSet(dir, scale: scale, shape: shape)
        let mine = this ?? ChildProcess.siblingTonight
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-compare-\(getpid())")
        defer { try? FileIO.removeItem(root) }
        var builds = [Figures(name: otherName, executable: other), Figures(name: thisName, executable: mine)]
        // A new work directory for every run, removed after it (a run store and its snapshots
        // are gigabytes). With a directory kept per build ("a" for --other, "b" for --this),
        // a build compared with a copy of itself published faster in "b" in all 8 rounds (and
        // by 7-18 % in the medians of three shorter comparisons); publish-only runs in two
        // such directories did not, nor did the comparison with the directories named
        // otherwise (BENCHMARKING.md). The cause is not found; no directory is a build's own.
        var started = 0
        func workDirectory() -> URL {
            started += 1
            return root.appendingPathComponent("run-\(started)")
        }
        let config = oneAtATime ? try PipelineBench.oneAtATimeConfig(in: root) : nil
        // One uncounted warm-up round (page cache, both binaries loaded), then the rounds.
        for round in -1..<runs {
            // ABBA: neither build always runs first after the other's page-cache and heap state.
            let order = round % 2 == 0 ? [0, 1] : [1, 0]
            for k in order {
                let work = workDirectory()
                defer { try? FileIO.removeItem(work) }
                if round < 0 {
                    _ = try PipelineBench.forcedRun(tonight: builds[k].executable, data: dir, work: work,
                                                    arguments: config.map { ["--config", $0.path] } ?? [])
                    continue
                }
                let (m, store, id, record) = try PipelineBench.forcedRun(
                    tonight: builds[k].executable, data: dir, work: work,
                    arguments: config.map { ["--config", $0.path] } ?? [])
                var peak = m.peakBytes
                for s in record.stages {
                    guard let r = store.record(run: id, stage: s.stage) else { continue }
                    builds[k].stages[s.stage, default: []].append(r.durationSeconds)
                    if let cpu = r.cpuSeconds { builds[k].stagesCPU[s.stage, default: []].append(cpu) }
                    peak = max(peak, r.peakMemoryBytes)
                }
                builds[k].order = record.stages.map(\.stage)
                builds[k].ranFirst.append(k == order[0])
                builds[k].walls.append(m.seconds)
                builds[k].wallsCPU.append(m.cpuSeconds)
                builds[k].peaks.append(Double(peak))
                builds[k].datasets.append(try Self.publishedDatasets(work.appendingPathComponent("out/snapshots")))
            }
            FileHandle.standardError.write(Data(round < 0 ? "  warm-up done\n".utf8 : "  round \(round + 1)/\(runs) done\n".utf8))
        }
        let (a, b) = (builds[0], builds[1])
        let how = oneAtATime ? "stages one after another" : "stages side by side, as the nightly job runs them"
        var table = BenchTable(
            "`tonight run --force` on \(dataName), \(a.name) (`\(a.executable)`) and \(b.name) (`\(b.executable)`), \(runs) interleaved rounds (ABBA), \(how): medians",
            columns: ["stage", "\(a.name) s", "\(b.name) s", "\(b.name) ÷ \(a.name)", "\(a.name) min–max", "\(b.name) min–max",
                      "\(a.name) CPU s", "\(b.name) CPU s", "CPU \(b.name) ÷ \(a.name)"])
        func ratio(_ x: [Double], _ y: [Double]) -> String {
            x.isEmpty || y.isEmpty || median(x) <= 0 ? "-" : String(format: "%.3f", median(y) / median(x))
        }
        func row(_ name: String, _ x: [Double], _ y: [Double], cpu cx: [Double], _ cy: [Double]) {
            table.row([name, sec(median(x)), sec(median(y)), ratio(x, y),
                       "\(sec(x.min() ?? 0))–\(sec(x.max() ?? 0))", "\(sec(y.min() ?? 0))–\(sec(y.max() ?? 0))",
                       cx.isEmpty ? "-" : sec(median(cx)), cy.isEmpty ? "-" : sec(median(cy)), ratio(cx, cy)])
        }
        for stage in b.order { row(stage, a.stages[stage] ?? [], b.stages[stage] ?? [], cpu: a.stagesCPU[stage] ?? [], b.stagesCPU[stage] ?? []) }
        row("whole run (wall)", a.walls, b.walls, cpu: a.wallsCPU, b.wallsCPU)
        table.note("CPU seconds: user and system, every thread (a stage's from its stage.json, side-by-side stages counting each other's; the whole run's from wait4); \"-\" for a build that does not record it. On this host CPU seconds drift as wall seconds do (BENCHMARKING.md: a build against itself).")
        table.note(String(format: "peak memory: %@ %.0f MiB, %@ %.0f MiB (medians)", a.name, median(a.peaks) / 1_048_576,
                          b.name, median(b.peaks) / 1_048_576))
        if !oneAtATime {
            table.note("inside a run stages overlap (a stage beside another shares the cores): compare whole runs, or pass --one-at-a-time for stage figures")
        }
        let same = Set(a.datasets + b.datasets).count == 1
        if same {
            table.note("datasets: identical (every round of both builds published the same SHA-256 for every data and index file)")
        } else {
            let names = Set((a.datasets + b.datasets).flatMap(\.keys)).sorted()
            let differing = names.filter { n in Set((a.datasets + b.datasets).map { $0[n] }).count > 1 }
            table.note("datasets: DIFFERENT in \(differing.joined(separator: ", ")) (on purpose? see the commit)")
        }
        try output.emit(benchmark: section, tables: [table, Self.rounds(a, b)])
    }

    /// The rounds one by one: the builds' figures of a round ran minutes apart, so their ratio
    /// is a paired sample, and a build that comes out ahead in nearly every round whichever ran
    /// first is a difference the medians alone could hide in the host's drift.
    static func rounds(_ a: Figures, _ b: Figures) -> BenchTable {
        let stages = ["tickets", "publish"].filter { a.stages[$0] != nil && b.stages[$0] != nil }
        var columns = ["round", "first", "whole run \(a.name) s", "\(b.name) s", "\(b.name) ÷ \(a.name)"]
        for s in stages { columns += ["\(s) \(a.name) s", "\(b.name) s", "\(b.name) ÷ \(a.name)"] }
        var table = BenchTable("Round by round (wall seconds; a ratio below 1: \(b.name) faster in that round)", columns: columns)
        func cells(_ x: [Double], _ y: [Double], _ i: Int) -> [String] {
            guard i < x.count, i < y.count, x[i] > 0 else { return ["-", "-", "-"] }
            return [sec(x[i]), sec(y[i]), String(format: "%.3f", y[i] / x[i])]
        }
        var faster: [String: Int] = [:]
        let n = min(a.walls.count, b.walls.count)
        for i in 0..<n {
            var row = ["\(i + 1)", a.ranFirst[i] ? a.name : b.name] + cells(a.walls, b.walls, i)
            if b.walls[i] < a.walls[i] { faster["whole run", default: 0] += 1 }
            for s in stages {
                let (x, y) = (a.stages[s] ?? [], b.stages[s] ?? [])
                row += cells(x, y, i)
                if i < x.count, i < y.count, y[i] < x[i] { faster[s, default: 0] += 1 }
            }
            table.row(row)
        }
        let allOf = n < 31 ? "\(1 << n)" : "2^\(n)"
        for name in ["whole run"] + stages {
            table.note("\(name): \(b.name) faster in \(faster[name] ?? 0) of \(n) rounds (a build against itself: about half, by chance; all \(n) has a chance of 1 in \(allOf))")
        }
        return table
    }

    /// Dataset name → "sha256 indexSha256 …" of CURRENT's manifest under `snapshots`.
    static func publishedDatasets(_ snapshots: URL) throws -> [String: String] {
        let id = try SnapshotDirectory(root: snapshots).currentID()
        let manifest = try SnapshotDirectory(root: snapshots).manifest(id)
        return manifest.datasets.mapValues { d in d.files.map(\.sha256).joined(separator: " ") }
    }
}
