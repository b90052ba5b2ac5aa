import Foundation

/// Opens files that must be regular files: a FIFO, a device or a directory where a file is
/// expected is an error at once (opened non-blocking, checked with `fstat`), never a hang;
/// a file that changes size while it is read is an error, never a short or torn value.
package enum RegularFile {
    /// Why a file could not be read.
    package struct Failure: Error, Sendable {
        package enum Kind: Sendable { case missing, io, notRegular, tooLarge, changed }
        package var path: String
        package var message: String
        package var kind: Kind
    }

    /// An open descriptor of a regular file and its size at open.
    package static func open(_ path: String) throws -> (fd: Int32, size: Int) {
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw Failure(path: path, message: "cannot open: \(String(cString: strerror(errno)))", kind: errno == ENOENT ? .missing : .io)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw Failure(path: path, message: "cannot stat: \(String(cString: strerror(errno)))", kind: .io)
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw Failure(path: path, message: "not a regular file (a directory, FIFO or device)", kind: .notRegular)
        }
        // Regular files never block; clear the flag so reads behave as usual.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, Int(st.st_size))
    }

    /// The whole file, refusing one larger than `maxBytes` or one that changes while read.
    package static func read(_ path: String, maxBytes: Int = Int.max) throws -> [UInt8] {
        let (fd, size) = try open(path)
        defer { close(fd) }
        guard size <= maxBytes else { throw Failure(path: path, message: "\(size) bytes, more than \(maxBytes)", kind: .tooLarge) }
        var out = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = out.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + done, size - done) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(path: path, message: "read error: \(String(cString: strerror(errno)))", kind: .io) }
            guard n > 0 else { throw changed(path) }
            done += n
        }
        try checkUnchanged(fd, size: size, path: path)
        return out
    }

    /// Throws when the file's size is no longer `size` (it was truncated or appended to).
    package static func checkUnchanged(_ fd: Int32, size: Int, path: String) throws {
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) == size else { throw changed(path) }
    }

    package static func changed(_ path: String) -> Failure {
        Failure(path: path, message: "the file changed size while it was read (replaced or truncated in place?)", kind: .changed)
    }
}
