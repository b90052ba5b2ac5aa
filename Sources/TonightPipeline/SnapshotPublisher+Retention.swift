import Foundation
import TonightBase
import TonightCore
import TonightSnapshot

extension SnapshotPublisher {
    /// Keeps the newest `retain` snapshots, never removing the current one, the one before it,
    /// or the alerts baseline of a re-run of the current night (the newest snapshot of an
    /// earlier date: many re-runs of one night must not push it out). Each removal renames the directory to a temporary name first, so a crash never
    /// leaves a half-deleted directory that looks like a snapshot.
    func applyRetention() throws {
        let ids = directory.snapshotIDs()
        guard ids.count > retain else { return }
        var protected = Set<String>()
        if let current = try directory.checkedCurrentID() {
            protected.insert(current)
            if let manifest = try? directory.manifest(current) {
                if let previous = manifest.previous { protected.insert(previous) }
                // Withdrawn snapshots are no baseline (StageRunner.previousNight).
                let withdrawn = RollbackLog(root: root).withdrawn(current: current)
                if let baseline = newest(in: ids.filter { $0 <= current && withdrawn[$0] == nil }, before: manifest.date) {
                    protected.insert(baseline)
                }
            }
        }
        for id in ids.dropLast(retain) where !protected.contains(id) {
            let doomed = root.appendingPathComponent(".tmp-delete-\(id)")
            try FileIO.rename(root.appendingPathComponent(id), to: doomed)
            CrashPoint.hit("retention-deleting")
            try FileIO.removeItem(doomed)
            logger.info("retention: removed snapshot \(id)")
        }
        try FileIO.syncDirectory(root)
    }

    /// The newest snapshot (by as-of, then id) whose run date is before `date`.
    private func newest(in ids: [String], before date: String) -> String? {
        ids.compactMap { id in (try? directory.manifest(id)).map { (id, $0) } }
            .filter { $0.1.date < date }
            .max { ($0.1.asOf, $0.0) < ($1.1.asOf, $1.0) }?.0
    }

    /// Points `CURRENT` back at `id`, or by default at the snapshot before the current one
    /// (its manifest's `previous`, else the newest older complete snapshot). The target is
    /// fully verified first. Returns the id now current.
    package func rollback(to id: String? = nil) throws -> String {
        let held = try lock()
        defer { withExtendedLifetime(held) {} }
        // With an explicit target, a damaged CURRENT is what a rollback repairs.
        let current = id == nil ? try directory.checkedCurrentID() : (try? directory.checkedCurrentID()) ?? nil
        try noteHandSwitch(current: current)
        let ids = directory.snapshotIDs()
        let target: String
        if let id {
            guard ids.contains(id) else {
                throw TonightError(.usage, "no complete snapshot '\(id)' in \(root.path)", hint: "see `tonight snapshot list`")
            }
            target = id
        } else {
            guard let current else { throw TonightError(.usage, "nothing is published in \(root.path)") }
            let previous = try? directory.manifest(current).previous
            // Never back onto a snapshot an operator withdrew (unless named: `rollback ID`).
            let withdrawn = RollbackLog(root: root).withdrawn(current: current)
            if let previous, ids.contains(previous), withdrawn[previous] == nil {
                target = previous
            } else if let older = ids.last(where: { $0 < current && withdrawn[$0] == nil }) {
                target = older
            } else {
                throw TonightError(.usage, "no snapshot older than \(current) to roll back to", hint: "see `tonight snapshot list`")
            }
        }
        let report: VerificationReport
        do {
            report = try Snapshot(directory: root.appendingPathComponent(target), cacheBytes: 0).verify { try ContentHash.file(URL(fileURLWithPath: $0)) }
        } catch let e as SnapshotError {
            throw TonightError(.invalidInput, "cannot roll back to \(target): \(e.message)", file: e.file)
        }
        if let p = report.problems.first {
            throw TonightError(.invalidInput, "cannot roll back to \(target): it fails verification: \(p.message)", file: p.file)
        }
        // Recorded before the switch: a log that cannot be written stops the rollback with
        // nothing changed, rather than leave a withdrawn snapshot a later run may publish again.
        let log = RollbackLog(root: root)
        var entry: RollbackLog.Entry?
        if let current, current != target {
            let content = (try? directory.manifest(current))?.contentHash ?? ""
            entry = .init(at: CivilTime.formatUTC(Int64(Date().timeIntervalSince1970)), from: current, fromContent: content, to: target)
            try log.append(entry!)
        }
        do {
            try setCurrent(target)
        } catch {
            // CURRENT did not switch: the entry just written must not stand.
            if let entry { try? log.removeLast(entry) }
            throw error
        }
        logger.info("rolled back: CURRENT \(current ?? "-") → \(target)")
        return target
    }
}
