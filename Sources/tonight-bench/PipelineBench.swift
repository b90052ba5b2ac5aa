import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator
import TonightPipeline

/// Every stage on a data set, several times: per-stage medians from the runs' stage.json
/// records, checked against the goals of the issues.
struct PipelineBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline", abstract: "Time every stage of `tonight run --force` on a data set (medians).")

    @Option(help: "Data directory (generated if missing).") var data: String = "bench-data/full"
    @Option(help: "Scale to generate when the data directory is empty.") var scale: String = "full"
    @Option(help: "Shape to generate when the data directory is empty: realistic or uniform.") var shape: String = "realistic"
    @Option(help: "Runs (the median is reported).") var runs: Int = 5
    @Option(help: "The section of the Markdown file (e.g. pipeline-uniform for a second data set).") var section: String = "pipeline"
    @OptionGroup var output: BenchOutput

    /// Goals (seconds) of the issues, by stage.
    /// (The geocoding goal is about venues alone: `tonight-bench geocode`; the stage also
    /// computes every event's local time and reads and writes tables.)
    static let goals: [String: Double] = ["parse-affinity": 0.3, "catalog": 2, "tickets": 15, "playmate": 5, "publish": 3]

    func run() throws {
        let dir = URL(fileURLWithPath: data)
        let dataName = try Self.dataSet(dir, scale: scale, shape: shape)
        let tonight = ChildProcess.siblingTonight
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-work-\(getpid())")
        defer { try? FileIO.removeItem(work) }
        var durations: [String: [Double]] = [:], cpu: [String: [Double]] = [:]
        var peaks: [Double] = [], walls: [Double] = []
        var alonePeaks: [Double] = [], aloneWalls: [Double] = []
        var rows: [String: [String: Int]] = [:]
        var inputBytes: [String: Double] = [:]
        var order: [String] = []
        // Stage figures come from runs whose stages run one after another (a stage beside
        // another shares the cores, and its seconds say so); the whole run is timed as the
        // nightly job runs it, stages side by side (runs.stagesAtOnce 0). Interleaved.
        let oneAtATime = try Self.oneAtATimeConfig(in: work)
        // The floors, timed once a round beside its runs (prepared after the first run).
        var floors: PipelineFloors?
        var floorsError: Error?
        defer { floors?.removeFiles() }
        func measureFloors() {
            guard floorsError == nil else { return }
            do {
                if floors == nil { floors = try PipelineFloors(work: work, order: order) }
                try floors?.measureRound()
            } catch {
                // E.g. /dev/shm too small for the decompressed lists: the stage figures still stand.
                floorsError = error
                floors?.removeFiles()
                floors = nil
            }
        }
        // A round's three parts run forward and backward by turns (`roundOrder`): on this
        // host a command measures differently after another, so no part always follows the
        // same one. The first round runs forward, so the floors are prepared from its first run.
        for i in 0..<runs {
            for part in Self.parts(round: i) {
                let alone: Bool
                switch part {
                case .floors:
                    measureFloors()
                    continue
                case .run(let stagesOneAtATime):
                    alone = stagesOneAtATime
                }
                // A real publish each time: with the same datasets in CURRENT, publish is a no-op.
                let (m, store, id, record) = try Self.forcedRun(tonight: tonight, data: dir, work: work,
                                                                arguments: alone ? ["--config", oneAtATime.path] : [])
                // The run's peak is its largest stage's: the runner resets the high-water mark
                // when no stage runs (clear_refs), so the process's own peak (GNU time) is the
                // last window's.
                var peak: Int64 = m.peakBytes
                for s in record.stages {
                    guard let r = store.record(run: id, stage: s.stage) else { continue }
                    peak = max(peak, r.peakMemoryBytes)
                    if alone {
                        durations[s.stage, default: []].append(r.durationSeconds)
                        if let c = r.cpuSeconds { cpu[s.stage, default: []].append(c) }
                        rows[s.stage] = r.rows
                        if let b = r.details["inputBytes"].flatMap(Double.init) { inputBytes[s.stage] = b }
                    }
                }
                if alone {
                    order = record.stages.map(\.stage)
                    aloneWalls.append(m.seconds)
                    alonePeaks.append(Double(peak))
                } else {
                    walls.append(m.seconds)
                    peaks.append(Double(peak))
                }
            }
            FileHandle.standardError.write(Data("  round \(i + 1)/\(runs) done\n".utf8))
        }
        var table = BenchTable("Stages of `tonight run --force` on \(dataName), \(runs) runs with the stages one after another (stage.json durations), interleaved with \(runs) runs as the nightly job runs them",
                               columns: ["stage", "median s", "min s", "max s", "goal s", "rows"])
        for stage in order {
            let d = durations[stage] ?? []
            let r = (rows[stage] ?? [:]).sorted { $0.key < $1.key }.filter { !$0.key.hasPrefix("rows.") }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            table.row([stage, sec(median(d)), sec(d.min() ?? 0), sec(d.max() ?? 0), Self.goals[stage].map { String(format: "%.2f", $0) } ?? "", r])
            if let goal = Self.goals[stage] {
                table.goal(Goal(name: stage, value: median(d), goal: goal, direction: .atMost, unit: " s"))
            }
        }
        for (stage, key) in [("tickets", "users"), ("playmate", "players")] {
            if let n = rows[stage]?[key], let d = durations[stage], median(d) > 0 {
                table.note(String(format: "%@: %d %@ in %.2f s = %.0f %@/s", stage, n, key, median(d), Double(n) / median(d), key))
            }
        }
        if let b = inputBytes["load-tickets"], let d = durations["load-tickets"], median(d) > 0 {
            table.goal(Goal(name: "load-tickets throughput", value: b / 1e6 / median(d), goal: 150, direction: .atLeast, unit: " MB/s", decimals: 0))
        }
        table.note(String(format: "whole run, stages one after another (runs.stagesAtOnce 1, the runs of the stage figures): %.2f s, peak %.0f MiB",
                          median(aloneWalls), median(alonePeaks) / 1_048_576))
        table.goal(Goal(name: "whole run (wall, stages side by side: the default)", value: median(walls), goal: 45, direction: .atMost, unit: " s"))
        table.goal(Goal(name: "whole run (peak memory, the default)", value: median(peaks) / 1_048_576, goal: 3072, direction: .atMost, unit: " MiB", decimals: 0))
        let snapshots = work.appendingPathComponent("out/snapshots")
        var tables = [table]
        if let floors {
            tables.append(floors.table(durations: durations, cpu: cpu))
        } else {
            let error = floorsError.map { "\($0)" } ?? "no round ran"
            FileHandle.standardError.write(Data("floors not measured: \(error)\n".utf8))
            tables[0].note("floors not measured: \(error)")
        }
        let store = RunStore(work: work)
        let ticketsDetails = store.runIDs().first.flatMap { store.record(run: $0, stage: "tickets")?.details } ?? [:]
        tables.append(try Self.shapeTable(snapshots: snapshots, dataName: dataName, tickets: ticketsDetails))
        tables.append(try Self.datasetTable(snapshots: snapshots))
        try output.emit(benchmark: section, tables: tables)
    }
}

