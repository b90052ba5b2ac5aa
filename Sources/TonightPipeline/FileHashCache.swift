import Foundation
import TonightBase
import TonightCore

/// Content hashes of input files, remembered in `WORK/hash-cache.json` so that the 119 MB feed
/// is not hashed again when it has not changed.
///
/// An entry is trusted only while the file's size, inode, mtime *and* ctime are unchanged,
/// and only if both times were already more than `racyWindow` seconds old when it was
/// hashed. ctime cannot be set from user space, so an in-place edit that restores size and
/// mtime (`rsync --inplace -t`, `touch -r`) still changes it; the window covers file systems
/// whose timestamps are too coarse to tell two writes within a second apart (as git does
/// with its index).
final class FileHashCache {
    private struct Entry: Codable {
        var size: Int64
        var mtimeNs: Int64
        var ctimeNs: Int64
        var inode: UInt64
        var sha256: String
        /// When the hash was computed (ns since the epoch).
        var hashedAtNs: Int64
    }

    static let racyWindow: Int64 = 3_000_000_000

    private let url: URL
    private var entries: [String: Entry]
    private var dirty = false

    init(work: URL) {
        url = work.appendingPathComponent("hash-cache.json")
        entries = Self.load(url)
    }

    private static func load(_ url: URL) -> [String: Entry] {
        (try? JSONDecoder().decode([String: Entry].self, from: FileIO.read(url))) ?? [:]
    }

    /// Takes in what another process (a shard) saved since this cache was read; entries this
    /// process hashed itself are kept.
    func reload() {
        entries.merge(Self.load(url)) { mine, _ in mine }
    }

    /// A file's identity when it is looked up (what a cache entry must match), with the
    /// cache's key for it.
    private struct Identity {
        var key: String
        var file: FileIdentity
        var size: Int64 { file.size }
        var mtimeNs: Int64 { file.mtimeNs }
        var ctimeNs: Int64 { file.ctimeNs }
        var inode: UInt64 { file.inode }

        init(_ url: URL) throws {
            file = try FileIdentity(url)
            key = url.standardizedFileURL.path
        }

        init(key: String, file: FileIdentity) {
            self.key = key
            self.file = file
        }
    }

    /// The identity each file had when `hash` last answered for it (by standardised path):
    /// the version of the file the hash is of, which the stages that read it must find.
    private(set) var answered: [String: FileIdentity] = [:]

    /// Files this process hashed itself (by `prefetch`): trusted for this run even inside the
    /// racy window, which guards later runs against edits the timestamps cannot show.
    private var hashedHere: Set<String> = []
    /// Files read and hashed by this cache (for the tests: a hit reads nothing).
    private(set) var filesHashed = 0

    /// The cached hash of a file with this identity, if the entry may be trusted.
    private func trusted(_ id: Identity) -> Entry? {
        guard let e = entries[id.key], e.size == id.size, e.mtimeNs == id.mtimeNs, e.ctimeNs == id.ctimeNs, e.inode == id.inode,
              hashedHere.contains(id.key) || e.hashedAtNs - max(id.mtimeNs, id.ctimeNs) > Self.racyWindow else { return nil }
        return e
    }

    private func remember(_ id: Identity, sha256: String, hashedAtNs: Int64) {
        entries[id.key] = Entry(size: id.size, mtimeNs: id.mtimeNs, ctimeNs: id.ctimeNs, inode: id.inode, sha256: sha256, hashedAtNs: hashedAtNs)
        dirty = true
    }

    func hash(_ file: URL) throws -> (hash: String, bytes: Int64) {
        let id = try Identity(file)
        answered[id.key] = id.file
        if let e = trusted(id) { return (e.sha256, e.size) }
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let h = try ContentHash.file(file)
        filesHashed += 1
        remember(id, sha256: h, hashedAtNs: now)
        return (h, id.size)
    }

    /// Whether the cache holds a trusted hash of `file` as it is now (nothing is read).
    func canAnswer(_ file: URL) -> Bool {
        guard let id = try? Identity(file) else { return false }
        return trusted(id) != nil
    }

    /// Takes the identity of a file whose hash the stage that reads it computes while it runs
    /// (`StageRunner.deferrableInputs`): the version of the file that stage must find, kept in
    /// `answered` as `hash` keeps it. Returns the file's size.
    func identify(_ file: URL) throws -> Int64 {
        let id = try Identity(file)
        answered[id.key] = id.file
        return id.size
    }

    /// Remembers the hash a stage computed of `file` while it ran, for the identity `identify`
    /// took (the stage checked, when it ended, that the file still had it). `hashedAtNs`: when
    /// the hashing started.
    func remember(hashedWhileRunning file: URL, sha256: String, hashedAtNs: Int64) {
        let key = file.standardizedFileURL.path
        guard let identity = answered[key] else { return }
        remember(Identity(key: key, file: identity), sha256: sha256, hashedAtNs: hashedAtNs)
        hashedHere.insert(key)
    }

    /// Hashes the files among `files` that the cache cannot answer, on every core (largest
    /// first), so that a new night's inputs (~400 MB on realistic `full`) are not hashed one
    /// after another on one core while the plan is made. The identity of each file is taken
    /// before it is read, as `hash` does. Missing files are left to `hash`, which reports them.
    func prefetch(_ files: [URL], width: Int? = nil) throws {
        var missing: [(url: URL, id: Identity)] = []
        for f in Set(files.map(\.standardizedFileURL)) {
            guard let id = try? Identity(f), trusted(id) == nil else { continue }
            missing.append((f, id))
        }
        guard missing.count > 1 else { return }
        missing.sort { $0.id.size > $1.id.size || ($0.id.size == $1.id.size && $0.id.key < $1.id.key) }
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let urls = missing.map(\.url)
        let hashes = try Parallel.map(urls.count, width: width) { try ContentHash.file(urls[$0]) }
        filesHashed += urls.count
        for (m, h) in zip(missing, hashes) {
            remember(m.id, sha256: h, hashedAtNs: now)
            hashedHere.insert(m.id.key)
        }
    }

    func save() {
        guard dirty, let data = try? JSONEncoder().encode(entries) else { return }
        // Shards save side by side: each through a temporary name of its own.
        let tmp = url.deletingLastPathComponent().appendingPathComponent(".hash-cache.json.\(getpid()).tmp")
        if (try? FileIO.write(Array(data), to: tmp)) != nil { try? FileIO.rename(tmp, to: url) }
    }
}
