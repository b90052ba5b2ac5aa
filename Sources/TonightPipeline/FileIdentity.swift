import Foundation
import TonightCore

/// What tells one version of a file from another without reading it: size, inode, mtime and
/// ctime (nanoseconds). ctime cannot be set from user space, so an edit that restores size
/// and mtime still changes it; a file replaced by a rename has another inode.
///
/// The hash cache trusts a remembered hash while a file keeps its identity, and a run
/// checks that every input keeps the identity it had when the plan hashed it, before and
/// after the stage that reads it (`InputWatch`).
struct FileIdentity: Sendable, Equatable {
    var size: Int64
    var mtimeNs: Int64
    var ctimeNs: Int64
    var inode: UInt64

    /// The identity of the file at `url` now (`stat`, following links as `open` does).
    init(_ url: URL) throws {
        var st = stat()
        guard stat(url.path, &st) == 0 else { throw TonightError.io("stat", path: url.path) }
        size = Int64(st.st_size)
        mtimeNs = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        ctimeNs = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        inode = UInt64(st.st_ino)
    }

    /// How `now` differs from `self`, in words (nil when it does not).
    func change(to now: FileIdentity) -> String? {
        var what: [String] = []
        if now.inode != inode { what.append("replaced (another inode)") }
        if now.size != size { what.append("size \(size) → \(now.size) bytes") }
        if now.mtimeNs != mtimeNs { what.append("modified") } else if now.ctimeNs != ctimeNs { what.append("changed (ctime)") }
        return what.isEmpty ? nil : what.joined(separator: ", ")
    }
}
