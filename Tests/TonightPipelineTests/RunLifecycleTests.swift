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

    /// With `--log-format json` every line the run writes is a JSON object, the failure and
    /// the completion among them: a log pipeline parses them and an alert keyed on
    /// `level: error` fires. Until 2026-11-28 the final "tonight: error: …" line (the one that
    /// says what failed, where and what to do) and the "run … completed" line were plain text
    /// in a stream of JSON (cron and systemd merge stdout and stderr).
    @Test func jsonLogsAreJSONToTheLastLine() throws {
        let inputs = copyOfTinyInputs()
        let users = inputs.appendingPathComponent("tickets/users.csv")
        let work = temporaryDirectory()
        func lines(_ r: (status: Int32, stdout: String, stderr: String)) throws -> [[String: Any]] {
            try (r.stdout + r.stderr).split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            }
        }
        let ok = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out", "--log-format", "json"])
        #expect(ok.status == 0, "\(ok.stderr)")
        _ = try lines(ok)
        let done = try #require(try lines((ok.status, ok.stdout, "")).last)
        #expect((done["msg"] as? String)?.contains("completed") == true, "\(done)")
        #expect(done["level"] as? String == "info" && done["run"] as? String != nil && (done["stages"] as? String)?.contains("publish") == true)

        try (String(contentsOf: users, encoding: .utf8) + "bad,,,,-1,\n").write(to: users, atomically: true, encoding: .utf8)
        for format in [["--log-format", "json"], ["--log-format=json"]] {
            let failed = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"] + format)
            #expect(failed.status == 65)
            let error = try #require(try lines(failed).last)
            #expect(error["level"] as? String == "error", "\(error)")
            #expect((error["msg"] as? String)?.contains("rows rejected") == true, "\(error)")
            #expect(error["file"] as? String == users.path && error["line"] as? Int != nil && error["stage"] as? String == "load-tickets", "\(error)")
            #expect(error["exitCode"] as? Int == 65 && (error["hint"] as? String)?.contains("rejects") == true, "\(error)")
        }
        // A usage error too, and the human format stays as it was.
        let usage = try runTonight(["run", "--no-such-flag", "--log-format", "json"])
        let usageLevel = try lines(usage).last?["level"] as? String
        #expect(usage.status == 2 && usageLevel == "error", "\(usage.stderr)")
        let human = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"])
        #expect(human.status == 65 && human.stderr.contains("tonight: error: \(users.path):"), "\(human.stderr)")
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
