import Foundation
import Logging
import TonightBase
import TonightCore
import TonightSnapshot

/// Publishes snapshots under `OUT/snapshots` with the crash-safe protocol of snapshots.md:
/// the snapshot is assembled in a hidden temporary directory, every file and the directory
/// synced, validated, renamed into place; only then is `CURRENT` replaced (temporary file,
/// fsync, rename, fsync of the directory). Retention and rollback run under the same lock.
package struct SnapshotPublisher {
    /// One dataset to publish, as a stage wrote it.
    package struct Source: Sendable {
        package var entry: DatasetFiles.Entry
        package var directory: URL
        package var sha256: String
        package var indexSha256: String
        /// SHA-256 of every other file of the dataset (layout 2: dictionary, key table).
        package var otherSha256: [String: String] = [:]
    }

    package let root: URL
    package var retain = 7
    /// Called with the new manifest after validation and before `CURRENT` switches: whatever
    /// the caller must record about the publish (the stage's own copy of the manifest) is
    /// written while a failure can still leave `CURRENT` as it was.
    package var beforeSwitch: ((SnapshotManifest) throws -> Void)?
    package var maxShrink = 0.5
    /// Per-dataset overrides of `maxShrink` (1: unguarded).
    package var maxShrinkByDataset: [String: Double] = [:]
    package var allowShrink = false
    /// Publish even if the run's as-of is earlier than CURRENT's (`--allow-earlier`).
    package var allowEarlier = false
    /// Largest reject share per stage (publish re-checks what the stages reported).
    package var maxRejectShare: [String: Double] = [:]
    package var logger = Logger(label: "tonight.publish")
    /// Shows the files copied so far.
    package var progress: ProgressReporter?

    package init(root: URL) {
        self.root = root
    }

    var directory: SnapshotDirectory { SnapshotDirectory(root: root) }

    func lock() throws -> WorkLock {
        try WorkLock(directory: root, file: ".lock", holder: "another process is publishing or rolling back here",
                     hint: "wait for it to finish")
    }

    /// The snapshot id for a creation time and content hash.
    static func snapshotID(time: Int64, contentHash: String) -> String {
        let compact = CivilTime.formatUTC(time).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        return compact + "-" + contentHash.prefix(8)
    }

    /// What a publish did.
    package enum Outcome: Sendable {
        /// A new snapshot is current.
        case published(SnapshotManifest)
        /// The datasets equal CURRENT's (and CURRENT's files are intact): nothing was written.
        case unchanged(SnapshotManifest)

        package var manifest: SnapshotManifest {
            switch self {
            case .published(let m), .unchanged(let m): m
            }
        }
    }

    /// Refuses datasets equal to a snapshot an operator rolled back from (`RollbackLog`): a
    /// re-run of its night (a retry, a second timer, `tonight run` without `--dry-run`)
    /// published that content again and undid the rollback without a word. Serving it again
    /// is `tonight snapshot rollback ID` (which reinstates it).
    private func refuseWithdrawn(_ sources: [Source], current: String) throws {
        let hash = Self.contentHash(sources)
        for (id, content) in RollbackLog(root: root).withdrawn(current: current).sorted(by: { $0.key < $1.key }) where content == hash {
            throw TonightError(
                .invalidInput,
                "publish refused: these datasets are those of snapshot \(id), which was rolled back from (CURRENT is \(current)); "
                    + "publishing them again would undo the rollback",
                file: root.appendingPathComponent(id).path,
                hint: "to serve them again, run `tonight snapshot rollback \(id)`; else fix the inputs or settings and re-run")
        }
    }

    /// The refusal of a snapshot as of `asOf` (the manifest's UTC text) when CURRENT
    /// (`current`, its manifest `manifest`) is as of a later instant: publishing it would take
    /// every service back to an earlier night without a word, as a rollback does but
    /// unrecorded (an engineer reproducing an earlier night with `--as-of` against the
    /// production `--out`; a retried job whose clock is behind). nil when the run is as of
    /// CURRENT's instant or later, or either instant does not parse.
    package static func earlierRefusal(asOf: String, current: String, manifest: SnapshotManifest) -> TonightError? {
        guard isEarlier(asOf, than: manifest) else { return nil }
        return TonightError(
            .invalidInput,
            "publish refused: this run is as of \(asOf), earlier than CURRENT \(current) (as of \(manifest.asOf)); "
                + "publishing it would take the services back to an earlier night",
            stage: "publish",
            hint: "to serve an earlier snapshot, run `tonight snapshot rollback ID`; to publish this run anyway, "
                + "re-run with --allow-earlier; to compute an earlier night without publishing, use --only with the stages you need "
                + "or another --out")
    }

    /// Whether `asOf` (a manifest's UTC text) is an earlier instant than `manifest`'s as-of.
    static func isEarlier(_ asOf: String, than manifest: SnapshotManifest) -> Bool {
        guard let mine = CivilTime.parseInstant(asOf), let theirs = CivilTime.parseInstant(manifest.asOf) else { return false }
        return mine < theirs
    }

    /// The content hash of a set of datasets: equal for equal dataset and index files.
    static func contentHash(_ sources: [Source]) -> String {
        ContentHash.hex(sources.sorted { $0.entry.name < $1.entry.name }
            .map { s in
                ([s.entry.name, s.sha256, s.indexSha256] + [s.entry.dictionary, s.entry.keyTable].compactMap { $0.flatMap { s.otherSha256[$0] } })
                    .joined(separator: " ")
            }.joined(separator: "\n"))
    }

    /// Publishes `sources` with the manifest fields of `template` (id, content hash, datasets,
    /// previous and creation time are filled in here). Publish is idempotent: datasets equal to
    /// CURRENT's publish nothing (no retention slot is spent on a copy), unless CURRENT's own
    /// files no longer match their hashes, when a fresh copy is published.
    package func publish(_ sources: [Source], template: SnapshotManifest, now: Int64) throws -> Outcome {
        var clock = PhaseClock()
        return try publish(sources, template: template, now: now, clock: &clock)
    }

    /// `publish`, timing its phases on `clock` (`prepare`: lock, leftovers, idempotence;
    /// `copy`; `validate`; `switch`: syncs and renames; `retention`), for the stage's
    /// `seconds.*` details.
    package func publish(_ sources: [Source], template: SnapshotManifest, now: Int64, clock: inout PhaseClock) throws -> Outcome {
        let held = try lock()
        defer { withExtendedLifetime(held) {} }
        CrashPoint.hit("publish-start")
        removeUnfinished()
        let current = try directory.checkedCurrentID()
        try noteHandSwitch(current: current)
        let currentManifest = try current.map { try directory.checkedManifest($0) }
        if let currentManifest, let current, currentManifest.contentHash == Self.contentHash(sources),
           Set(currentManifest.datasets.keys) == Set(sources.map(\.entry.name)) {
            if let damage = damagedFile(of: currentManifest, id: current) {
                logger.warning("CURRENT \(current) holds the same datasets but \(damage): publishing a fresh copy")
            } else {
                logger.info("datasets unchanged, CURRENT stays \(current)")
                clock.lap("prepare")
                return .unchanged(currentManifest)
            }
        }

        if let current { try refuseWithdrawn(sources, current: current) }
        if let current, let currentManifest, !allowEarlier,
           let refusal = Self.earlierRefusal(asOf: template.asOf, current: current, manifest: currentManifest) {
            throw refusal
        }

        clock.lap("prepare")
        let tmp = root.appendingPathComponent(".tmp-\(template.runId)-\(getpid())")
        try FileIO.removeItem(tmp)
        try FileIO.createDirectory(tmp)
        var datasets: [String: SnapshotManifest.Dataset] = [:]
        // Copies of their own (a reflink where the file system has one): a published snapshot
        // shares no inode with the run store or another snapshot, so damage to one file never
        // spreads to every rollback target. Files are copied on all cores, and fsynced on a
        // thread of their own while the snapshot is validated (below): waiting for the disk
        // in the copy was ~0.5 of its ~1 s on realistic `full`, with both cores idle.
        let ordered = sources.sorted(by: { $0.entry.name < $1.entry.name })
        let copies = ordered.flatMap { s in s.entry.files.map { (s.directory.appendingPathComponent($0), tmp.appendingPathComponent($0)) } }
        progress?.measure(.files, total: Int64(copies.count))
        let copied = Locked<Int64>(0)
        let progress = self.progress
        try Parallel.forEach(copies.count) { k in
            try FileIO.copyFile(copies[k].0, to: copies[k].1, sync: false)
            progress?.update(done: copied.withLock { $0 += 1; return $0 })
            CrashPoint.hit("dataset-copied")
        }
        for s in ordered {
            datasets[s.entry.name] = SnapshotManifest.Dataset(
                file: s.entry.file, bytes: FileIO.size(tmp.appendingPathComponent(s.entry.file)), sha256: s.sha256,
                records: s.entry.records, frames: s.entry.frames, uncompressedBytes: s.entry.uncompressedBytes,
                index: s.entry.index, indexBytes: FileIO.size(tmp.appendingPathComponent(s.entry.index)),
                indexSha256: s.indexSha256, schemaVersion: s.entry.schemaVersion)
            datasets[s.entry.name]?.keyForm = s.entry.keyForm
            if s.entry.layout ?? 1 == 2 {
                var d = datasets[s.entry.name]!
                d.layout = 2
                if let dict = s.entry.dictionary {
                    d.dictionary = dict
                    d.dictionaryBytes = FileIO.size(tmp.appendingPathComponent(dict))
                    d.dictionarySha256 = s.otherSha256[dict]
                    d.dictionaryID = s.entry.dictionaryID
                }
                if let keys = s.entry.keyTable {
                    d.keyTable = keys
                    d.keyTableBytes = FileIO.size(tmp.appendingPathComponent(keys))
                    d.keyTableSha256 = s.otherSha256[keys]
                }
                datasets[s.entry.name] = d
            }
        }
        CrashPoint.hit("datasets-copied")
        var manifest = template
        manifest.contentHash = Self.contentHash(sources)
        manifest.datasets = datasets
        manifest.previous = current
        manifest.createdAt = CivilTime.formatUTC(now)
        // Ids sort by time: later than every existing snapshot (two runs within a second, or a
        // retention that removed the newest time, must not give an older-looking id).
        let newest = directory.snapshotIDs().last.map { String($0.prefix(16)) } ?? ""
        var time = now
        repeat {
            manifest.id = Self.snapshotID(time: time, contentHash: manifest.contentHash)
            time += 1
        } while FileIO.exists(root.appendingPathComponent(manifest.id)) || String(manifest.id.prefix(16)) <= newest
        try writeManifest(manifest, to: tmp)
        CrashPoint.hit("manifest-written")
        clock.lap("copy")

        // The copies reach the disk while they are validated; every one is durable before the
        // directory is synced and renamed into place (step 5), as when each was synced as it
        // was copied.
        let syncing = BackgroundJob()
        let written = copies.map(\.1)
        syncing.start { for url in written { try FileIO.syncFile(url) } }
        do {
            try validate(tmp, manifest: manifest, against: currentManifest)
            try beforeSwitch?(manifest)
            try syncing.join()
        } catch {
            try? syncing.join()
            try? FileIO.removeItem(tmp)
            throw error
        }
        CrashPoint.hit("validated")
        clock.lap("validate")

        try FileIO.syncDirectory(tmp)
        CrashPoint.hit("before-snapshot-rename")
        try FileIO.rename(tmp, to: root.appendingPathComponent(manifest.id))
        try FileIO.syncDirectory(root)
        CrashPoint.hit("after-snapshot-rename")
        // An earlier night published over CURRENT (`allowEarlier`) withdraws CURRENT as a
        // rollback does (no baseline, not published again): recorded before the switch, and
        // taken back if the switch fails.
        var withdrawal: RollbackLog.Entry?
        if let current, let currentManifest, Self.isEarlier(template.asOf, than: currentManifest) {
            withdrawal = .init(at: CivilTime.formatUTC(now), from: current, fromContent: currentManifest.contentHash, to: manifest.id,
                               earlierNight: true)
            try RollbackLog(root: root).append(withdrawal!)
        }
        do {
            try setCurrent(manifest.id)
        } catch {
            if let withdrawal { try? RollbackLog(root: root).removeLast(withdrawal) }
            throw error
        }
        logger.info("published snapshot \(manifest.id)", metadata: ["previous": "\(current ?? "-")"])
        clock.lap("switch")
        try applyRetention()
        CrashPoint.hit("after-retention")
        clock.lap("retention")
        return .published(manifest)
    }

    /// The first file of snapshot `id` whose size or SHA-256 differs from its manifest (hashed
    /// on all cores), described; nil when all match.
    func damagedFile(of manifest: SnapshotManifest, id: String) -> String? {
        let dir = root.appendingPathComponent(id)
        let files = manifest.datasets.values.flatMap { $0.files.map { ($0.name, $0.bytes, $0.sha256) } }
        let problems = (try? Parallel.map(files.count) { k -> String? in
            let url = dir.appendingPathComponent(files[k].0)
            guard FileIO.size(url) == files[k].1, (try? ContentHash.file(url)) == files[k].2 else { return "\(files[k].0) is damaged" }
            return nil
        }) ?? ["its files cannot be read"]
        return problems.compactMap { $0 }.first
    }

    func writeManifest(_ manifest: SnapshotManifest, to dir: URL) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try FileIO.write(Array(try e.encode(manifest)) + [0x0A], to: dir.appendingPathComponent("manifest.json"), sync: true)
    }

    /// Replaces `CURRENT` atomically: temporary file, fsync, rename, fsync of the directory.
    func setCurrent(_ id: String) throws {
        let tmp = root.appendingPathComponent("CURRENT.tmp")
        try FileIO.write(id + "\n", to: tmp, sync: true)
        CrashPoint.hit("current-temp-written")
        try FileIO.rename(tmp, to: root.appendingPathComponent("CURRENT"))
        try FileIO.syncDirectory(root)
        CrashPoint.hit("after-current-rename")
        // Not fatal: CURRENT has switched, and a record one switch behind is recognised.
        try? SwitchRecord(root: root).record(id)
    }

    /// Writes a hand edit of CURRENT since the last switch into the rollback log, as the
    /// rollback it is (`SwitchRecord`); the caller holds the lock.
    func noteHandSwitch(current: String?) throws {
        guard let entry = try SwitchRecord(root: root).note(current: current, log: RollbackLog(root: root)) else { return }
        let withdrawn = entry.to < entry.from ? " (\(entry.from) is withdrawn)" : ""
        logger.warning("CURRENT was changed by hand from \(entry.from) to \(entry.to), not by `tonight snapshot rollback`: recorded as a rollback in \(RollbackLog.fileName)\(withdrawn)")
    }

    /// Removes temporary directories of publishes that died (we hold the lock, so none is live).
    func removeUnfinished() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names where name.hasPrefix(".tmp-") || name == "CURRENT.tmp" {
            try? FileIO.removeItem(root.appendingPathComponent(name))
        }
    }
}
