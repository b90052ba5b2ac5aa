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
        /// The POSIX error number of a failed system call, for the hint (`IOHint`).
        package var errno: Int32? = nil
    }

    /// An open descriptor of a regular file and its size at open.
    package static func open(_ path: String) throws -> (fd: Int32, size: Int) {
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw Failure(path: path, message: "cannot open: \(String(cString: strerror(code)))", kind: code == ENOENT ? .missing : .io, errno: code)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw Failure(path: path, message: "cannot stat: \(String(cString: strerror(code)))", kind: .io, errno: code)
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
    /// Read straight into the array's memory (no zero fill first).
    package static func read(_ path: String, maxBytes: Int = Int.max) throws -> [UInt8] {
        let (fd, size) = try open(path)
        defer { close(fd) }
        guard size <= maxBytes else { throw Failure(path: path, message: "\(size) bytes, more than \(maxBytes)", kind: .tooLarge) }
        let out = try [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            if let base = buffer.baseAddress { try readAll(fd, into: base, size: size, path: path) }
            initialized = size
        }
        try checkUnchanged(fd, size: size, path: path)
        return out
    }

    /// `read` as `Data` over the memory the file was read into: tables and exports of
    /// hundreds of megabytes were zero-filled, read, then copied into a `Data` (a tenth of
    /// the catalog stage went to the page faults and copies).
    package static func readData(_ path: String, maxBytes: Int = Int.max) throws -> Data {
        let (fd, size) = try open(path)
        defer { close(fd) }
        guard size <= maxBytes else { throw Failure(path: path, message: "\(size) bytes, more than \(maxBytes)", kind: .tooLarge) }
        guard size > 0 else {
            try checkUnchanged(fd, size: size, path: path)
            return Data()
        }
        guard let base = malloc(size) else { throw Failure(path: path, message: "cannot allocate \(size) bytes", kind: .io) }
        do {
            try readAll(fd, into: base.assumingMemoryBound(to: UInt8.self), size: size, path: path)
            try checkUnchanged(fd, size: size, path: path)
        } catch {
            free(base)
            throw error
        }
        return Data(bytesNoCopy: base, count: size, deallocator: .free)
    }

    /// Reads `size` bytes at `base`; a file shorter than that changed while it was read.
    private static func readAll(_ fd: Int32, into base: UnsafeMutablePointer<UInt8>, size: Int, path: String) throws {
        var done = 0
        while done < size {
            let n = Foundation.read(fd, base + done, size - done)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                let code = errno
                throw Failure(path: path, message: "read error: \(String(cString: strerror(code)))", kind: .io, errno: code)
            }
            guard n > 0 else { throw changed(path) }
            done += n
        }
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
