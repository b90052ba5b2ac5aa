import Foundation
import TonightCore

/// One run at a time per work directory: an exclusive flock on `WORK/lock`, which the
/// kernel releases when the holder dies, so a stale lock is simply taken over.
package final class WorkLock {
    private let fd: Int32
    let url: URL

    package convenience init(work: URL) throws {
        try self.init(directory: work, file: "lock", holder: "another run holds the work directory",
                      hint: "wait for it to finish, or use another --work directory")
    }

    /// Locks `directory/file`; `holder` and `hint` word the error when it is taken.
    package init(directory: URL, file: String, holder what: String, hint: String) throws {
        try FileIO.createDirectory(directory)
        url = directory.appendingPathComponent(file)
        fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TonightError.io("open lock file", path: url.path) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let holder = (try? String(contentsOf: url, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            close(fd)
            throw TonightError(
                .lockHeld, "\(what) (pid \(holder.isEmpty ? "?" : holder))", file: url.path, hint: hint)
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(fd, $0, strlen($0)) }
    }

    deinit {
        ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }
}
