import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// `tonight snapshot rollback` withdraws the snapshot it leaves (`RollbackLog`): it is no
/// later night's alerts baseline, a re-run of its night does not publish it again, and a
/// rollback without a target never lands on it; rolled forward, it is served again.
@Suite struct RollbackTests {
    /// Two nights of `tiny` published into a fresh work directory: the snapshot root, the
    /// first night's snapshot and the second's (current).
    static func twoNights() throws -> (work: URL, root: URL, first: String, second: String) {
        let work = temporaryDirectory()
        let root = PublishTests.snapshots(work)
        try runner(inputs: tinyInputs, work: work).run()
        let first = try SnapshotDirectory(root: root).currentID()
        try runner(inputs: tinyInputs, work: work) { $0.asOf += 86_400; $0.date += 1 }.run()
        let second = try SnapshotDirectory(root: root).currentID()
        #expect(second != first)
        return (work, root, first, second)
    }

    /// A snapshot rolled back from is not the next night's alerts baseline: its users were
    /// switched back to the older one, and alerts against the withdrawn data would announce
    /// its repair as changes. Rolled forward again, it is the baseline again.
    @Test func aRolledBackSnapshotIsNotTheAlertsBaseline() throws {
        let (work, root, older, withdrawn) = try Self.twoNights()
        func baseline() throws -> String? {
            let plan = try runner(inputs: tinyInputs, work: work) { $0.asOf += 2 * 86_400; $0.date += 2 }.plan()
            let alerts = try #require(plan.first { $0.stage == "alerts" })
            return alerts.record.inputs.first { $0.kind == "snapshot" }?.hash
        }
        #expect(try baseline()?.hasPrefix(withdrawn) == true)
        #expect(try SnapshotPublisher(root: root).rollback() == older)
        #expect(try baseline()?.hasPrefix(older) == true, "the night after a rollback compares with what is served")
        let list = try runTonight(["snapshot", "list", "--out", work.appendingPathComponent("out").path])
        #expect(list.stdout.contains("\(withdrawn)  asOf") && list.stdout.contains("bytes  (rolled back)\n"), "\(list.stdout)")
        #expect(list.stdout.components(separatedBy: "(rolled back)").count == 2, "only the withdrawn one: \(list.stdout)")
        // Night 3 published while the older one is current: a re-run of night 3 still takes
        // the older one (the withdrawn snapshot is no longer after CURRENT, the log says why),
        // so it reuses every stage, the alerts included.
        try runner(inputs: tinyInputs, work: work) { $0.asOf += 2 * 86_400; $0.date += 2 }.run()
        #expect(try baseline()?.hasPrefix(older) == true)
        let rerun = try runner(inputs: tinyInputs, work: work) { $0.asOf += 2 * 86_400; $0.date += 2 }.plan()
        #expect(rerun.first { $0.stage == "alerts" }?.action == .reuse, "\(rerun.map { "\($0.stage) \($0.action) \($0.reason)" })")
        // Rolled forward, the withdrawn one is served, so it is the baseline again.
        #expect(try SnapshotPublisher(root: root).rollback(to: withdrawn) == withdrawn)
        #expect(try baseline()?.hasPrefix(withdrawn) == true)
    }

