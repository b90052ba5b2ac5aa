import Foundation
import Testing
import TonightCore
import TonightSnapshot
@testable import TonightPipeline

/// A new night's file is hashed while the stage that reads it runs (not before the plan),
/// and the records come out as a plan that hashed first would have made them: the same
/// hashes, the same fingerprints, so the next run reuses every output.
@Suite struct HashWhileRunningTests {
    /// The reader library's own SHA-256 (not swift-crypto's, which the runner uses).
    static func sha256(_ url: URL) throws -> String {
        var h = TonightSnapshot.SHA256()
        h.update(Array(try Data(contentsOf: url)))
        return h.finalizeHex()
    }

    /// Every file input of every record of a run, with its hash (and each record's
    /// fingerprint checked against its own inputs).
    static func recordedFiles(work: URL, run: String) throws -> [String: String] {
        let store = RunStore(work: work)
        var files: [String: String] = [:]
        for stage in StageGraph.standard.stages.map(\.name) {
            let record = try #require(store.record(run: run, stage: stage))
            #expect(record.fingerprint == StageRunner.fingerprint(of: record), "\(stage)")
            for input in record.inputs where input.kind == "file" {
                files[try #require(input.path)] = input.hash
            }
        }
        return files
    }

    /// A first run: the feed and the affinity file (no earlier output read files of their
    /// sizes) are hashed beside their stages, every stage downstream of them waits for their
    /// fingerprints; the records hold the files' SHA-256, the hash cache remembers them, and
    /// a second plan (a new runner, nothing hashed) reuses every stage.
    @Test func aNewFileIsHashedWhileItsStageRuns() throws {
        let work = temporaryDirectory()
        let r = runner(inputs: tinyInputs, work: work)
        let plan = try r.plan()
        let deferred = Dictionary(uniqueKeysWithValues: plan.map { ($0.stage, $0.deferred) })
        #expect(deferred["parse-feed"] == ["feed"] && deferred["parse-affinity"] == ["affinity"], "\(deferred)")
        #expect(plan.filter { !$0.deferred.isEmpty }.count == 2)
        #expect(plan.first { $0.stage == "tickets" }?.provisional == true)
        for entry in plan where !entry.deferred.isEmpty {
            #expect(entry.record.inputs.contains { $0.hash == StageRunner.pendingHash })
            #expect(!entry.watched.isEmpty, "\(entry.stage): the deferred file is watched")
        }
        // The plan read neither file (the exports were hashed).
        let feed = tinyInputs.appendingPathComponent("feed.xml"), affinity = tinyInputs.appendingPathComponent("affinity.txt")
        #expect(!r.hashes.canAnswer(feed) && !r.hashes.canAnswer(affinity))
        #expect(r.hashes.canAnswer(tinyInputs.appendingPathComponent("tickets/users.csv")))

        let run = try r.run(planned: plan)
        #expect(run.status == "completed")
        let files = try Self.recordedFiles(work: work, run: run.runId)
        for name in ["feed.xml", "affinity.txt"] {
            let url = tinyInputs.appendingPathComponent(name)
            #expect(files[url.path] == (try Self.sha256(url)), "\(name)")
        }
        #expect(!files.values.contains(StageRunner.pendingHash))
        // The published manifest names the files with their hashes, not the plan's `pending`.
        let snapshots = work.appendingPathComponent("out/snapshots")
        let current = try String(contentsOf: snapshots.appendingPathComponent("CURRENT"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: snapshots.appendingPathComponent("\(current)/manifest.json"))) as? [String: Any])
        let published = try #require(manifest["inputs"] as? [[String: Any]])
        for name in ["feed.xml", "affinity.txt"] {
            let url = tinyInputs.appendingPathComponent(name)
            let entry = published.first { ($0["path"] as? String) == url.path }
            #expect(entry?["sha256"] as? String == (try Self.sha256(url)), "\(name) in the manifest: \(String(describing: entry))")
        }

        // The saved cache answers for both files (a new process's: no entry of its own).
        let saved = FileHashCache(work: work)
        #expect(saved.canAnswer(feed) && saved.canAnswer(affinity), "the cache remembered the hashes taken while the stages ran")
        #expect(try saved.hash(feed).hash == (try Self.sha256(feed)) && saved.filesHashed == 0)
        let next = try runner(inputs: tinyInputs, work: work).plan()
        #expect(next.filter { $0.action == .run }.map(\.stage) == ["publish"], "\(next.map { "\($0.stage) \($0.reason)" })")
        #expect(next.allSatisfy { $0.deferred.isEmpty && !$0.provisional })
        let fingerprints = try plan.map { try #require(RunStore(work: work).record(run: run.runId, stage: $0.stage)).fingerprint }
        #expect(next.map(\.fingerprint) == fingerprints)
    }

    /// Without the cache, a file of a size an earlier output read is hashed before the plan
    /// (it may be that file again): the outputs are reused, nothing is deferred.
    @Test func aFileOfASizeAnEarlierOutputReadIsHashedFirst() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        try FileManager.default.removeItem(at: work.appendingPathComponent("hash-cache.json"))
        let r = runner(inputs: tinyInputs, work: work)
        let plan = try r.plan()
        #expect(plan.allSatisfy { $0.deferred.isEmpty && !$0.provisional })
        #expect(plan.filter { $0.action == .run }.map(\.stage) == ["publish"], "\(plan.map { "\($0.stage) \($0.reason)" })")
    }

