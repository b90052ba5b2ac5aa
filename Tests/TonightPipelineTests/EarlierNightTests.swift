import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// A run as of an earlier instant than CURRENT's does not publish over it: re-running last
/// night against the production `--out` (or a retry whose clock is behind) took every service
/// back a night without a word, an unrecorded rollback. It is refused before any stage runs;
/// `--allow-earlier` publishes it anyway, and `tonight snapshot rollback` is the way back.
@Suite struct EarlierNightTests {
    /// The runs recorded in a work directory.
    static func runs(_ work: URL) -> [String] {
        FileIO.list(work.appendingPathComponent("runs")).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func anEarlierNightIsNotPublishedOverALaterOne() throws {
        let (work, root, first, second) = try RollbackTests.twoNights()
        let before = Self.runs(work)
        // Night 1 again, after night 2 published: the same inputs and instant as `first`.
        do {
            try runner(inputs: tinyInputs, work: work).run()
            Issue.record("an earlier night was published over CURRENT")
        } catch let error as TonightError {
            #expect(error.kind == .invalidInput)
            #expect(error.message.contains("as of 2026-01-15T06:00:00Z, earlier than CURRENT \(second) (as of 2026-01-16T06:00:00Z)"), "\(error.message)")
            #expect(error.hint?.contains("tonight snapshot rollback ID") == true && error.hint?.contains("--allow-earlier") == true)
        }
        #expect(try SnapshotDirectory(root: root).currentID() == second)
        #expect(SnapshotDirectory(root: root).snapshotIDs() == [first, second])
        #expect(Self.runs(work) == before, "refused before any stage ran: no run was recorded")

        // One second earlier than CURRENT is earlier too; a stage-only run publishes nothing.
        #expect(throws: TonightError.self) {
            try runner(inputs: tinyInputs, work: work) { $0.asOf += 86_400 - 1; $0.date += 1 }.run()
        }
        try runner(inputs: tinyInputs, work: work) { $0.only = ["tickets"] }.run()
        #expect(try SnapshotDirectory(root: root).currentID() == second)

        // CURRENT's own night again: nothing new (idempotent publish), no refusal.
        try runner(inputs: tinyInputs, work: work) { $0.asOf += 86_400; $0.date += 1 }.run()
        #expect(try SnapshotDirectory(root: root).currentID() == second)

        // Asked for: published, and the later night is withdrawn as by a rollback: no later
        // night's alerts baseline, and a re-run of its night does not publish it again.
        try runner(inputs: tinyInputs, work: work) { $0.allowEarlier = true }.run()
        let earlier = try SnapshotDirectory(root: root).currentID()
        #expect(earlier != second && earlier.hasSuffix(String(first.suffix(8))))
        #expect(try SnapshotDirectory(root: root).manifest(earlier).asOf == "2026-01-15T06:00:00Z")
        #expect(RollbackLog(root: root).withdrawn(current: earlier) == [second: try SnapshotDirectory(root: root).manifest(second).contentHash])
        let night3 = try runner(inputs: tinyInputs, work: work) { $0.asOf += 2 * 86_400; $0.date += 2 }.plan()
        let baseline = night3.first { $0.stage == "alerts" }?.record.inputs.first { $0.kind == "snapshot" }?.hash
        #expect(baseline?.hasPrefix(earlier) == true, "\(String(describing: baseline))")
        let again = #expect(throws: TonightError.self) {
            try runner(inputs: tinyInputs, work: work) { $0.asOf += 86_400; $0.date += 1 }.run()
        }
        #expect(again?.message.contains("these datasets are those of snapshot \(second)") == true, "\(String(describing: again))")
        #expect(try SnapshotDirectory(root: root).currentID() == earlier)
    }

    /// The publisher refuses by itself too (a merge, or a night that became earlier while
    /// this run's stages ran): the rule compares instants, not texts or dates.
    @Test func theRuleComparesInstants() throws {
        func manifest(_ asOf: String) -> SnapshotManifest {
            SnapshotManifest(id: "x", asOf: asOf, date: "2026-01-15", createdAt: "", codeVersion: "", configHash: "",
                             contentHash: "", inputs: [], datasets: [:], stages: [], previous: nil, runId: "r", tzdataVersion: nil)
        }
        let current = manifest("2026-01-15T06:00:00Z")
        #expect(SnapshotPublisher.earlierRefusal(asOf: "2026-01-15T05:59:59Z", current: "c", manifest: current) != nil)
        #expect(SnapshotPublisher.earlierRefusal(asOf: "2025-12-31T23:00:00Z", current: "c", manifest: current) != nil)
        #expect(SnapshotPublisher.earlierRefusal(asOf: "2026-01-15T06:00:00Z", current: "c", manifest: current) == nil)
        #expect(SnapshotPublisher.earlierRefusal(asOf: "2026-01-15T06:00:01Z", current: "c", manifest: current) == nil)
        #expect(SnapshotPublisher.earlierRefusal(asOf: "2027-01-01T00:00:00Z", current: "c", manifest: current) == nil)
    }

    /// The publisher refuses by itself, whatever called it (a night that became earlier while
    /// this run's stages ran: another work directory publishing into the same `--out`).
    @Test func thePublisherRefusesAnEarlierNight() throws {
        let work = temporaryDirectory()
        func sources(_ name: String) throws -> [SnapshotPublisher.Source] {
            let dir = work.appendingPathComponent(name)
            try FileIO.createDirectory(dir)
            var files = DatasetFiles(directory: dir, config: TonightConfig())
            try files.write("categories") { try $0.append(key: "5", json: Array(#"{"key":"5","name":"\#(name)"}"#.utf8)) }
            try files.finish()
            return try DatasetFiles.read(dir).map { e in
                var s = SnapshotPublisher.Source(entry: e, directory: dir, sha256: try ContentHash.file(dir.appendingPathComponent(e.file)),
                                                 indexSha256: try ContentHash.file(dir.appendingPathComponent(e.index)))
                for f in [e.dictionary, e.keyTable].compactMap({ $0 }) { s.otherSha256[f] = try ContentHash.file(dir.appendingPathComponent(f)) }
                return s
            }
        }
        func template(_ asOf: String) -> SnapshotManifest {
            SnapshotManifest(id: "", asOf: asOf, date: String(asOf.prefix(10)), createdAt: "", codeVersion: "test", configHash: "",
                             contentHash: "", inputs: [], datasets: [:], stages: [], previous: nil, runId: "r")
        }
        let root = work.appendingPathComponent("out/snapshots")
        let later = try SnapshotPublisher(root: root).publish(try sources("later"), template: template("2026-01-16T06:00:00Z"), now: 1_768_543_200)
        let e = #expect(throws: TonightError.self) {
            try SnapshotPublisher(root: root).publish(try sources("earlier"), template: template("2026-01-15T06:00:00Z"), now: 1_768_543_300)
        }
        #expect(e?.exitCode == 65 && e?.message.contains("earlier than CURRENT \(later.manifest.id)") == true, "\(String(describing: e))")
        #expect(SnapshotDirectory(root: root).snapshotIDs() == [later.manifest.id])
        var publisher = SnapshotPublisher(root: root)
        publisher.allowEarlier = true
        let earlier = try publisher.publish(try sources("earlier"), template: template("2026-01-15T06:00:00Z"), now: 1_768_543_400)
        #expect(try SnapshotDirectory(root: root).currentID() == earlier.manifest.id)
    }

    /// The command line: exit 65 with the way out, and a dry run says so before anything runs.
    @Test func theCommandLineSaysWhatToDo() throws {
        let (work, root, _, second) = try RollbackTests.twoNights()
        let common = ["--inputs", tinyInputs.path, "--work", work.path, "--out", work.appendingPathComponent("out").path,
                      "--as-of", "2026-01-15T06:00:00Z"]
        let dry = try runTonight(["run", "--dry-run"] + common)
        #expect(dry.status == 0)
        #expect(dry.stdout.contains("a run would stop before its first stage: publish refused: this run is as of 2026-01-15T06:00:00Z"), "\(dry.stdout)")
        let refused = try runTonight(["run"] + common)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("earlier than CURRENT \(second)") && refused.stderr.contains("--allow-earlier"), "\(refused.stderr)")
        #expect(try SnapshotDirectory(root: root).currentID() == second)
        let allowed = try runTonight(["run", "--allow-earlier"] + common)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try SnapshotDirectory(root: root).manifest(SnapshotDirectory(root: root).currentID()).asOf == "2026-01-15T06:00:00Z")
    }
}
