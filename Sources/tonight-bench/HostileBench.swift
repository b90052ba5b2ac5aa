import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator

/// Every hostile feed of `HostileFeed` (entity expansion, external entities, floods, huge
/// text, deep nesting, decompression bombs) through the whole `tonight` process: each must be
/// refused with exit 65 within 1 s and 64 MiB of peak resident memory (issue 17). The tests
/// check the refusal and its message; the time and memory are measured here.
struct HostileBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile", abstract: "Time and peak memory of refusing every hostile feed (goal: 1 s, 64 MiB each).")

    @Option(help: "Rounds per file (the median time and the largest peak are reported).") var runs: Int = 3
    @OptionGroup var output: BenchOutput

    static let goalSeconds = 1.0
    static let goalMiB = 64.0

    func run() throws {
        let tonight = ChildProcess.siblingTonight
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-hostile-\(getpid())")
        defer { try? FileIO.removeItem(root) }
        var table = BenchTable("`tonight run --only parse-feed` on each hostile feed, \(runs) rounds",
                               columns: ["feed", "file MB", "exit", "median s", "max s", "peak MiB"])
        var worstSeconds = 0.0, worstPeak = 0.0
        var refused = 0
        for (n, attack) in HostileFeed.all.enumerated() {
            let inputs = root.appendingPathComponent("in-\(n)")
            try FileIO.createDirectory(inputs)
            let file = try attack.write(into: inputs)
            var seconds: [Double] = [], peaks: [Double] = []
            var status: Int32 = 0
            for _ in 0..<runs {
                let work = root.appendingPathComponent("work-\(n)")
                let m = try ChildProcess.run([tonight, "run", "--only", "parse-feed", "--inputs", inputs.path, "--work", work.path,
                                              "--out", work.appendingPathComponent("out").path])
                try? FileIO.removeItem(work)
                seconds.append(m.seconds)
                peaks.append(Double(m.peakBytes) / 1_048_576)
                status = m.status
            }
            if status == 65 { refused += 1 }
            worstSeconds = max(worstSeconds, median(seconds))
            worstPeak = max(worstPeak, peaks.max() ?? 0)
            table.row([attack.name, String(format: "%.1f", Double(FileIO.size(file)) / 1e6), String(status),
                       sec(median(seconds)), sec(seconds.max() ?? 0), String(format: "%.1f", peaks.max() ?? 0)])
            try? FileIO.removeItem(inputs)
            FileHandle.standardError.write(Data("  \(attack.name): exit \(status), \(sec(median(seconds))) s\n".utf8))
        }
        table.note("\(refused) of \(HostileFeed.all.count) refused with exit 65")
        table.goal(Goal(name: "slowest refusal (median)", value: worstSeconds, goal: Self.goalSeconds, direction: .atMost, unit: " s", decimals: 3))
        table.goal(Goal(name: "largest peak", value: worstPeak, goal: Self.goalMiB, direction: .atMost, unit: " MiB", decimals: 1))
        try output.emit(benchmark: "hostile", tables: [table])
        if refused != HostileFeed.all.count { throw ExitCode(1) }
    }
}
