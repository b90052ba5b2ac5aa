import ArgumentParser
import Foundation
import TonightBase

/// Runs a command and measures its wall time, CPU time and peak resident memory.
///
/// The peak comes from GNU time (`/usr/bin/time -f %M`), which fork()s the command from a
/// 1 MB process: a child spawned directly from this process would inherit our own RSS high
/// water mark at exec (Linux records the old mm's peak in the new image's rusage), which
/// would pollute every small figure. Wall time is measured here, around the whole spawn.
struct ChildProcess {
    struct Measurement {
        var seconds: Double
        /// User and system CPU of the command and every child it waited for (`wait4`'s
        /// usage of GNU time, which waits for the command: a pipeline's every stage).
        var cpuSeconds: Double
        var peakBytes: Int64
        var status: Int32
        var output: String
    }

    /// The `tonight` executable built beside this `tonight-bench` (symlinks resolved).
    static var siblingTonight: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("tonight").path
    }

    static func run(_ argv: [String], captureOutput: Bool = false) throws -> Measurement {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Files of this call's own: two calls at once (the tests run in parallel) must not
        // read or remove each other's.
        let stem = "bench-\(getpid())-\(UUID().uuidString)"
        let outFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(stem)-out.txt")
        if captureOutput {
            posix_spawn_file_actions_addopen(&actions, 1, outFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let timeFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(stem)-time.txt")
        defer {
            try? FileManager.default.removeItem(at: outFile)
            try? FileManager.default.removeItem(at: timeFile)
        }
        let argv = ["/usr/bin/time", "-f", "%M", "-o", timeFile.path] + argv
        let cargs = argv.map { strdup($0) } + [nil]
        defer { cargs.forEach { free($0) } }
        let exe = argv[0].hasPrefix("/") ? argv[0] : "/usr/bin/env"
        let args = argv[0].hasPrefix("/") ? cargs : ([strdup("/usr/bin/env")] + cargs)
        let started = DispatchTime.now()
        let rc = posix_spawn(&pid, exe, &actions, nil, args, environ)
        guard rc == 0 else { throw ValidationError("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let output = captureOutput ? ((try? String(contentsOf: outFile, encoding: .utf8)) ?? "") : ""
        let timeText = (try? String(contentsOf: timeFile, encoding: .utf8)) ?? ""
        let peakKB = timeText.split(separator: "\n").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.last ?? -1
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Measurement(seconds: seconds, cpuSeconds: CPUTime.seconds(usage), peakBytes: peakKB * 1024, status: code, output: output)
    }
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A named command measured several times.
struct Series {
    var name: String
    var argv: [String]
    var seconds: [Double] = []
    var peaks: [Double] = []

    var medianSeconds: Double { median(seconds) }
    var medianPeakMB: Double { median(peaks) / 1_048_576 }
}

/// Runs the series interleaved, in order and in reverse order by turns (a, b, c, c, b, a, …), so
/// that load on the shared machine hits all of them alike and none always runs right after the
/// same one: on this host a command run right after another can be slower or faster than one run
/// after a lighter command (2026-11-30: the same parse-feed command 0.62 s in third place and
/// 0.70 s in fifth, 10 rounds), so a fixed order favoured some series.
func measure(_ series: inout [Series], runs: Int) throws {
    // One uncounted warm-up round: page cache, dynamic loader, CPU frequency.
    for s in series { _ = try ChildProcess.run(s.argv) }
    for round in 0..<runs {
        for i in roundOrder(round, count: series.count) {
            let m = try ChildProcess.run(series[i].argv)
            guard m.status == 0 else {
                throw ValidationError("\(series[i].name) failed (status \(m.status)): \(series[i].argv.joined(separator: " "))")
            }
            series[i].seconds.append(m.seconds)
            series[i].peaks.append(Double(m.peakBytes))
        }
        FileHandle.standardError.write(Data("  round \(round + 1)/\(runs) done\n".utf8))
    }
}

/// The order of the series in round `round` (from 0): forward in even rounds, backward in odd ones.
func roundOrder(_ round: Int, count: Int) -> [Int] {
    round % 2 == 0 ? Array(0..<count) : Array((0..<count).reversed())
}

extension Array where Element == Series {
    /// Medians, extremes and peak memory of each series.
    func table(_ title: String) -> BenchTable {
        var t = BenchTable(title, columns: ["command", "median s", "min s", "max s", "peak MiB"])
        for s in self {
            t.row([s.name, sec(s.medianSeconds), sec(s.seconds.min() ?? 0), sec(s.seconds.max() ?? 0), String(format: "%.1f", s.medianPeakMB)])
        }
        return t
    }
}
