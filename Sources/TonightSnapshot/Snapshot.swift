import Foundation

/// One published snapshot, opened read-only: its manifest and every dataset's index.
///
/// ```swift
/// let snapshot = try Snapshot.openCurrent(in: URL(fileURLWithPath: "/srv/tonight/snapshots"))
/// for item in try snapshot.explore(user: 42) { print(item.event, item.score) }
/// ```
///
/// Files stay open for the life of the value, so a snapshot removed by retention or replaced
/// by a newer one keeps answering until the last reference goes. Safe to share across threads.
public final class Snapshot: Sendable {
    /// The snapshot's id (`YYYYMMDDTHHMMSSZ-xxxxxxxx`).
    public let id: String
    /// Its directory.
    public let directory: URL
    /// The manifest as published.
    public let manifest: SnapshotManifest
    /// The datasets by name that opened (their manifest entry, index and file agree).
    public let datasets: [String: SnapshotDataset]
    /// The datasets of the manifest that could not be opened (a missing or damaged file),
    /// with why: the others stay readable.
    public let unavailable: [String: SnapshotError]

    /// Default decompressed-frame cache per dataset.
    public static let defaultCacheBytes = 64 << 20

    /// Opens the snapshot in `directory` (a `<root>/<id>` folder): reads the manifest and the
    /// key indexes only. `cacheBytes` bounds each dataset's cache of decompressed frames.
    public init(directory: URL, cacheBytes: Int = Snapshot.defaultCacheBytes) throws {
        self.directory = directory
        let path = directory.appendingPathComponent("manifest.json").path
        let manifest = try SnapshotManifest.read(path)
        self.manifest = manifest
        id = manifest.id
        var datasets: [String: SnapshotDataset] = [:]
        var unavailable: [String: SnapshotError] = [:]
        for (name, entry) in manifest.datasets {
            do {
                datasets[name] = try SnapshotDataset(name: name, entry: entry, directory: directory.path, cacheBytes: cacheBytes)
            } catch let e as SnapshotError {
                unavailable[name] = e
            }
        }
        self.datasets = datasets
        self.unavailable = unavailable
    }

    /// Opens the snapshot that `root/CURRENT` names.
    public static func openCurrent(in root: URL, cacheBytes: Int = Snapshot.defaultCacheBytes) throws -> Snapshot {
        let id = try SnapshotDirectory(root: root).currentID()
        return try Snapshot(directory: root.appendingPathComponent(id), cacheBytes: cacheBytes)
    }

    /// Opens the snapshot `id` under `root`; an id not of the id's shape is refused (it must
    /// name a directory of `root`, never a path elsewhere).
    public static func open(id: String, in root: URL, cacheBytes: Int = Snapshot.defaultCacheBytes) throws -> Snapshot {
        guard SnapshotDirectory.isSnapshotID(id) else {
            throw SnapshotError(file: root.path, "'\(SnapshotError.quoted(id))' is not a snapshot id (YYYYMMDDTHHMMSSZ-xxxxxxxx)",
                                code: .invalidArgument)
        }
        return try Snapshot(directory: root.appendingPathComponent(id), cacheBytes: cacheBytes)
    }

    /// The dataset `name`; an error naming the datasets present if it is not in this snapshot.
    public func dataset(_ name: String) throws -> SnapshotDataset {
        if let problem = unavailable[name] { throw problem }
        guard let d = datasets[name] else {
            throw SnapshotError(
                file: directory.path,
                "no dataset '\(SnapshotError.quoted(name))' in snapshot \(id) (it has: \(datasets.keys.sorted().joined(separator: ", ")))",
                code: .missing)
        }
        return d
    }

    /// The raw JSON record of `dataset` under `key`, or nil.
    public func json(_ dataset: String, key: String) throws -> [UInt8]? {
        try self.dataset(dataset).json(key: key)
    }
}
