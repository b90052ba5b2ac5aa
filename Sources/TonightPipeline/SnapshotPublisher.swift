import Foundation
import Logging
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
    }

    package let root: URL
    package var retain = 7
    package var maxShrink = 0.5
    package var allowShrink = false
    /// Largest reject share per stage (publish re-checks what the stages reported).
    package var maxRejectShare: [String: Double] = [:]
    package var logger = Logger(label: "tonight.publish")

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

    /// Publishes `sources` with the manifest fields of `template` (id, content hash, datasets,
    /// previous and creation time are filled in here). Returns the published manifest.
    package func publish(_ sources: [Source], template: SnapshotManifest, now: Int64) throws -> SnapshotManifest {
        let held = try lock()
        defer { withExtendedLifetime(held) {} }
        CrashPoint.hit("publish-start")
        removeUnfinished()
        let current = try directory.checkedCurrentID()
        let currentManifest = try current.map { try directory.checkedManifest($0) }

        let tmp = root.appendingPathComponent(".tmp-\(template.runId)-\(getpid())")
        try FileIO.removeItem(tmp)
        try FileIO.createDirectory(tmp)
        var datasets: [String: SnapshotManifest.Dataset] = [:]
        // Copies of their own (a reflink where the file system has one): a published snapshot
        // shares no inode with the run store or another snapshot, so damage to one file never
        // spreads to every rollback target. Files are copied on all cores.
        let ordered = sources.sorted(by: { $0.entry.name < $1.entry.name })
        let copies = ordered.flatMap { s in [s.entry.file, s.entry.index].map { (s.directory.appendingPathComponent($0), tmp.appendingPathComponent($0)) } }
        try Parallel.map(copies.count) { k in
            try FileIO.copyFile(copies[k].0, to: copies[k].1)
            CrashPoint.hit("dataset-copied")
        }
        for s in ordered {
            datasets[s.entry.name] = SnapshotManifest.Dataset(
                file: s.entry.file, bytes: FileIO.size(tmp.appendingPathComponent(s.entry.file)), sha256: s.sha256,
                records: s.entry.records, frames: s.entry.frames, uncompressedBytes: s.entry.uncompressedBytes,
                index: s.entry.index, indexBytes: FileIO.size(tmp.appendingPathComponent(s.entry.index)),
                indexSha256: s.indexSha256, schemaVersion: s.entry.schemaVersion)
        }
        CrashPoint.hit("datasets-copied")
        let content = datasets.keys.sorted().map { "\($0) \(datasets[$0]!.sha256) \(datasets[$0]!.indexSha256)" }
        var manifest = template
        manifest.contentHash = ContentHash.hex(content.joined(separator: "\n"))
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

        do {
            try validate(tmp, manifest: manifest, against: currentManifest)
        } catch {
            try? FileIO.removeItem(tmp)
            throw error
        }
        CrashPoint.hit("validated")

        try FileIO.syncDirectory(tmp)
        CrashPoint.hit("before-snapshot-rename")
        try FileIO.rename(tmp, to: root.appendingPathComponent(manifest.id))
        try FileIO.syncDirectory(root)
        CrashPoint.hit("after-snapshot-rename")
        try setCurrent(manifest.id)
        logger.info("published snapshot \(manifest.id)", metadata: ["previous": "\(current ?? "-")"])
        try applyRetention()
        CrashPoint.hit("after-retention")
        return manifest
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
    }

    /// Removes temporary directories of publishes that died (we hold the lock, so none is live).
    func removeUnfinished() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names where name.hasPrefix(".tmp-") || name == "CURRENT.tmp" {
            try? FileIO.removeItem(root.appendingPathComponent(name))
        }
    }
}
