import Foundation
import TonightCore

/// Content hashes of input files, remembered by (path, size, mtime, inode) in
/// `WORK/hash-cache.json` so the 119 MB feed is not re-hashed when it has not changed.
final class FileHashCache {
    private struct Entry: Codable {
        var size: Int64
        var mtimeNs: Int64
        var inode: UInt64
        var sha256: String
    }

    private let url: URL
    private var entries: [String: Entry]
    private var dirty = false

    init(work: URL) {
        url = work.appendingPathComponent("hash-cache.json")
        entries = (try? JSONDecoder().decode([String: Entry].self, from: Data(contentsOf: url))) ?? [:]
    }

    func hash(_ file: URL) throws -> (hash: String, bytes: Int64) {
        var st = stat()
        guard stat(file.path, &st) == 0 else { throw TonightError.io("stat", path: file.path) }
        let mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        let key = file.standardizedFileURL.path
        if let e = entries[key], e.size == Int64(st.st_size), e.mtimeNs == mtime, e.inode == UInt64(st.st_ino) {
            return (e.sha256, e.size)
        }
        let h = try ContentHash.file(file)
        entries[key] = Entry(size: Int64(st.st_size), mtimeNs: mtime, inode: UInt64(st.st_ino), sha256: h)
        dirty = true
        return (h, Int64(st.st_size))
    }

    func save() {
        guard dirty, let data = try? JSONEncoder().encode(entries) else { return }
        let tmp = url.appendingPathExtension("tmp")
        if (try? FileIO.write(Array(data), to: tmp)) != nil { try? FileIO.rename(tmp, to: url) }
    }
}
