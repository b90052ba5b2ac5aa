import Foundation
import Logging
import TonightCore

/// The work directory's locks: an flock on a file, which the kernel releases when the holder
/// dies, so a stale lock is simply taken over.
///
/// `WORK/lock` is held exclusively by a whole run or a merge (one at a time) and shared by
/// the shards of a sharded night, which run side by side; `WORK/shared-stages.lock` is held
/// exclusively by one shard at a time while it runs or reuses the shared stages, so that the
/// first computes them and the others reuse its outputs.
package final class WorkLock {
    package enum Mode: Sendable {
        /// One holder; nobody else, shared or not.
        case exclusive
        /// Any number of shared holders, no exclusive one.
        case shared
    }

    // The properties are set only once the lock is held: an initialiser that throws after
    // setting them all runs `deinit`, which would close (and truncate) the descriptor a
    // second time, by then perhaps another thread's file.
    private let fd: Int32
    private let exclusive: Bool
    let url: URL

    /// `WORK/lock` in `mode`, without waiting.
    package convenience init(work: URL, mode: Mode = .exclusive) throws {
        try self.init(
            directory: work, file: "lock", mode: mode,
            holder: mode == .exclusive ? "another run, or a sharded night's shards, hold the work directory" : "another run holds the work directory",
            hint: "wait for it to finish, or use another --work directory")
    }

    /// Locks `directory/file` without waiting; `holder` and `hint` word the error when it is
    /// taken.
    package init(directory: URL, file: String, mode: Mode = .exclusive, holder what: String, hint: String) throws {
        try FileIO.createDirectory(directory)
        let url = directory.appendingPathComponent(file)
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TonightError.io("open lock file", path: url.path) }
        if flock(fd, (mode == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            let holder = (try? String(contentsOf: url, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(fd)
            throw TonightError(
                .lockHeld, "\(what)" + (holder.isEmpty ? "" : " (pid \(holder))"), file: url.path, hint: hint)
        }
        if mode == .exclusive { Self.writePID(fd) }
        self.url = url
        self.fd = fd
        exclusive = mode == .exclusive
    }

    /// Locks `directory/file` exclusively, waiting for the holder (checking for SIGTERM and
    /// SIGINT while it waits); logs once that it waits.
    package init(waitingFor file: String, in directory: URL, logger: Logger, what: String) throws {
        try FileIO.createDirectory(directory)
        let url = directory.appendingPathComponent(file)
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TonightError.io("open lock file", path: url.path) }
        var logged = false
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if !logged {
                logger.info("waiting for \(what) (\(url.path))")
                logged = true
            }
            do {
                try Interruption.check()
            } catch {
                close(fd)
                throw error
            }
            usleep(50_000)
        }
        Self.writePID(fd)
        self.url = url
        self.fd = fd
        exclusive = true
    }

    private static func writePID(_ fd: Int32) {
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        if exclusive { ftruncate(fd, 0) }
        flock(fd, LOCK_UN)
        close(fd)
    }
}
