import Foundation
import Testing
import TonightSnapshot
import TonightTesting

/// `--threads N` changes how many workers each parallel step uses, never what it writes:
/// every dataset of a generated `small` set is byte-identical with one worker, three and the
/// default (every core).
@Suite struct ThreadsTests {
    @Test func outputsDoNotDependOnTheThreadCount() throws {
        let inputs = temporaryDirectory("threads-small")
        let generate = try runTonight(["generate", "--scale", "small", "--seed", "3", "--out", inputs.path])
        #expect(generate.status == 0, "\(generate.stderr)")
        var hashes: [String: [String: String]] = [:]
        for threads in ["1", "3", nil] as [String?] {
            let work = temporaryDirectory("threads-run")
            let run = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.appendingPathComponent("out").path]
                                     + (threads.map { ["--threads", $0] } ?? []))
            #expect(run.status == 0, "\(run.stderr)")
            let snapshot = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"), cacheBytes: 0)
            hashes[threads ?? "default"] = snapshot.manifest.datasets.mapValues(\.sha256)
        }
        #expect(hashes["1"]?.count == 23)
        #expect(hashes["1"] == hashes["3"] && hashes["1"] == hashes["default"])
    }

    @Test func aThreadCountOutOfRangeIsAUsageError() throws {
        let run = try runTonight(["run", "--threads", "0", "--dry-run"])
        #expect(run.status == 64 || run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("--threads"))
    }
}
