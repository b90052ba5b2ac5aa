import Foundation
import TonightBase

/// Small POSIX file helpers with errors that name the path.
package enum FileIO {
    /// Reads a whole regular file (read(2), not a mapping: a file truncated under a mapping
    /// kills the process with SIGBUS; here it is an error).
    package static func read(_ url: URL) throws -> Data {
        do {
            return try RegularFile.readData(url.path)
        } catch let f as RegularFile.Failure {
            throw TonightError(.io, "cannot read file: \(f.message)", file: url.path,
                               hint: hint(f, otherwise: "inputs must be regular files that do not change while the job reads them"))
        }
    }

    /// Opens a regular file for reading (a FIFO or device is an error, not a hang).
    package static func openRegular(_ url: URL) throws -> (fd: Int32, size: Int) {
        do {
            return try RegularFile.open(url.path)
        } catch let f as RegularFile.Failure {
            throw TonightError(.io, f.message, file: url.path, hint: hint(f, otherwise: "inputs must be regular files"))
        }
    }

    /// The hint for a file that could not be read: by its error number when a system call
    /// failed (permissions, a read error), else `otherwise`.
    private static func hint(_ f: RegularFile.Failure, otherwise: String) -> String {
        if f.kind == .missing { return "check the path" }
        if let code = f.errno { return IOHint.text(errno: code, path: f.path) }
        return otherwise
    }

    /// Writes bytes to a file (created or truncated) and syncs it when asked.
    package static func write(_ bytes: [UInt8], to url: URL, sync: Bool = false) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TonightError.io("open for writing", path: url.path) }
        defer { close(fd) }
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw TonightError.io("write", path: url.path)
                }
                done += n
            }
        }
        if sync, fsync(fd) != 0 { throw TonightError.io("fsync", path: url.path) }
    }

    /// Writes a string as UTF-8.
    package static func write(_ text: String, to url: URL, sync: Bool = false) throws {
        try write(Array(text.utf8), to: url, sync: sync)
    }

    /// fsyncs a directory so that renames inside it are durable.
    package static func syncDirectory(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw TonightError.io("open directory", path: url.path) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw TonightError.io("fsync directory", path: url.path) }
    }

    /// rename(2), atomic within one file system.
    package static func rename(_ from: URL, to: URL) throws {
        if Foundation.rename(from.path, to.path) != 0 {
            throw TonightError.io("rename to \(to.path)", path: from.path)
        }
    }

    /// Copies a file into a new file of its own (never a link): a reflink where the file
    /// system has them (`FICLONE`: btrfs, XFS), else `sendfile` (an in-kernel copy), else
    /// read/write; then fsync. The copy shares nothing with its source, so damage to
    /// one never reaches the other.
    package static func copyFile(_ from: URL, to: URL) throws {
        try copyFile(from, to: to, sync: true)
    }

    /// `copyFile`; with `sync` false the copy is not fsynced here (the caller syncs it with
    /// `syncFile` before it counts on it: publish lets the disk write while it validates).
    package static func copyFile(_ from: URL, to: URL, sync: Bool) throws {
        let src = open(from.path, O_RDONLY | O_CLOEXEC)
        guard src >= 0 else { throw TonightError.io("open", path: from.path) }
        defer { close(src) }
        var st = stat()
        guard fstat(src, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw TonightError(.io, "not a regular file", file: from.path)
        }
        let dst = open(to.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard dst >= 0 else { throw TonightError.io("create", path: to.path) }
        defer { close(dst) }
        // FICLONE = _IOW(0x94, 9, int)
        if ioctl(dst, 0x4004_9409, src) != 0 {
            var remaining = Int(st.st_size)
            while remaining > 0 {
                let n = sendfile(dst, src, nil, min(remaining, 1 << 30))
                if n > 0 {
                    remaining -= n
                    continue
                }
                if n < 0 && errno == EINTR { continue }
                if n == 0 || errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP {
                    try copyByReading(src, dst, from: from, to: to)
                    remaining = 0
                    break
                }
                throw TonightError.io("copy", path: to.path)
            }
        }
        guard !sync || fsync(dst) == 0 else { throw TonightError.io("fsync", path: to.path) }
    }

    /// fsync(2) of a file written earlier (through another descriptor: the data of the file
    /// is flushed, whichever descriptor wrote it).
    package static func syncFile(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TonightError.io("open", path: url.path) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw TonightError.io("fsync", path: url.path) }
    }

    /// The read/write fallback of `copyFile`, from the current offsets.
    private static func copyByReading(_ src: Int32, _ dst: Int32, from: URL, to: URL) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = Foundation.read(src, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw TonightError.io("read", path: from.path) }
            if n == 0 { return }
            var done = 0
            while done < n {
                let w = Foundation.write(dst, buffer.baseAddress! + done, n - done)
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw TonightError.io("write", path: to.path) }
                done += w
            }
        }
    }

    package static func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    package static func isDirectory(_ url: URL) -> Bool {
        var dir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &dir) && dir.boolValue
    }

    package static func createDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw TonightError(.io, "cannot create directory: \(error.localizedDescription)", file: url.path)
        }
    }

    package static func removeItem(_ url: URL) throws {
        guard exists(url) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw TonightError(.io, "cannot remove: \(error.localizedDescription)", file: url.path)
        }
    }

    package static func size(_ url: URL) -> Int64 {
        var st = stat()
        return stat(url.path, &st) == 0 ? Int64(st.st_size) : -1
    }

    /// Directory entries, sorted by name, hidden files skipped.
    package static func list(_ url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The entries of `list` that are not directories.
    package static func files(in url: URL) -> [String] {
        list(url).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
    }

    /// The files in `url` other than `name` whose names start, in any case, with the part of
    /// `name` before its first dot (`Users.csv`, `users-000001.csv`, `users.csv.gz` for
    /// `users.csv`; `feed-20261128.xml` for `feed.xml`): what a missing input probably is.
    package static func lookalikes(of name: String, in url: URL) -> [String] {
        let stem = String(name.prefix { $0 != "." }).lowercased()
        return files(in: url).filter { $0 != name && $0.lowercased().hasPrefix(stem) }
    }
}

/// A file written in pieces (write(2) loop), closed explicitly so errors are not lost.
/// Sendable so that a writer thread can own it; one thread uses it at a time.
package final class FileSink: @unchecked Sendable {
    private var fd: Int32
    let path: String

    package init(_ url: URL) throws {
        path = url.path
        fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TonightError.io("open for writing", path: url.path) }
    }

    deinit { if fd >= 0 { Foundation.close(fd) } }

    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    package func write(_ raw: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < raw.count {
            let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw TonightError.io("write", path: path)
            }
            done += n
        }
    }

    package func sync() throws {
        if fsync(fd) != 0 { throw TonightError.io("fsync", path: path) }
    }

    package func close() throws {
        let rc = Foundation.close(fd)
        fd = -1
        if rc != 0 { throw TonightError.io("close", path: path) }
    }
}
