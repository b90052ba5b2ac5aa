import Foundation
import TonightBase
import TonightCore
import TonightSnapshot

/// `OUT/snapshots/.switched`: the id that the last switch by `tonight` (a publish or a
/// rollback) put in CURRENT, so that a CURRENT changed by hand is told from one the tool
/// changed.
///
/// An operator who rolls back by writing an older id into CURRENT (`echo ID > CURRENT`, a
/// restore from a backup) instead of `tonight snapshot rollback` left no entry in
/// `rollbacks.ndjson`: the snapshot left behind was not withdrawn, so a re-run of its night
/// published its datasets again (undoing the rollback without a word), it stayed an alerts
/// baseline, and `tonight snapshot list` called it "never current". Now such a change is
/// taken for the rollback it is: every reader of the log sees it at once (`pending`), and the
/// next publish or rollback, under the publisher's lock, writes it into the log with
/// `"byHand":true` (`note`).
///
/// Written after CURRENT's rename (temporary file, fsync, rename), so a crash between the two
/// leaves the record one switch behind; that switch is recognised, not taken for a hand edit:
/// a publish's snapshot names the recorded id as its `previous` and is the newer, a
/// rollback's is the log's last entry. A snapshot root without the file (before 2026-11-28)
/// has no hand edits until its next switch.
package struct SwitchRecord {
    static let fileName = ".switched"
    let root: URL

    /// The record of the snapshot root `root` (`OUT/snapshots`).
    package init(root: URL) {
        self.root = root
    }

    var url: URL { root.appendingPathComponent(Self.fileName) }

    /// The id recorded, or nil (no switch recorded yet, or an unreadable record).
    func recorded() -> String? {
        guard let data = try? FileIO.read(url) else { return nil }
        let id = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }

    /// Records `id` as the one a switch put in CURRENT.
    func record(_ id: String) throws {
        let tmp = root.appendingPathComponent(Self.fileName + ".tmp")
        try FileIO.write(id + "\n", to: tmp, sync: true)
        try FileIO.rename(tmp, to: url)
        try FileIO.syncDirectory(root)
    }

    /// The rollback a hand edit of CURRENT made since the last recorded switch, not yet in the
    /// log (`current`: CURRENT's id now), or nil.
    func pending(current: String?, log: RollbackLog, at now: Int64 = Int64(Date().timeIntervalSince1970)) -> RollbackLog.Entry? {
        guard let current, let last = recorded(), current != last else { return nil }
        let directory = SnapshotDirectory(root: root)
        // A publish whose record was not written (a crash after CURRENT's rename).
        if current > last, (try? directory.manifest(current))?.previous == last { return nil }
        let entries = log.entries()
        // A rollback whose record was not written, or a hand edit the log already holds.
        if let e = entries.last, e.from == last, e.to == current { return nil }
        return RollbackLog.Entry(at: CivilTime.formatUTC(now), from: last, fromContent: (try? directory.manifest(last))?.contentHash ?? "",
                                 to: current, byHand: true)
    }

    /// Writes a pending hand edit into `log` and records CURRENT (the caller holds the
    /// publisher's lock); returns the entry written, if any.
    func note(current: String?, log: RollbackLog) throws -> RollbackLog.Entry? {
        guard let entry = pending(current: current, log: log) else { return nil }
        try log.append(entry)
        try record(entry.to)
        return entry
    }
}