extension PipelineBench {
    /// A part of a round: a whole run (stages one after another, or side by side), or the floors.
    enum Part: Equatable {
        case run(alone: Bool)
        case floors
    }

    /// The parts of round `round` (from 0) in the order they run: forward in even rounds (the
    /// first starts with a run, from which the floors are prepared), backward in odd ones.
    static func parts(round: Int) -> [Part] {
        let parts: [Part] = [.run(alone: true), .run(alone: false), .floors]
        return roundOrder(round, count: parts.count).map { parts[$0] }
    }

    /// Generates `scale` of `shape` (seed 1) into `dir` unless it holds a feed already.
    static func generateIfMissing(_ dir: URL, scale: String, shape: String) throws {
        guard let s = GeneratorScale.named(scale) else { throw ValidationError("unknown scale \(scale)") }
        try generateIfMissing(dir, scale: s, shape: shape)
    }

    /// `generateIfMissing` of a scale with other counts (`GeneratorScale.with`).
    static func generateIfMissing(_ dir: URL, scale: GeneratorScale, shape: String) throws {
        guard !FileManager.default.fileExists(atPath: dir.appendingPathComponent("feed.xml").path) else { return }
        guard let worldShape = GeneratorShape(rawValue: shape) else { throw ValidationError("unknown shape \(shape)") }
        FileHandle.standardError.write(Data("generating \(scale.name) (\(scale.users) users, \(scale.players) players) into \(dir.path) …\n".utf8))
        try DatasetGenerator(scale: scale, seed: 1, shape: worldShape).generate(into: dir)
    }

    /// `generateIfMissing`, then the data set's name for a table title: "DIR (scale, shape
    /// shape, seed N)" from its `generated.json`.
    static func dataSet(_ dir: URL, scale: String, shape: String) throws -> String {
        try generateIfMissing(dir, scale: scale, shape: shape)
        let info = GeneratedInfo.read(dir)
        return "\(dir.lastPathComponent) (\(info?.scale ?? "?"), \(info?.shape ?? "uniform") shape, seed \(info?.seed ?? 0))"
    }

    /// A config file that runs the stages one after another (`runs.stagesAtOnce: 1`), for the
    /// runs whose stage figures a bench reports: a stage beside another shares the cores.
    static func oneAtATimeConfig(in work: URL) throws -> URL {
        try FileIO.createDirectory(work)
        let url = work.appendingPathComponent("one-at-a-time.yaml")
        try FileIO.write(Array("runs:\n  stagesAtOnce: 1\n".utf8), to: url)
        return url
    }

    /// One `tonight run --force` of `data` with `work` as run store and a fresh snapshot root
    /// (`work/out`: with the same datasets in CURRENT, publish would do nothing): the process's
    /// measurement and the run it recorded.
    static func forcedRun(tonight: String, data: URL, work: URL, arguments: [String] = []) throws
        -> (ChildProcess.Measurement, RunStore, String, RunRecord)
    {
        try? FileIO.removeItem(work.appendingPathComponent("out"))
        let m = try ChildProcess.run([tonight, "run", "--force", "--inputs", data.path, "--work", work.path,
                                      "--out", work.appendingPathComponent("out").path, "--log-format", "json"] + arguments)
        guard m.status == 0 else { throw ValidationError("tonight run on \(data.path) failed with status \(m.status)") }
        let store = RunStore(work: work)
        guard let id = store.runIDs().first else { throw ValidationError("no run recorded in \(work.path)") }
        return (m, store, id, try RunRecord.read(store.runDirectory(id).appendingPathComponent("run.json")))
    }
}