    /// A forced stage with a stage downstream of it that the run needs but does not select
    /// (`--only parse-feed --only tickets --force`: parse-affinity, geocode and load-tickets
    /// are reused) hashes its file first: only a final fingerprint finds their outputs, as it
    /// did before files were hashed while their stages run.
    @Test func aForcedStageWithUnselectedStagesDownstreamHashesFirst() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        try FileManager.default.removeItem(at: work.appendingPathComponent("hash-cache.json"))
        let r = runner(inputs: tinyInputs, work: work) {
            $0.only = ["parse-feed", "tickets"]
            $0.force = true
        }
        let plan = try r.plan()
        #expect(plan.allSatisfy { $0.deferred.isEmpty && !$0.provisional }, "\(plan.map { "\($0.stage) \($0.deferred)" })")
        let reused = plan.filter { $0.action == .reuse }.map(\.stage)
        #expect(reused == ["parse-affinity", "geocode", "load-tickets"], "\(plan.map { "\($0.stage) \($0.reason)" })")
        #expect(try r.run(planned: plan).status == "completed")
    }

    /// A forced stage runs whatever its fingerprint: its file is hashed while it runs even at
    /// a size read before, and the record is the one the earlier run made (same hash, same
    /// fingerprint).
    @Test func aForcedStageHashesWhileItRuns() throws {
        let work = temporaryDirectory()
        let first = try runner(inputs: tinyInputs, work: work).run()
        try FileManager.default.removeItem(at: work.appendingPathComponent("hash-cache.json"))
        let r = runner(inputs: tinyInputs, work: work) {
            $0.only = ["parse-feed"]
            $0.force = true
        }
        let plan = try r.plan()
        #expect(plan.map(\.stage) == ["parse-feed"] && plan[0].deferred == ["feed"] && plan[0].reason == "forced (--force)")
        let run = try r.run(planned: plan)
        let store = RunStore(work: work)
        let forced = try #require(store.record(run: run.runId, stage: "parse-feed"))
        let earlier = try #require(store.record(run: first.runId, stage: "parse-feed"))
        #expect(forced.fingerprint == earlier.fingerprint && forced.inputs == earlier.inputs)
    }

    /// A new file that changes between the plan and its stage fails the stage as a hashed one
    /// does (exit 74, the file named; its identity was taken by the plan), and no hash of it is
    /// remembered. Removed, it is a changed input too ("gone"), not the usage error of a plan
    /// that finds no feed (the stage is described again when it starts).
    @Test(arguments: [InputWatchTests.Edit.inPlace, .removed])
    func aDeferredFileChangedBeforeItsStageFailsIt(_ edit: InputWatchTests.Edit) throws {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        let feed = inputs.appendingPathComponent("feed.xml")
        let r = runner(inputs: inputs, work: work)
        let plan = try r.plan()
        #expect(plan.first { $0.stage == "parse-feed" }?.deferred == ["feed"])
        try InputWatchTests.apply(edit, to: feed)
        let error = try #require(throws: TonightError.self) { try r.run(planned: plan) }
        #expect(error.exitCode == 74 && error.stage == "parse-feed" && error.file == feed.path, "\(error)")
        #expect(error.message.contains("changed after the plan identified it to hash it while the stage ran (")
                && error.message.contains("before the stage started"), "\(error.message)")
        if edit == .removed { #expect(error.message.contains("(gone)"), "\(error.message)") }
        // The saved cache holds the exports the plan hashed, not the feed.
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("hash-cache.json")))
        let paths = Set(try #require(saved as? [String: Any]).keys)
        #expect(paths.contains(inputs.appendingPathComponent("tickets/users.csv").standardizedFileURL.path), "\(paths)")
        #expect(!paths.contains(feed.standardizedFileURL.path))
    }

    /// The plan says why a stage runs when its file is new.
    @Test func theReasonNamesTheNewFile() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let inputs = copyOfTinyInputs()
        let affinity = inputs.appendingPathComponent("affinity.txt")
        try Data((try String(contentsOf: affinity, encoding: .utf8) + "\n").utf8).write(to: affinity)
        let plan = try runner(inputs: inputs, work: work).plan()
        let entry = try #require(plan.first { $0.stage == "parse-affinity" })
        #expect(entry.deferred == ["affinity"])
        #expect(entry.reason.contains("input affinity changed (") && entry.reason.contains("a size no earlier output read; hashed while the stage runs"), "\(entry.reason)")
        #expect(plan.first { $0.stage == "parse-feed" }?.action == .reuse, "the feed's size was read before: hashed, reused")
    }
}
