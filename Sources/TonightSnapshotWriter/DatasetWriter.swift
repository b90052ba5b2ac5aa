import Foundation
import TonightBase
import TonightSnapshot

/// Writes one dataset of a snapshot (snapshots.md, layout in `Docs/stages/publish.md`):
///
/// - `<name>.ndjson.zst`: seekable zstd, NDJSON records in key order, whole records per frame;
/// - `<name>.index.ndjson.zst`: the key index (one line per frame: `frame`, `first`, `last`,
///   `records`), for readers in any language;
/// - layout 2 (the default) also writes `<name>.dict`, a zstd dictionary trained on the
///   dataset's first records, with which every frame is compressed (when the dataset is big
///   enough to train one), and `<name>.keys`, the binary key table the Swift reader opens in
///   constant time. Layout 1 is the earlier one (no dictionary, no key table).
///
/// With `sync`, every file is fsynced when finished (the pipeline's stages write without it:
/// their outputs are verified by SHA-256 before reuse, and `publish` syncs the copies).
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
        /// 1 or 2 (see the type's documentation).
        package var layout: Int = 1
        /// The dictionary file, when one was trained.
        package var dictionaryFile: String?
        package var dictionaryBytes: Int = 0
        package var dictionaryID: UInt32 = 0
        /// The key table file (layout 2).
        package var keyTableFile: String?
        package var keyTableBytes: Int = 0
    }

    /// The current layout: small frames compressed with a trained dictionary, binary key table.
    package static let currentLayout = 2

    package let name: String
    private let directory: URL
    private let output: FileOutput
    /// The data file's writer; in layout 2 with a dictionary to train, created once the
    /// samples are in (records are held back until then).
    private var data: SeekableZstdWriter?
    private let frameBytes: Int
    private let level: Int32
    private let sync: Bool
    package let layout: Int
    private let training: CompressionDictionary.Training
    /// The key index (`<name>.index.ndjson.zst`), a line per frame, built as frames are
    /// written: at `finish` a million frames took the largest datasets half a second on one
    /// core after everything else was done.
    private var index: SeekableZstdWriter
    private var indexedFrames = 0
    /// The frames taken from the data writer, being indexed (reused).
    private var newFrames: [SeekableZstdWriter.FrameInfo] = []
    private var line: [UInt8] = []
    /// The key table (layout 2), written block by block as frames come in (see
    /// `KeyTableWriter`); `keyBytes` holds the blocks not yet written.
    private var keyTable = KeyTableWriter()
    private let keyOutput: FileOutput?
    private var keyBytes: [UInt8] = []
    /// Frames indexed at once while records come in.
    private static let indexEvery = 4_096
    /// Records held back for training: their bytes (each with its newline) and keys.
    private var held: [UInt8] = []
    private var heldRecords: [(key: String, end: Int)] = []

    package static func fileName(_ dataset: String) -> String { "\(dataset).ndjson.zst" }
    package static func indexFileName(_ dataset: String) -> String { "\(dataset).index.ndjson.zst" }
    package static func dictionaryFileName(_ dataset: String) -> String { "\(dataset).dict" }
    package static func keyTableFileName(_ dataset: String) -> String { "\(dataset).keys" }

    /// A writer of `name` in `directory`. `dictionaryBytes` bounds the trained dictionary
    /// (0: none); layout 1 ignores it.
    package init(name: String, directory: URL, frameBytes: Int = 64 << 10, level: Int32 = 1, sync: Bool = true,
                 layout: Int = DatasetWriter.currentLayout, dictionaryBytes: Int = 0) throws {
        guard layout == 1 || layout == 2 else { throw SnapshotError(file: "(writer)", "no dataset layout \(layout)", code: .unsupported) }
        self.name = name
        self.directory = directory
        self.frameBytes = frameBytes
        self.level = level
        self.sync = sync
        self.layout = layout
        training = .init(capacity: layout == 2 ? dictionaryBytes : 0)
        index = SeekableZstdWriter(frameBytes: 64 << 10, level: level)
        let output = try FileOutput(path: directory.appendingPathComponent(Self.fileName(name)).path, sync: sync)
        self.output = output
        if layout == 2 {
            let keys = try FileOutput(path: directory.appendingPathComponent(Self.keyTableFileName(name)).path, sync: sync)
            try keys.write(keyTable.placeholder())
            keyOutput = keys
        } else {
            keyOutput = nil
        }
        if training.capacity == 0 { data = makeData(dictionary: nil) }
    }

    private func makeData(dictionary: CompressionDictionary?) -> SeekableZstdWriter {
        let output = self.output
        return SeekableZstdWriter(frameBytes: frameBytes, level: level, dictionary: dictionary, sink: { try output.write($0) })
    }

    package var records: Int { (data?.records ?? 0) + heldRecords.count }

    /// Appends one record: a JSON object (no newline) whose `key` field is `key`. Keys must
    /// come in increasing UTF-8 byte order.
    package mutating func append(key: String, json: [UInt8]) throws {
        try append(key: key, json: json[...])
    }

    /// `append` of a record in a larger buffer.
    package mutating func append(key: String, json: ArraySlice<UInt8>) throws {
        if data != nil {
            try data!.append(key: key, json: json)
            if data!.frames.count >= Self.indexEvery { try indexFrames() }
            return
        }
        if let last = heldRecords.last?.key, !UTF8Order.less(last, key) { throw SeekableZstdWriter.outOfOrder(last, key) }
        held += json
        held.append(0x0A)
        heldRecords.append((key, held.count))
        if held.count >= training.sampleBytes { try trainAndReplay() }
    }

    /// Appends records that lie back to back in `lines`, each followed by its newline (record
    /// `n` of `records` ends at `ends[n]`, under key `key(n)`): the same files as appending
    /// them one by one, without copying the frames that lie wholly in `lines`
    /// (`SeekableZstdWriter.append(lines:ends:records:key:)`). Records held back for the
    /// dictionary's training are copied as before.
    package mutating func append(lines: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>, records range: Range<Int>,
                                 key: (Int) -> String) throws {
        var n = range.lowerBound
        while data == nil && n < range.upperBound {
            let line = try SeekableZstdWriter.line(n, of: lines, ends: ends)
            let k = key(n)
            if let last = heldRecords.last?.key, !UTF8Order.less(last, k) { throw SeekableZstdWriter.outOfOrder(last, k) }
            held.append(contentsOf: UnsafeRawBufferPointer(rebasing: lines[line]))
            heldRecords.append((k, held.count))
            n += 1
            if held.count >= training.sampleBytes { try trainAndReplay() }
        }
        guard n < range.upperBound else { return }
        try data!.append(lines: lines, ends: ends, records: n..<range.upperBound, key: key)
        if data!.frames.count >= Self.indexEvery { try indexFrames() }
    }

    /// Trains the dictionary on the held records, then writes them.
    private mutating func trainAndReplay() throws {
        var sizes: [Int] = []
        sizes.reserveCapacity(heldRecords.count)
        var start = 0
        for r in heldRecords {
            sizes.append(r.end - start)
            start = r.end
        }
        let dictionary = CompressionDictionary.train(samples: held, sizes: sizes, training: training, level: level)
        var writer = makeData(dictionary: dictionary)
        start = 0
        for r in heldRecords {
            try writer.append(key: r.key, json: held[start..<(r.end - 1)])
            start = r.end
        }
        held = []
        heldRecords = []
        data = writer
    }

    /// Writes the seek table, the index and (layout 2) the dictionary and key table; syncs and
    /// closes every file.
    package mutating func finish() throws -> Summary {
        if data == nil { try trainAndReplay() }
        // Taken out of `self`, so that finishing mutates the only reference: a copy left in
        // `self.data` made the first append copy the writer's buffers (then the list of
        // every frame, a million `FrameInfo`s, and the seek table entries: ~0.2 s).
        var finishing = self.data!
        self.data = nil
        _ = try finishing.finish()
        self.data = consume finishing
        try output.syncAndClose()
        try indexFrames()
        let data = self.data!
        let indexBytes = try index.finish()
        try write(indexBytes, to: Self.indexFileName(name))
        var summary = Summary(
            name: name, file: Self.fileName(name), bytes: data.compressedBytes, records: data.records,
            frames: data.frameCount, uncompressedBytes: data.uncompressedBytes,
            indexFile: Self.indexFileName(name), indexBytes: indexBytes.count, layout: layout)
        if layout == 2 {
            if let dictionary = data.dictionary {
                try write(dictionary.bytes, to: Self.dictionaryFileName(name))
                summary.dictionaryFile = Self.dictionaryFileName(name)
                summary.dictionaryBytes = dictionary.bytes.count
                summary.dictionaryID = dictionary.id
            }
            let header = keyTable.finish(records: data.records, dataBytes: data.compressedBytes, to: &keyBytes)
            try keyOutput!.write(keyBytes)
            try keyOutput!.write(header, at: 0)
            try keyOutput!.syncAndClose()
            summary.keyTableFile = Self.keyTableFileName(name)
            summary.keyTableBytes = keyTable.fileBytes
        }
        return summary
    }

    /// Finishes every writer of `writers`, side by side on all cores (each dataset's remaining
    /// frames, key index and key table on one core), and empties the array; the summaries in
    /// the writers' order. The writers are taken `inout`: finishing copies of writers still
    /// held by the caller made each one's first append copy its buffers (its frame list,
    /// before frames were taken as they come: a million `FrameInfo`s per large dataset).
    package static func finishAll(_ writers: inout [DatasetWriter]) throws -> [Summary] {
        defer { writers = [] }
        // Worker d finishes writer d only.
        return try Parallel.writing(into: &writers, parts: writers.count) { d, writers in try writers[d].finish() }
    }

    /// Takes the frames compressed since the last call from the data writer: their key table
    /// blocks and their index lines, `{"frame":i,"first":…,"last":…,"records":n}`.
    private mutating func indexFrames() throws {
        guard data != nil else { return }
        data!.takeFrames(into: &newFrames)
        guard !newFrames.isEmpty else { return }
        if keyOutput != nil {
            keyTable.add(newFrames, to: &keyBytes)
            if !keyBytes.isEmpty {
                try keyOutput!.write(keyBytes)
                keyBytes.removeAll(keepingCapacity: true)
            }
        }
        // Literals and numbers appended as bytes (through `String` and its UTF-8 view, the
        // lines of a million frames per large dataset were ~1 % of the tickets stage).
        for f in newFrames {
            line.removeAll(keepingCapacity: true)
            Self.append(#"{"frame":"#, to: &line)
            Self.appendDecimal(indexedFrames, to: &line)
            Self.append(#","first":"#, to: &line)
            JSONKey.appendEncoded(f.first, to: &line)
            Self.append(#","last":"#, to: &line)
            JSONKey.appendEncoded(f.last, to: &line)
            Self.append(#","records":"#, to: &line)
            Self.appendDecimal(f.records, to: &line)
            line.append(UInt8(ascii: "}"))
            try index.append(key: f.first, json: line[...])
            indexedFrames += 1
        }
        newFrames.removeAll(keepingCapacity: true)
    }

    /// Appends a literal's bytes (a `StaticString`: no lazy global to check at each use).
    @inline(__always)
    static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends `v` (≥ 0) in decimal: the digits of `String(v)`.
    static func appendDecimal(_ v: Int, to out: inout [UInt8]) {
        precondition(v >= 0, "appendDecimal: a negative number")
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: an Int has at most 19 digits
        withUnsafeMutableBytes(of: &digits) { d in
            var v = v, at = d.count
            repeat {
                at -= 1
                d[at] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            } while v > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: d[at...]))
        }
    }

    private func write(_ bytes: [UInt8], to file: String) throws {
        let out = try FileOutput(path: directory.appendingPathComponent(file).path, sync: sync)
        try out.write(bytes)
        try out.syncAndClose()
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
        guard fd >= 0 else { throw SnapshotError.system("cannot create", file: path, errno: errno) }
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
            guard n > 0 else { throw SnapshotError.system("write failed", file: path, errno: n < 0 ? errno : EIO) }
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

    /// Writes `bytes` at `offset` (pwrite: the file offset is left where it is).
    func write(_ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw SnapshotError.system("write failed", file: path, errno: n < 0 ? errno : EIO) }
            done += n
        }
    }

    func syncAndClose() throws {
        flusher.sync {}
        guard !sync || fsync(fd) == 0 else { throw SnapshotError.system("fsync failed", file: path, errno: errno) }
        close(fd)
        fd = -1
    }
}
