import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator
import TonightPipeline

/// The per-user stages whole, then as 1, 2 and 4 shards run one after the other on this
/// machine, then merged: what sharding costs in work (the shards' sum against the whole run)
/// and in memory per shard.
struct ShardsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shards", abstract: "Per-user stages whole vs. N shards one after the other, and the merge (issue 13).")

    @Option(help: "Data directory (from `tonight generate`).") var data: String = "bench-data/full"
    @Option(parsing: .upToNextOption, help: "Shard counts.") var counts: [Int] = [1, 2, 4]
    @Option(help: "Rounds (medians are reported).") var runs: Int = 3
    @OptionGroup var output: BenchOutput

    static let perUser = ["tickets", "alerts", "playmate"]

    struct Figures {
        var seconds = 0.0
        var tickets = 0.0
        var playmate = 0.0
        var peak: Int64 = 0
        var wall = 0.0
    }

    func run() throws {
        let dir = URL(fileURLWithPath: data)
        guard FileManager.default.fileExists(atPath: dir.appendingPathComponent("generated.json").path) else {
            throw ValidationError("\(dir.path) holds no generated data set: run `tonight generate --scale full --out \(data)`")
        }
        let info = GeneratedInfo.read(dir)
        let tonight = ChildProcess.siblingTonight
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-shards-\(getpid())")
        defer { try? FileIO.removeItem(work) }
        let base = ["--inputs", dir.path, "--work", work.path, "--out", work.appendingPathComponent("out").path, "--log-format", "json"]
        // The shared stages once, so that every configuration below only ranks (and merges).
        let setup = try ChildProcess.run([tonight, "run", "--only", "parse-feed", "parse-affinity", "geocode", "load-tickets", "load-playmate"] + base)
        guard setup.status == 0 else { throw ValidationError("the shared stages failed (status \(setup.status))") }

        func perUser(_ argv: [String]) throws -> Figures {
            let m = try ChildProcess.run([tonight] + argv + base, captureOutput: true)
            guard m.status == 0 else { throw ValidationError("\(argv.joined(separator: " ")) failed with status \(m.status)") }
            // "… run <id> completed" / "merge <id> of …": the run's id follows the word.
            let words = m.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            guard let at = words.firstIndex(where: { $0 == "run" || $0 == "merge" }), at + 1 < words.count else {
                throw ValidationError("no run id in the output of \(argv.joined(separator: " "))")
            }
            let store = RunStore(work: work)
            var f = Figures(wall: m.seconds)
            for stage in Self.perUser {
                guard let r = store.record(run: words[at + 1], stage: stage) else { throw ValidationError("no \(stage) record in run \(words[at + 1])") }
                f.seconds += r.durationSeconds
                if stage == "tickets" { f.tickets = r.durationSeconds }
                if stage == "playmate" { f.playmate = r.durationSeconds }
                f.peak = max(f.peak, r.peakMemoryBytes)
            }
            return f
        }

        // Rounds interleave the configurations (this host's speed drifts): medians per cell.
        var wholeRuns: [Figures] = []
        var shardRuns: [Int: [[Figures]]] = [:], mergeRuns: [Int: [Figures]] = [:]
        for round in 0..<runs {
            wholeRuns.append(try perUser(["run", "--only"] + Self.perUser + ["--force"]))
            FileHandle.standardError.write(Data("  round \(round + 1): whole \(sec(wholeRuns.last!.seconds)) s\n".utf8))
            for n in counts {
                var shards: [Figures] = []
                for i in 0..<n { shards.append(try perUser(["run", "--shard", "\(i)/\(n)", "--force"])) }
                shardRuns[n, default: []].append(shards)
                mergeRuns[n, default: []].append(try perUser(["merge", "--shards", "\(n)", "--force"]))
                FileHandle.standardError.write(Data("  round \(round + 1): \(n) shard(s) \(shards.map { sec($0.seconds) }.joined(separator: " + ")) s\n".utf8))
            }
        }
        let whole = median(wholeRuns.map(\.seconds))
        var table = BenchTable(
            "Per-user stages (tickets, alerts, playmate) on \(dir.lastPathComponent) (\(info?.scale ?? "?"), \(info?.shape ?? "?") shape), whole vs. N shards run one after the other on this machine, medians of \(runs) interleaved rounds",
            columns: ["configuration", "per-user s (sum)", "÷ whole", "tickets s", "playmate s", "slowest shard s", "peak MiB per shard (max)", "merge s", "merge peak MiB"])
        table.row(["whole run", sec(whole), "1.00", sec(median(wholeRuns.map(\.tickets))), sec(median(wholeRuns.map(\.playmate))),
                   sec(whole), mib(wholeRuns.map(\.peak).max() ?? 0), "", ""])
        for n in counts {
            let rounds = shardRuns[n] ?? []
            let sum = median(rounds.map { $0.map(\.seconds).reduce(0, +) })
            let merges = mergeRuns[n] ?? []
            table.row(["\(n) shard\(n == 1 ? "" : "s")", sec(sum), String(format: "%.2f", sum / whole),
                       sec(median(rounds.map { $0.map(\.tickets).reduce(0, +) })), sec(median(rounds.map { $0.map(\.playmate).reduce(0, +) })),
                       sec(median(rounds.map { $0.map(\.seconds).max() ?? 0 })), mib(rounds.flatMap { $0.map(\.peak) }.max() ?? 0),
                       sec(median(merges.map(\.seconds))), mib(merges.map(\.peak).max() ?? 0)])
            table.goal(Goal(name: "\(n) shard(s): sum of the shards ÷ whole run", value: sum / whole, goal: 1.10, direction: .atMost, unit: "×"))
            let night = median(zip(rounds, merges).map { $0.map(\.seconds).reduce(0, +) + $1.seconds })
            table.note(String(format: "%d shard(s): shards + merge ÷ whole run = %.2f× (the whole night's work, merge included)", n, night / whole))
        }
        table.note("Per-user seconds are the stages' own durations (stage.json); the merge column is the k-way merge of the parts that a sharded night adds: it writes the published layout (2 KiB frames, trained dictionary, key table), so the shards write their parts as plain 64 KiB level-1 frames and the final compression moves from the per-user stages to the merge. What every shard repeats: reading (and skipping the others' rows of) the user table, the event index (~0.15 s), the Playmate ranker's session lists (~0.2 s), its own place caches. Peak is the largest stage's high-water mark (VmHWM).")
        try output.emit(benchmark: "shards", tables: [table])
    }

    func sec(_ s: Double) -> String { String(format: "%.2f", s) }
    func mib(_ b: Int64) -> String { String(b / 1_048_576) }
}
