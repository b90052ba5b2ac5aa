import Foundation
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

    func hash(_ file: URL) throws -> (hash: String, bytes: Int64) {
        var st = stat()
        guard stat(file.path, &st) == 0 else { throw TonightError.io("stat", path: file.path) }
        let mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        let ctime = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        let key = file.standardizedFileURL.path
        if let e = entries[key], e.size == Int64(st.st_size), e.mtimeNs == mtime, e.ctimeNs == ctime, e.inode == UInt64(st.st_ino),
            e.hashedAtNs - max(mtime, ctime) > Self.racyWindow
        {
            return (e.sha256, e.size)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let h = try ContentHash.file(file)
        entries[key] = Entry(size: Int64(st.st_size), mtimeNs: mtime, ctimeNs: ctime, inode: UInt64(st.st_ino), sha256: h, hashedAtNs: now)
        dirty = true
        return (h, Int64(st.st_size))
    }

    func save() {
        guard dirty, let data = try? JSONEncoder().encode(entries) else { return }
        // Shards save side by side: each through a temporary name of its own.
        let tmp = url.deletingLastPathComponent().appendingPathComponent(".hash-cache.json.\(getpid()).tmp")
        if (try? FileIO.write(Array(data), to: tmp)) != nil { try? FileIO.rename(tmp, to: url) }
    }
}
