import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator
import TonightPipeline

/// load-tickets on a data set's Tickets Tonight export, against two baselines run in the same
/// invocation, interleaved: `wc -l` over the same four files (one pass over the bytes, a floor)
/// and Python's `csv` module counting rows (what a straightforward loader script does).
struct LoadTicketsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-tickets",
        abstract: "Time the load-tickets stage (medians, MB/s) against wc -l and Python's csv module.")

    @Option(help: "Data directory (generated if missing).") var data: String = "bench-data/full"
    @Option(help: "Runs (the median is reported).") var runs: Int = 7
    @Flag(help: "Skip the Python csv baseline (about 10 s a run on full).") var noPython = false
    @OptionGroup var output: BenchOutput

    /// The goal of issue 3: the full export loads at 150 MB/s or better.
    static let goalMBps = 150.0

    func run() throws {
        let dir = URL(fileURLWithPath: data)
        if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("feed.xml").path) {
            print("generating full into \(dir.path) …")
            _ = try DatasetGenerator(scale: .full, seed: 1).generate(into: dir)
        }
        let tickets = dir.appendingPathComponent("tickets")
        let files = ["users.csv", "favorites.csv", "follows.csv", "dismissed.csv"]
            .map { tickets.appendingPathComponent($0).path }.filter { FileManager.default.fileExists(atPath: $0) }
        let bytes = files.reduce(0) { $0 + FileIO.size(URL(fileURLWithPath: $1)) }
        let mb = Double(bytes) / 1e6
        let tonight = ChildProcess.siblingTonight
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-lt-\(getpid())")
        defer { try? FileIO.removeItem(work) }
        let common = [tonight, "run", "--inputs", dir.path, "--work", work.path, "--out", work.appendingPathComponent("out").path]
        // parse-feed once: load-tickets checks favourites against the feed's artists.
        guard try ChildProcess.run(common + ["--only", "parse-feed"]).status == 0 else { throw ValidationError("parse-feed failed") }
        let python = """
            import csv, sys
            n = 0
            for path in sys.argv[1:]:
                with open(path, newline='', encoding='utf-8') as f:
                    for row in csv.reader(f):
                        n += 1
            print(n)
            """
        var stage: [Double] = [], process: [Double] = [], wc: [Double] = [], py: [Double] = []
        var details: [String: [Double]] = [:]
        for i in 0..<runs {
            let m = try ChildProcess.run(common + ["--only", "load-tickets", "--force"])
            guard m.status == 0 else { throw ValidationError("load-tickets failed with status \(m.status)") }
            process.append(m.seconds)
            let store = RunStore(work: work)
            guard let id = store.runIDs().first, let r = store.record(run: id, stage: "load-tickets") else {
                throw ValidationError("no load-tickets record")
            }
            stage.append(r.durationSeconds)
            for (k, v) in r.details where k.hasPrefix("seconds.") { details[k, default: []].append(Double(v) ?? 0) }
            wc.append(try ChildProcess.run(["wc", "-l"] + files).seconds)
            if !noPython { py.append(try ChildProcess.run(["python3", "-c", python] + files).seconds) }
            FileHandle.standardError.write(Data("  run \(i + 1)/\(runs) done\n".utf8))
        }
        var table = BenchTable(String(format: "load-tickets on %@: %.1f MB in %d files, %d runs", tickets.path, mb, files.count, runs),
                               columns: ["what", "median s", "min s", "max s", "MB/s"])
        func add(_ name: String, _ xs: [Double]) {
            table.row([name, sec(median(xs)), sec(xs.min() ?? 0), sec(xs.max() ?? 0), String(format: "%.0f", mb / median(xs))])
        }
        add("stage (stage.json duration)", stage)
        for (k, v) in details.sorted(by: { $0.key < $1.key }) { table.row(["  " + k, sec(median(v)), "", "", ""]) }
        add("whole process (tonight run)", process)
        add("baseline wc -l", wc)
        if !py.isEmpty { add("baseline python3 csv.reader", py) }
        table.goal(Goal(name: "load-tickets throughput", value: mb / median(stage), goal: Self.goalMBps, direction: .atLeast, unit: " MB/s", decimals: 0))
        table.note(String(format: "stage / wc -l = %.1f", median(stage) / median(wc)))
        if !py.isEmpty { table.note(String(format: "python csv / stage = %.1f", median(py) / median(stage))) }
        try output.emit(benchmark: "load-tickets", tables: [table])
    }
}
