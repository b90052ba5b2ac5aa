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
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let tonight = me.deletingLastPathComponent().appendingPathComponent("tonight").path
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
        print(String(format: "load-tickets benchmark on %@: %.1f MB in %d files, %d runs, medians", tickets.path, mb, files.count, runs))
        print(String(format: "stage (stage.json duration)     %.3f s  %.0f MB/s  (goal >= %.0f MB/s: %@)  min %.3f max %.3f",
                     median(stage), mb / median(stage), Self.goalMBps, mb / median(stage) >= Self.goalMBps ? "met" : "NOT met",
                     stage.min() ?? 0, stage.max() ?? 0))
        for (k, v) in details.sorted(by: { $0.key < $1.key }) {
            print("  " + k.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%.3f s", median(v)))
        }
        print(String(format: "whole process (tonight run)     %.3f s", median(process)))
        print(String(format: "baseline wc -l                  %.3f s  %.0f MB/s  (stage/wc %.1f)", median(wc), mb / median(wc), median(stage) / median(wc)))
        if !py.isEmpty {
            print(String(format: "baseline python3 csv.reader     %.3f s  %.0f MB/s  (python/stage %.1f)", median(py), mb / median(py), median(py) / median(stage)))
        }
    }
}
