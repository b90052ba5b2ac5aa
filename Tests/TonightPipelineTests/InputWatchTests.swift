import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

/// An input that changes between the plan's hash and the stage that reads it fails the
/// stage: otherwise its outputs would be recorded under a hash that is not of the bytes read,
/// and a later run with a file of that hash would reuse them.
@Suite struct InputWatchTests {
    /// How a delivery can change under a run.
    enum Edit: String, CaseIterable, Sendable {
        /// One byte rewritten in place: same size, new mtime.
        case inPlace
        /// A new file renamed over the old one: another inode.
        case renamedOver
        /// Edited in place, then its size and mtime put back (`touch -r`): only ctime tells.
        case mtimeRestored
        /// Removed.
        case removed
    }

    static func apply(_ edit: Edit, to url: URL) throws {
        var bytes = Array(try Data(contentsOf: url))
        // A letter of a name (XML) or the last digit of a score or an id: a different but
        // well-formed file.
        let at = url.pathExtension == "xml"
            ? try #require(bytes.firstRange(of: Array("Lonely".utf8))).lowerBound + 2
            : try #require(bytes.lastIndex { $0 >= 0x31 && $0 <= 0x38 })
        bytes[at] += 1
        switch edit {
        case .inPlace:
            let h = try FileHandle(forWritingTo: url)
            try h.seek(toOffset: UInt64(at))
            try h.write(contentsOf: [bytes[at]])
            try h.close()
        case .renamedOver:
            let tmp = url.appendingPathExtension("new")
            try Data(bytes).write(to: tmp)
            #expect(rename(tmp.path, url.path) == 0)
        case .mtimeRestored:
            var st = stat()
            #expect(stat(url.path, &st) == 0)
            let h = try FileHandle(forWritingTo: url)
            try h.seek(toOffset: UInt64(at))
            try h.write(contentsOf: [bytes[at]])
            try h.close()
            var times = [timespec(tv_sec: st.st_atim.tv_sec, tv_nsec: st.st_atim.tv_nsec),
                         timespec(tv_sec: st.st_mtim.tv_sec, tv_nsec: st.st_mtim.tv_nsec)]
            #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
        case .removed:
            try FileManager.default.removeItem(at: url)
        }
    }

    /// The edit fails the stage that reads the file (exit 74, the file named), keeps its
    /// folder as `.failed`, records nothing as completed; a new run then hashes and reads the
    /// file as it is.
    /// A first run's feed and affinity file are new files, hashed while their stages run
    /// (the plan only identified them), the exports are hashed by the plan: the message says
    /// which.
    @Test(arguments: [
        (Edit.inPlace, "affinity.txt", "parse-affinity", "identified it to hash it while the stage ran"),
        (.renamedOver, "feed.xml", "parse-feed", "identified it to hash it while the stage ran"),
        (.mtimeRestored, "tickets/favorites.csv", "load-tickets", "hashed it"),
        (.removed, "playmate/quiz.csv", "load-playmate", "hashed it"),
    ])
    func aChangedInputFailsTheStageThatReadsIt(_ edit: Edit, _ file: String, _ stage: String, _ planDid: String) throws {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        let url = inputs.appendingPathComponent(file)
        let r = runner(inputs: inputs, work: work)
        let plan = try r.plan()
        #expect(plan.first { $0.stage == stage }?.watched.isEmpty == false)
        try Self.apply(edit, to: url)
        let error = try #require(throws: TonightError.self) { try r.run(planned: plan) }
        #expect(error.kind == .io && error.exitCode == 74, "\(error)")
        // A removed export is named with its directory (the file set changed).
        let named = edit == .removed ? url.deletingLastPathComponent().path : url.path
        #expect(error.stage == stage && error.file == named, "\(error)")
        #expect(error.message.contains("changed after the plan \(planDid) (") && error.message.contains("before the stage started"),
                "\(error.message)")
        if edit == .removed { #expect(error.message.contains("quiz.csv removed"), "\(error.message)") }
        let runID = try #require(RunStore(work: work).runIDs().last)
        let runDir = RunStore(work: work).runDirectory(runID)
        #expect(FileIO.exists(runDir.appendingPathComponent("\(stage).failed")))
        #expect(!FileIO.exists(runDir.appendingPathComponent(stage)))

        guard edit != .removed else { return }
        let again = try runner(inputs: inputs, work: work).run()
        #expect(again.status == "completed")
        let record = try #require(RunStore(work: work).record(run: again.runId, stage: stage))
        let hashes = record.inputs.flatMap { [$0] + ($0.files ?? []) }.filter { $0.path == url.path }.map(\.hash)
        #expect(hashes == [try ContentHash.file(url)])
    }

    /// A plan whose inputs did not change runs as planned (the check has no false alarm, even
    /// for files the hash cache answered without reading them).
    @Test func anUnchangedPlanRuns() throws {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        try runner(inputs: inputs, work: work).run()
        let r = runner(inputs: inputs, work: work) { $0.force = true }
        let plan = try r.plan()
        #expect(plan.contains { !$0.watched.isEmpty })
        #expect(try r.run(planned: plan).status == "completed")
    }

    /// An export that appears after the plan (the optional `dismissed.csv`) would be read
    /// without being in the fingerprint: load-tickets fails, naming the directory.
    @Test func anExportAddedAfterThePlanFailsTheStage() throws {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        let dismissed = inputs.appendingPathComponent("tickets/dismissed.csv")
        try FileManager.default.removeItem(at: dismissed)
        let r = runner(inputs: inputs, work: work)
        let plan = try r.plan()
        try FileManager.default.copyItem(at: tinyInputs.appendingPathComponent("tickets/dismissed.csv"), to: dismissed)
        let error = try #require(throws: TonightError.self) { try r.run(planned: plan) }
        #expect(error.stage == "load-tickets" && error.file == inputs.appendingPathComponent("tickets").path, "\(error)")
        #expect(error.message.contains("dismissed.csv added"), "\(error.message)")
    }

    /// A file edited while its stage reads it: the stage read other bytes than the plan
    /// hashed, and the check when it ends fails it (the edit is made once parse-affinity has
    /// started, before it opens the file).
    @Test func anInputEditedWhileItsStageRunsFailsTheStage() throws {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        let affinity = inputs.appendingPathComponent("affinity.txt")
        var options = RunOptions(inputs: inputs, work: work, out: work.appendingPathComponent("out"), asOf: asOf)
        options.only = ["parse-feed", "parse-affinity"]
        let progress = ProgressReporter(enabled: false) { stage in
            if stage == "parse-affinity" { try? InputWatchTests.apply(.inPlace, to: affinity) }
        }
        let r = StageRunner(config: TonightConfig(), options: options, logger: .init(label: "test"), progress: progress)
        let error = try #require(throws: TonightError.self) { try r.run() }
        #expect(error.stage == "parse-affinity" && error.file == affinity.path, "\(error)")
        #expect(error.message.contains("while the stage ran"), "\(error.message)")
    }
}
