import Foundation

/// Small POSIX file helpers with errors that name the path.
package enum FileIO {
    /// Reads a whole file.
    package static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw TonightError(.io, "cannot read file: \(error.localizedDescription)", file: url.path)
        }
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
