import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightGenerator
import TonightSnapshot

/// SIGKILL at moments spread over every stage of a run on `small` (not only at the publish
/// protocol's crash points): after each kill, CURRENT names a snapshot that verifies, the next
/// run marks the killed one and cleans up, and a final run completes with nothing left over.
@Suite(.serialized) struct FaultInjectionTests {
    static let small: URL = {
        let dir = temporaryDirectory("tonight-small-faults")
        _ = try! DatasetGenerator(scale: .small, seed: 13).generate(into: dir)
        return dir
    }()

    static func start(_ work: URL) throws -> Process {
        let p = Process()
        p.executableURL = try tonightExecutable()
        p.arguments = ["run", "--force", "--inputs", small.path, "--work", work.path, "--out", work.path + "/out"]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return p
    }

    static func checkCurrent(_ work: URL) throws {
        let root = work.appendingPathComponent("out/snapshots")
        guard let id = try SnapshotDirectory(root: root).currentIDIfAny() else { return }
        let report = try Snapshot.open(id: id, in: root, cacheBytes: 0).verify(references: true)
        #expect(report.isValid, "CURRENT \(id) fails verification: \(report.problems.first?.description ?? "")")
    }

    @Test func killsAtMomentsOfEveryStage() throws {
        let work = temporaryDirectory()
        // Two whole runs first: the first publishes, the second (forced, as every later one)
        // tells how long a run takes here.
        let first = try Self.start(work)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        let began = Date()
        let second = try Self.start(work)
        second.waitUntilExit()
        var duration = Date().timeIntervalSince(began) * 0.9
        var killed: [String] = []
        var retries = 0
        var k = 0
        while k < 10 {
            let started = Date()
            let p = try Self.start(work)
            usleep(UInt32(duration * (Double(k) + 0.5) / 10 * 1e6))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            // This host's speed drifts (a busy neighbour made the calibrating run slow): a run
            // that finished before its kill shortens the estimate, and the moment is tried again.
            if p.terminationReason == .exit && retries < 5 {
                duration = min(duration, Date().timeIntervalSince(started) * 0.9)
                retries += 1
                try Self.checkCurrent(work)
                continue
            }
            k += 1
            // A kill that lands after run.json says `completed` (the last thing a run writes)
            // killed nothing the next run needs to mark.
            if p.terminationReason == .uncaughtSignal, let id = RunStore(work: work).runIDs().first,
               let run = try? RunRecord.read(RunStore(work: work).runDirectory(id).appendingPathComponent("run.json")),
               run.status == "running" {
                killed.append(id)
            }
            try Self.checkCurrent(work)
        }
        #expect(killed.count >= 6, "most kills should land before the run ends (\(killed.count))")
        let last = try Self.start(work)
        last.waitUntilExit()
        #expect(last.terminationStatus == 0)
        try Self.checkCurrent(work)
        let store = RunStore(work: work)
        for id in killed {
            let run = try RunRecord.read(store.runDirectory(id).appendingPathComponent("run.json"))
            #expect(run.status == "killed", "\(id): \(run.status)")
        }
        for id in store.runIDs() {
            let names = try FileManager.default.contentsOfDirectory(atPath: store.runDirectory(id).path)
            #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(id) has leftovers: \(names)")
        }
        let root = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("out/snapshots").path)
        #expect(!root.contains { $0.hasPrefix(".tmp") || $0 == "CURRENT.tmp" }, "\(root)")
    }
}