    /// The log's rule: a rollback to an older snapshot withdraws the one it leaves, a rollback
    /// (forward) to a snapshot reinstates it, CURRENT is never withdrawn, a torn line is skipped.
    @Test func theRollbackLogSaysWhichSnapshotsAreWithdrawn() throws {
        let root = temporaryDirectory("rollback-log")
        let log = RollbackLog(root: root)
        #expect(log.withdrawn(current: nil).isEmpty)
        try log.append(.init(at: "t1", from: "20260116T060000Z-bbbbbbbb", fromContent: "B", to: "20260115T060000Z-aaaaaaaa"))
        #expect(log.withdrawn(current: "20260115T060000Z-aaaaaaaa") == ["20260116T060000Z-bbbbbbbb": "B"])
        try log.append(.init(at: "t2", from: "20260115T060000Z-aaaaaaaa", fromContent: "A", to: "20260116T060000Z-bbbbbbbb"))
        #expect(log.withdrawn(current: "20260116T060000Z-bbbbbbbb").isEmpty, "forward: B served again, A only older")
        try log.append(.init(at: "t3", from: "20260116T060000Z-bbbbbbbb", fromContent: "B", to: "20260114T060000Z-cccccccc"))
        #expect(log.withdrawn(current: "20260114T060000Z-cccccccc") == ["20260116T060000Z-bbbbbbbb": "B"])
        #expect(log.withdrawn(current: "20260116T060000Z-bbbbbbbb").isEmpty, "CURRENT is never withdrawn")
        let handle = try FileHandle(forWritingTo: log.url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"at":"t4","from":"20260117"#.utf8))
        try handle.close()
        #expect(log.entries().count == 3)
        try log.append(.init(at: "t5", from: "20260114T060000Z-cccccccc", fromContent: "C", to: "20260113T060000Z-dddddddd"))
        #expect(log.entries().map(\.at) == ["t1", "t2", "t3", "t5"])
        #expect(log.withdrawn(current: "20260113T060000Z-dddddddd").keys.sorted() == ["20260114T060000Z-cccccccc", "20260116T060000Z-bbbbbbbb"])
        // A rollback whose switch failed takes its entry back (only its own, only the last).
        let t5 = try #require(log.entries().last)
        try log.removeLast(RollbackLog.Entry(at: "t3", from: "20260116T060000Z-bbbbbbbb", fromContent: "B", to: "20260114T060000Z-cccccccc"))
        #expect(log.entries().count == 4)
        try log.removeLast(t5)
        #expect(log.entries().map(\.at) == ["t1", "t2", "t3"])
        #expect(log.withdrawn(current: "20260114T060000Z-cccccccc") == ["20260116T060000Z-bbbbbbbb": "B"])
    }

    /// A re-run of a night whose snapshot was rolled back from (a retry, a second timer) does
    /// not publish that content again: the rollback stands until someone rolls forward.
    @Test func aWithdrawnSnapshotIsNotPublishedAgain() throws {
        let (work, root, older, withdrawn) = try Self.twoNights()
        let night2: (inout RunOptions) -> Void = { $0.asOf += 86_400; $0.date += 1 }
        #expect(try SnapshotPublisher(root: root).rollback() == older)
        let refused = try #require(throws: TonightError.self) { try runner(inputs: tinyInputs, work: work, configure: night2).run() }
        #expect(refused.kind == .invalidInput && refused.stage == "publish", "\(refused)")
        #expect(refused.message.contains("those of snapshot \(withdrawn), which was rolled back from"), "\(refused)")
        #expect(refused.hint?.contains("tonight snapshot rollback \(withdrawn)") == true)
        #expect(try SnapshotDirectory(root: root).currentID() == older)
        #expect(SnapshotDirectory(root: root).snapshotIDs().count == 2, "nothing new was written")
        // Rolled forward, the same re-run finds its datasets current.
        #expect(try SnapshotPublisher(root: root).rollback(to: withdrawn) == withdrawn)
        #expect(try runner(inputs: tinyInputs, work: work, configure: night2).run().status == "completed")
        #expect(try SnapshotDirectory(root: root).currentID() == withdrawn)
    }

    /// A rollback without a target never lands on a withdrawn snapshot, even when CURRENT's
    /// `previous` is gone and the newest older one is the withdrawn one.
    @Test func aRollbackSkipsWithdrawnSnapshots() throws {
        let (work, root, first, withdrawn) = try Self.twoNights()
        #expect(try SnapshotPublisher(root: root).rollback() == first)
        try runner(inputs: tinyInputs, work: work) { $0.asOf += 2 * 86_400; $0.date += 2 }.run()
        let third = try SnapshotDirectory(root: root).currentID()
        #expect(try SnapshotDirectory(root: root).manifest(third).previous == first)
        // Someone removed the first snapshot by hand: the fallback is the newest older one
        // that was not withdrawn, and here there is none.
        try FileManager.default.removeItem(at: root.appendingPathComponent(first))
        let refused = try #require(throws: TonightError.self) { _ = try SnapshotPublisher(root: root).rollback() }
        #expect(refused.message.contains("no snapshot older than \(third)"), "\(refused)")
        #expect(try SnapshotDirectory(root: root).currentID() == third)
        // Named, it is served again.
        #expect(try SnapshotPublisher(root: root).rollback(to: withdrawn) == withdrawn)
    }

    /// CURRENT written by hand (`echo ID > CURRENT`, a restore) is the rollback it is
    /// (`SwitchRecord`): the snapshot left is withdrawn at once for every reader, and the next
    /// publish writes the entry (`"byHand":true`). Before 2026-11-28 a re-run of the left
    /// snapshot's night published it again, it stayed the alerts baseline, and the list called
    /// it "never current".
    @Test func aCurrentChangedByHandIsARollback() throws {
        let (work, root, older, left) = try Self.twoNights()
        #expect(SwitchRecord(root: root).recorded() == left)
        try Data((older + "\n").utf8).write(to: root.appendingPathComponent("CURRENT"))
        #expect(RollbackLog(root: root).withdrawn(current: older) == [left: try SnapshotDirectory(root: root).manifest(left).contentHash])
        let list = try runTonight(["snapshot", "list", "--out", work.appendingPathComponent("out").path])
        #expect(list.stdout.components(separatedBy: "(rolled back)").count == 2 && !list.stdout.contains("never current"), "\(list.stdout)")
        let plan = try runner(inputs: tinyInputs, work: work) { $0.asOf += 2 * 86_400; $0.date += 2 }.plan()
        #expect(plan.first { $0.stage == "alerts" }?.record.inputs.first { $0.kind == "snapshot" }?.hash.hasPrefix(older) == true)
        // A re-run of the left snapshot's night writes the entry, then refuses its datasets.
        let refused = try #require(throws: TonightError.self) {
            try runner(inputs: tinyInputs, work: work) { $0.asOf += 86_400; $0.date += 1 }.run()
        }
        #expect(refused.message.contains("those of snapshot \(left), which was rolled back from"), "\(refused)")
        let entries = RollbackLog(root: root).entries()
        #expect(entries.count == 1 && entries[0].from == left && entries[0].to == older && entries[0].byHand == true, "\(entries)")
        #expect(SwitchRecord(root: root).recorded() == older && SwitchRecord(root: root).pending(current: older, log: RollbackLog(root: root)) == nil)
        #expect(try SnapshotDirectory(root: root).currentID() == older)
    }

