import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightGenerator
import TonightSnapshot

/// How runs end when they do not complete: a failed stage keeps its evidence, a signal stops
/// the run cleanly, a killed run is recognised by the next one.
@Suite(.serialized) struct RunLifecycleTests {
    static let small: URL = {
        let dir = temporaryDirectory("tonight-small-lifecycle")
        _ = try! DatasetGenerator(scale: .small, seed: 9).generate(into: dir)
        return dir
    }()

    /// A stage that fails on its reject share keeps its folder, with the rejects the message
    /// points at; later stages are marked as not run, and the report says so.
    @Test func aFailedStageKeepsItsEvidence() throws {
        let inputs = copyOfTinyInputs()
        let users = inputs.appendingPathComponent("tickets/users.csv")
        try (String(contentsOf: users, encoding: .utf8) + "bad,,,,-1,\n").write(to: users, atomically: true, encoding: .utf8)
        let work = temporaryDirectory()
        let r = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"])
        #expect(r.status == 65)
        let runID = try #require(RunStore(work: work).runIDs().first)
        let kept = RunStore(work: work).runDirectory(runID).appendingPathComponent("load-tickets.failed")
        let rejects = kept.appendingPathComponent("rejects.ndjson")
        #expect(r.stderr.contains("rejects kept in \(rejects.path)"), "\(r.stderr)")
        #expect(try String(contentsOf: rejects, encoding: .utf8).contains("\"reason\":\"bad-number\""))
        let record = try StageRecord.read(kept.appendingPathComponent("stage.json"))
        #expect(record.status == "failed" && record.error?.contains("rows rejected") == true)
        let run = try RunRecord.read(RunStore(work: work).runDirectory(runID).appendingPathComponent("run.json"))
        #expect(run.status == "failed" && run.failedStage == "load-tickets")
        #expect(run.stages.first { $0.stage == "load-tickets" }?.action == "failed")
        #expect(run.stages.first { $0.stage == "publish" }?.action == "not run")
        let report = try String(contentsOf: RunStore(work: work).runDirectory(runID).appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("failed") && report.contains("load-tickets") && report.contains("not run"))
        // The failed folder is never mistaken for an output to reuse.
        #expect(RunStore(work: work).record(run: runID, stage: "load-tickets") == nil)
    }

    /// SIGTERM and SIGINT: exit 143 or 130, run marked interrupted, no partial output left,
    /// nothing published; the next run completes.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aSignalStopsTheRunCleanly(_ signal: Int32, _ code: Int32) throws {
        let work = temporaryDirectory()
        let p = Process()
        p.executableURL = try tonightExecutable()
        p.arguments = ["run", "--inputs", Self.small.path, "--work", work.path, "--out", work.path + "/out"]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // Once the first stage is done, the rest takes seconds: the signal lands mid-run.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, (RunStore(work: work).runIDs().first.map {
            !FileManager.default.fileExists(atPath: RunStore(work: work).runDirectory($0).appendingPathComponent("parse-feed").path)
        } ?? true) {
            usleep(20_000)
        }
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        #expect(p.terminationStatus == code)
        let runID = try #require(RunStore(work: work).runIDs().first)
        let dir = RunStore(work: work).runDirectory(runID)
        let run = try RunRecord.read(dir.appendingPathComponent("run.json"))
        #expect(run.status == "interrupted" && run.exitCode == code, "\(run.status)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/out/snapshots/CURRENT"))
        let next = try runTonight(["run", "--inputs", Self.small.path, "--work", work.path, "--out", work.path + "/out"])
        #expect(next.status == 0, "\(next.stderr)")
    }

    /// A run killed with SIGKILL stays `running` in its run.json; the next run marks it
    /// `killed` and removes its partial stage folder.
    @Test func theNextRunMarksAKilledRun() throws {
        let work = temporaryDirectory()
        let p = Process()
        p.executableURL = try tonightExecutable()
        p.arguments = ["run", "--inputs", Self.small.path, "--work", work.path, "--out", work.path + "/out"]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        var tmp: String?
        while Date() < deadline, tmp == nil {
            if let id = RunStore(work: work).runIDs().first {
                tmp = (try? FileManager.default.contentsOfDirectory(atPath: RunStore(work: work).runDirectory(id).path))?.first { $0.hasSuffix(".tmp") }
            }
            usleep(5_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let killedID = try #require(RunStore(work: work).runIDs().first)
        #expect(try RunRecord.read(RunStore(work: work).runDirectory(killedID).appendingPathComponent("run.json")).status == "running")
        let next = try runTonight(["run", "--inputs", Self.small.path, "--work", work.path, "--out", work.path + "/out"])
        #expect(next.status == 0, "\(next.stderr)")
        let killed = try RunRecord.read(RunStore(work: work).runDirectory(killedID).appendingPathComponent("run.json"))
        #expect(killed.status == "killed")
        let names = try FileManager.default.contentsOfDirectory(atPath: RunStore(work: work).runDirectory(killedID).path)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
    }
}
