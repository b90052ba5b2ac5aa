import Foundation
import TonightBase
import TonightSnapshot

/// Writes one dataset of a snapshot: `<name>.ndjson.zst` (seekable zstd, NDJSON records in key
/// order, whole records per frame) and its key index `<name>.index.ndjson.zst` (one line per
/// frame: `frame`, `first`, `last`, `records`). With `sync`, both files are fsynced when
/// finished (the pipeline's stages write without it: their outputs are verified by SHA-256
/// before reuse, and `publish` syncs the copies it publishes).
package struct DatasetWriter {
    /// What was written.
    package struct Summary: Sendable, Equatable {
        package var name: String
        package var file: String
        package var bytes: Int
        package var records: Int
        package var frames: Int
        package var uncompressedBytes: Int
        package var indexFile: String
        package var indexBytes: Int
    }

    package let name: String
    private let directory: URL
    private let output: FileOutput
    private var data: SeekableZstdWriter
    private let frameBytes: Int
    private let level: Int32
    private let sync: Bool

    package static func fileName(_ dataset: String) -> String { "\(dataset).ndjson.zst" }
    package static func indexFileName(_ dataset: String) -> String { "\(dataset).index.ndjson.zst" }

    package init(name: String, directory: URL, frameBytes: Int = 64 << 10, level: Int32 = 1, sync: Bool = true) throws {
        self.name = name
        self.directory = directory
        self.frameBytes = frameBytes
        self.level = level
        self.sync = sync
        let output = try FileOutput(path: directory.appendingPathComponent(Self.fileName(name)).path, sync: sync)
        self.output = output
        data = SeekableZstdWriter(frameBytes: frameBytes, level: level, sink: { try output.write($0) })
    }

    package var records: Int { data.records }

    /// Appends one record: a JSON object (no newline) whose `key` field is `key`. Keys must
    /// come in increasing UTF-8 byte order.
    package mutating func append(key: String, json: [UInt8]) throws {
        try data.append(key: key, json: json[...])
    }

    /// `append` of a record in a larger buffer.
    package mutating func append(key: String, json: ArraySlice<UInt8>) throws {
        try data.append(key: key, json: json)
    }

    /// Writes the seek table and the index; syncs and closes both files.
    package mutating func finish() throws -> Summary {
        _ = try data.finish()
        try output.syncAndClose()
        var index = SeekableZstdWriter(frameBytes: frameBytes, level: level)
        for (i, f) in data.frames.enumerated() {
            var line = Array(#"{"frame":"#.utf8) + Array(String(i).utf8) + Array(#","first":"#.utf8)
            JSONKey.appendEncoded(f.first, to: &line)
            line += Array(#","last":"#.utf8)
            JSONKey.appendEncoded(f.last, to: &line)
            line += Array(#","records":"#.utf8) + Array(String(f.records).utf8) + [UInt8(ascii: "}")]
            try index.append(key: f.first, json: line)
        }
        let indexBytes = try index.finish()
        let indexOut = try FileOutput(path: directory.appendingPathComponent(Self.indexFileName(name)).path, sync: sync)
        try indexOut.write(indexBytes)
        try indexOut.syncAndClose()
        return Summary(
            name: name, file: Self.fileName(name), bytes: data.compressedBytes, records: data.records,
            frames: data.frames.count, uncompressedBytes: data.uncompressedBytes,
            indexFile: Self.indexFileName(name), indexBytes: indexBytes.count)
    }
}

/// A file being written: created, written fully, synced (when asked), closed (or closed in
/// `deinit` if abandoned).
///
/// With `sync`, every `flushEvery` bytes a background queue starts writing the file out
/// (`fdatasync`), so that the closing `fsync` of a file of hundreds of megabytes finds little
/// left to do: the kernel would otherwise keep it all dirty until then.
final class FileOutput {
    let path: String
    private var fd: Int32
    private var unflushed = 0
    private let sync: Bool
    private let flusher = DispatchQueue(label: "tonight.file-output.flush")
    static let flushEvery = 32 << 20

    init(path: String, sync: Bool = true) throws {
        self.path = path
        self.sync = sync
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SnapshotError(file: path, "cannot create: \(String(cString: strerror(errno)))", code: .io) }
    }

    deinit {
        flusher.sync {}
        if fd >= 0 { close(fd) }
    }

    func write(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw SnapshotError(file: path, "write failed: \(String(cString: strerror(errno)))", code: .io) }
            done += n
        }
        unflushed += bytes.count
        if sync && unflushed >= Self.flushEvery {
            unflushed = 0
            let fd = self.fd  // stays open: close waits for the queue
            #if os(Linux)
            flusher.async { _ = fdatasync(fd) }
            #else
            flusher.async { _ = fsync(fd) }  // Darwin declares no fdatasync
            #endif
        }
    }

    func syncAndClose() throws {
        flusher.sync {}
        guard !sync || fsync(fd) == 0 else { throw SnapshotError(file: path, "fsync failed: \(String(cString: strerror(errno)))", code: .io) }
        close(fd)
        fd = -1
    }
}