    /// A crash between CURRENT's rename and the record leaves it one switch behind: that
    /// switch (a publish's, a rollback's) is recognised, not taken for a hand edit; a root
    /// without a record (an earlier version's) has no hand edits.
    @Test func aRecordOneSwitchBehindIsNoHandEdit() throws {
        let (_, root, first, second) = try Self.twoNights()
        let record = SwitchRecord(root: root), log = RollbackLog(root: root)
        try record.record(first)  // the publish of `second` died before its record
        #expect(record.pending(current: second, log: log) == nil && log.withdrawn(current: second).isEmpty)
        #expect(try SnapshotPublisher(root: root).rollback() == first)
        try record.record(second)  // the rollback died before its record
        #expect(record.pending(current: first, log: log) == nil && log.withdrawn(current: first).keys.sorted() == [second])
        try FileManager.default.removeItem(at: record.url)
        try Data((second + "\n").utf8).write(to: root.appendingPathComponent("CURRENT"))
        #expect(record.pending(current: second, log: log) == nil)
        // A switch the log's last entry already holds is not written twice.
        try record.record(second)
        try Data((first + "\n").utf8).write(to: root.appendingPathComponent("CURRENT"))
        #expect(record.pending(current: first, log: log) == nil && log.entries().count == 1)
    }
}
