import Foundation
import Testing
import TonightTesting
@testable import tonight_bench

/// The bench's one measurement of a command (`ChildProcess.run`): the CPU it reports must be
/// the command's and every process the command waited for, no more; the peak must be the
/// command's own (not the bench's, which a direct spawn would inherit); the status must be
/// the command's. Every figure of `tonight-bench pipeline`'s floors and of `compare`'s whole
/// runs comes from it.
@Suite struct ChildProcessTests {
    /// A Python program that burns about `seconds` of CPU and prints its own user and system
    /// CPU at its end (`os.times`, the same kernel counters `wait4` sums).
    static func burner(_ seconds: Double) -> String {
        "python3 -c 'import os, time\nt = time.process_time()\nwhile time.process_time() - t < \(seconds): pass\no = os.times()\nprint(o.user + o.system)'"
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func cpuCountsEveryProcessOfAPipeline() throws {
        // Two burners, one after the other and one in a pipeline's other stage: the shell
        // waits for all of them, GNU time for the shell, and wait4 sums the lot.
        let script = "\(Self.burner(0.3)); \(Self.burner(0.2)) | cat"
        let m = try ChildProcess.run(["/bin/sh", "-c", script], captureOutput: true)
        #expect(m.status == 0)
        let own = m.output.split(separator: "\n").compactMap { Double($0) }
        try #require(own.count == 2, "the burners printed \(m.output)")
        let sum = own.reduce(0, +)
        #expect(sum >= 0.5)
        // At least what the burners took themselves; at most that and the shell's, cat's and
        // GNU time's few hundredths (a reading of GNU time alone, or one counted twice, fails).
        #expect(m.cpuSeconds >= sum - 0.01, "wait4 said \(m.cpuSeconds), the burners \(sum)")
        #expect(m.cpuSeconds <= sum + 0.25, "wait4 said \(m.cpuSeconds), the burners \(sum)")
        #expect(m.seconds >= 0.5 * 0.9)
    }

    @Test func aSmallCommandHasASmallPeak() throws {
        // The bench holds far more than `true` needs: a peak inherited at exec would show it.
        let ballast = [UInt8](repeating: 1, count: 64 << 20)
        let m = try ChildProcess.run(["/bin/true"])
        #expect(m.status == 0)
        #expect(m.peakBytes > 0)
        #expect(m.peakBytes < 16 << 20, "peak \(m.peakBytes) bytes for /bin/true")
        #expect(ballast.count == 64 << 20)
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func aLargeAllocationIsThePeak() throws {
        let m = try ChildProcess.run(["python3", "-c", "b = bytearray(200 * 1024 * 1024); b[::4096] = b'x' * len(b[::4096])"])
        #expect(m.status == 0)
        #expect(m.peakBytes >= 200 << 20)
        #expect(m.peakBytes < 400 << 20)
    }

    @Test(arguments: [("exit 3", 3), ("kill -9 $$", 128 + 9), ("exit 0", 0)] as [(String, Int32)])
    func statusIsTheCommands(_ script: String, _ expected: Int32) throws {
        #expect(try ChildProcess.run(["/bin/sh", "-c", script]).status == expected)
    }

    @Test func medianOfOddAndEvenCounts() {
        #expect(median([3, 1, 2]) == 2)
        #expect(median([4, 1, 3, 2]) == 2.5)
        #expect(median([]).isNaN)
    }
}

/// `measure` runs a round's commands forward and backward by turns, so that no series always
/// runs right after the same one (on this host the command before changes a measurement).
@Suite struct MeasureOrderTests {
    @Test func roundsAlternateTheirOrder() throws {
        let log = temporaryDirectory("tonight-bench-order").appendingPathComponent("log")
        var series = ["a", "b", "c"].map { name in
            Series(name: name, argv: ["/bin/sh", "-c", "echo \(name) >> '\(log.path)'"])
        }
        try measure(&series, runs: 4)
        let order = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").joined()
        // The warm-up round, then forward, backward, forward, backward.
        #expect(order == "abc" + "abc" + "cba" + "abc" + "cba", "\(order)")
        #expect(series.allSatisfy { $0.seconds.count == 4 && $0.peaks.count == 4 })
        #expect(roundOrder(0, count: 1) == [0] && roundOrder(1, count: 0) == [])
    }

    /// The pipeline bench's rounds alternate their three parts the same way; the first round
    /// starts with a run (the floors are prepared from a recorded run).
    @Test func pipelineRoundsAlternateTheirParts() {
        let forward: [PipelineBench.Part] = [.run(alone: true), .run(alone: false), .floors]
        #expect(PipelineBench.parts(round: 0) == forward)
        #expect(PipelineBench.parts(round: 1) == forward.reversed())
        #expect(PipelineBench.parts(round: 4) == forward && PipelineBench.parts(round: 7) == forward.reversed())
    }
}
