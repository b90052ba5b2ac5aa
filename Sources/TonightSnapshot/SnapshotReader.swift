import Foundation

/// A long-lived holder of the current snapshot for a service, with hot reload.
///
/// Requests take `current` (a reference) and use it to the end; `reload()` opens a newly
/// published snapshot and swaps it in, while requests that hold the old one finish on the old
/// files (they stay open until the last reference goes, even if retention deletes them).
///
/// ```swift
/// let reader = try SnapshotReader(root: snapshotsURL)
/// // per request:
/// let items = try reader.current.explore(user: id)
/// // periodically, or on a signal:
/// try reader.reload()
/// ```
public final class SnapshotReader: @unchecked Sendable {
    /// The snapshot root.
    public let directory: SnapshotDirectory
    private let cacheBytes: Int
    private let lock = NSLock()
    private let reloading = NSLock()
    private var snapshot: Snapshot

    /// Opens the current snapshot of `root`.
    public init(root: URL, cacheBytes: Int = Snapshot.defaultCacheBytes) throws {
        directory = SnapshotDirectory(root: root)
        self.cacheBytes = cacheBytes
        snapshot = try Snapshot.open(id: try directory.currentID(), in: root, cacheBytes: cacheBytes)
    }

    /// The snapshot requests should use now.
    public var current: Snapshot {
        lock.lock()
        defer { lock.unlock() }
        return snapshot
    }

    /// Switches to the snapshot `CURRENT` names if it changed. Returns whether it switched.
    /// If the new snapshot cannot be opened, or cannot serve a dataset the one in use serves
    /// (a file damaged or removed after publish), the error is thrown and the old one stays.
    ///
    /// Reloads run one at a time (requests go on meanwhile): one that starts while another
    /// opens a snapshot waits, then reads `CURRENT` itself, so overlapping reloads end on the
    /// snapshot `CURRENT` names last, never on an earlier one whose open was slower.
    @discardableResult
    public func reload() throws -> Bool {
        reloading.lock()
        defer { reloading.unlock() }
        let id = try directory.currentID()
        if id == current.id { return false }
        let fresh = try Snapshot.open(id: id, in: directory.root, cacheBytes: cacheBytes)
        let inUse = current
        // A published snapshot was verified whole; a dataset it cannot serve now was damaged
        // or removed since. Switching would turn lookups that work into errors.
        let lost = inUse.datasets.keys.filter { fresh.unavailable[$0] != nil }.sorted()
        if let first = lost.first, let why = fresh.unavailable[first] {
            throw SnapshotError(
                file: why.file,
                "snapshot \(fresh.id) cannot serve \(lost.joined(separator: ", ")), which \(inUse.id) serves: kept \(inUse.id) "
                    + "(\(why.message); check it with `tonight snapshot verify`, then roll back or publish again)",
                code: why.code)
        }
        lock.lock()
        snapshot = fresh
        lock.unlock()
        return true
    }
}
