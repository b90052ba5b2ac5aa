import Foundation
import Testing
import TonightSnapshot
import TonightTesting
@testable import TonightPipeline

/// `--threads N` changes how many workers each parallel step uses, never what it writes:
/// every dataset of a generated `small` set is byte-identical with one worker, three and the
/// default (every core).
@Suite struct ThreadsTests {
    @Test func outputsDoNotDependOnTheThreadCount() throws {
        let inputs = temporaryDirectory("threads-small")
        let generate = try runTonight(["generate", "--scale", "small", "--seed", "3", "--out", inputs.path])
        #expect(generate.status == 0, "\(generate.stderr)")
        var hashes: [String: [String: String]] = [:]
        var shapes: [String: [String: String]] = [:]
        for threads in ["1", "3", nil] as [String?] {
            let work = temporaryDirectory("threads-run")
            let run = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.appendingPathComponent("out").path]
                                     + (threads.map { ["--threads", $0] } ?? []))
            #expect(run.status == 0, "\(run.stderr)")
            let snapshot = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"), cacheBytes: 0)
            hashes[threads ?? "default"] = snapshot.manifest.datasets.mapValues(\.sha256)
            let store = RunStore(work: work)
            let details = try #require(store.runIDs().first.flatMap { store.record(run: $0, stage: "tickets") }).details
            shapes[threads ?? "default"] = details.filter { $0.key.hasPrefix("shape.") }
        }
        #expect(hashes["1"]?.count == 23)
        #expect(hashes["1"] == hashes["3"] && hashes["1"] == hashes["default"])
        // The shape the tickets stage reports (what tonight-bench prints) is the same too:
        // every user's candidates, and the same sample of users' events in reach.
        #expect(shapes["1"] == shapes["3"] && shapes["1"] == shapes["default"])
        let candidates = try #require(shapes["1"]?["shape.candidates"])
        #expect(candidates.hasPrefix("10000 users; min 0 median "), "\(candidates)")
        let reach = try #require(shapes["1"]?["shape.eventsInReach"])
        #expect(reach.range(of: #"^[1-9][0-9]? located users \(1 in 1000 sampled\); min [0-9]+ median [0-9]+ p90"#, options: .regularExpression) != nil, "\(reach)")
    }

    @Test func aThreadCountOutOfRangeIsAUsageError() throws {
        let run = try runTonight(["run", "--threads", "0", "--dry-run"])
        #expect(run.status == 64 || run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("--threads"))
    }
}
