import CZstd
import Foundation
import TonightBase
import TonightSnapshot

/// Writes the Zstandard seekable format: whole NDJSON records per frame (at most
/// `frameBytes` of them, one larger record alone), content checksums on, frames compressed
/// on all cores, the seek table (with each frame's checksum) last. Same input, same bytes.
///
/// Without a sink the file is built in memory and returned by `finish()`; with one, compressed
/// frames are handed to the sink as each batch is done, so memory stays bounded by a batch.
package struct SeekableZstdWriter {
    package struct FrameInfo: Sendable, Equatable {
        package var first: String
        package var last: String
        package var records: Int
        /// Uncompressed bytes of the frame.
        package var bytes: Int
        /// Bytes of the compressed frame (set once it is compressed).
        package var compressedSize = 0
        /// The frame's content checksum: the low 32 bits of its XXH64 (set once compressed).
        package var checksum: UInt32 = 0

        package init(first: String, last: String, records: Int, bytes: Int) {
            (self.first, self.last, self.records, self.bytes) = (first, last, records, bytes)
        }
    }

    package let frameBytes: Int
    package let level: Int32
    /// The dictionary every frame is compressed with (its id is in each frame's header).
    package let dictionary: CompressionDictionary?
    /// Uncompressed frames waiting to be compressed (in batches on all cores), back to back;
    /// the open frame is the tail from `pendingStart`.
    var raw: [UInt8] = []
    var rawFrames: [(range: Range<Int>, info: FrameInfo)] = []
    var pendingStart = 0
    var pendingFirst: String?
    var pendingLast: String?
    var pendingRecords = 0
    private(set) var lastKey: String?
    /// The frames compressed since the last `takeFrames` (every frame, for a writer whose
    /// frames nobody takes). A dataset's writer takes them as they come: a list of every
    /// frame (a million in the largest datasets) grew by doubling, each step a copy into
    /// fresh memory, and was held to the end.
    package private(set) var frames: [FrameInfo] = []
    /// Frames compressed so far, taken or not.
    package private(set) var frameCount = 0
    /// The seek table entries: compressed size, decompressed size, checksum.
    private var entries: [(UInt32, UInt32, UInt32)] = []
    private var output: [UInt8] = []
    /// The compressed frames of a batch on their way to the sink (reused: a fresh megabyte
    /// per batch made glibc's heap grow by hundreds of megabytes over a big dataset).
    private var chunk: [UInt8] = []
    private let sink: (([UInt8]) throws -> Void)?
    /// Contexts kept across batches (configured for `level` and `dictionary`).
    private let contexts: CompressionContexts
    /// The workers' output buffers, kept across batches.
    private let buffers = FrameBuffers(workers: Parallel.width)
    package private(set) var records = 0
    package private(set) var uncompressedBytes = 0
    package private(set) var compressedBytes = 0

    package init(frameBytes: Int = 64 << 10, level: Int32 = 1, dictionary: CompressionDictionary? = nil,
                 sink: (([UInt8]) throws -> Void)? = nil) {
        self.frameBytes = frameBytes
        self.level = level
        self.dictionary = dictionary
        self.sink = sink
        contexts = CompressionContexts(level: level, dictionary: dictionary)
    }

    /// Appends one record (a JSON object without the newline) under `key`; keys must come in
    /// increasing UTF-8 byte order, without repeats.
    package mutating func append(key: String, json: [UInt8]) throws {
        try append(key: key, json: json[...])
    }

    /// `append` of a record in a larger buffer (a concrete type: a generic collection
    /// parameter is not specialised across modules and copied byte by byte).
    package mutating func append(key: String, json: ArraySlice<UInt8>) throws {
        if let last = lastKey, !Self.less(last, key) { throw Self.outOfOrder(last, key) }
        let size = json.count + 1
        if pendingRecords > 0 && raw.count - pendingStart + size > frameBytes { try closeFrame() }
        if pendingRecords == 0 { pendingFirst = key }
        raw.append(contentsOf: json)
        raw.append(0x0A)
        pendingLast = key
        pendingRecords += 1
        counted(key, bytes: size)
    }

    /// Counts a record of `bytes` bytes (its newline included) as appended under `key`.
    @inline(__always)
    mutating func counted(_ key: String, bytes: Int) {
        lastKey = key
        records += 1
        uncompressedBytes += bytes
    }

    /// Byte-wise comparison of UTF-8 (Swift's String `<` compares by Unicode scalar value,
    /// which is the same order for valid UTF-8, but this states the contract).
    static func less(_ a: String, _ b: String) -> Bool { UTF8Order.less(a, b) }

    static func outOfOrder(_ last: String, _ key: String) -> SnapshotError {
        SnapshotError(file: "(writer)", "keys out of order or repeated: '\(last)' then '\(key)'")
    }

    mutating func closeFrame() throws {
        guard pendingRecords > 0 else { return }
        let range = pendingStart..<raw.count
        rawFrames.append((range, FrameInfo(first: pendingFirst!, last: pendingLast!, records: pendingRecords, bytes: range.count)))
        pendingStart = raw.count
        pendingRecords = 0
        pendingFirst = nil
        pendingLast = nil
        // Batches of ~4 MiB whatever the frame size: small frames in batches of 64 would spend
        // more on starting the workers than on compressing.
        if raw.count >= 4 << 20 { try compressPending() }
    }

    /// Appends the frames compressed since the last call to `out` and forgets them (their
    /// count stays in `frameCount`).
    package mutating func takeFrames(into out: inout [FrameInfo]) {
        guard out.isEmpty else {
            out.append(contentsOf: frames)
            frames.removeAll(keepingCapacity: true)
            return
        }
        // Into an empty list the frames move whole (copying them retained and released two
        // strings a frame), and the list's storage comes back for the next frames.
        swap(&out, &frames)
    }

    /// Compresses the closed frames waiting in `raw`, then `lent`'s (ranges of `lines`, which
    /// follow them in the file), on all cores; hands them to the sink (or keeps them) in order
    /// and moves the open frame to the front of `raw`.
    mutating func compressPending(lent: [(range: Range<Int>, info: FrameInfo)] = [],
                                  in lines: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) throws {
        let count = rawFrames.count + lent.count
        guard count > 0 else { return }
        let workers = min(count, buffers.workers)
        // Worker w compresses frames w, w + workers, …, into its buffer, with one context
        // configured once (level, checksum, dictionary: only the session is reset between
        // frames; a full reset per frame cost ~10 % at 64 KiB and more at 2 KiB).
        let ends = try raw.withUnsafeBytes { held in
            var sources = rawFrames.map { SharedReadBuffer(UnsafeBufferPointer(rebasing: held.assumingMemoryBound(to: UInt8.self)[$0.range])) }
            sources += lent.map { SharedReadBuffer(UnsafeBufferPointer(rebasing: lines.assumingMemoryBound(to: UInt8.self)[$0.range])) }
            return try Self.compress(sources, contexts: contexts, into: buffers, workers: workers)
        }
        // The open frame's bytes move to the front of the buffer (no other reference to it is
        // alive here, so this does not copy).
        raw.removeSubrange(0..<pendingStart)

        pendingStart = 0
        chunk.removeAll(keepingCapacity: true)
        for i in 0..<count {
            let (w, k) = (i % workers, i / workers)
            guard let mine = ends[w], k < mine.count else {
                throw SnapshotError(file: "(writer)", "zstd compression failed")
            }
            let r = buffers.bytes(w, (k == 0 ? 0 : mine[k - 1])..<mine[k])
            var info = i < rawFrames.count ? rawFrames[i].info : lent[i - rawFrames.count].info
            info.compressedSize = r.count
            // The frame's content checksum (its last 4 bytes) is the low 32 bits of XXH64.
            info.checksum = r.loadUnaligned(fromByteOffset: r.count - 4, as: UInt32.self).littleEndian
            entries.append((UInt32(r.count), UInt32(info.bytes), info.checksum))
            frames.append(info)
            compressedBytes += r.count
            if sink != nil { chunk.append(contentsOf: r) } else { output.append(contentsOf: r) }
        }
        frameCount += count
        // Emptied in place, its capacity kept for the next batch.
        rawFrames.removeAll(keepingCapacity: true)
        if let sink, !chunk.isEmpty { try sink(chunk) }
    }

    /// Compresses `sources` (a batch's frames, in order) on `workers` threads; worker w's
    /// frames w, w + workers, … back to back in its buffer of `buffers`. Returns each
    /// worker's frame ends (nil: zstd failed).
    private static func compress(_ sources: [SharedReadBuffer<UInt8>], contexts: CompressionContexts,
                                 into buffers: FrameBuffers, workers: Int) throws -> [[Int]?] {
        try Parallel.map(workers) { w -> [Int]? in
            let mine = stride(from: w, to: sources.count, by: workers)
            // Room for every frame's bound at once.
            let out = buffers.buffer(w, atLeast: mine.reduce(0) { $0 + ZSTD_compressBound(sources[$1].buffer.count) })
            return contexts.with { cctx -> [Int]? in
                var ends: [Int] = []
                var end = 0
                for i in mine {
                    let source = sources[i].buffer
                    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_only)
                    let n = ZSTD_compress2(cctx, out + end, ZSTD_compressBound(source.count), source.baseAddress, source.count)
                    guard ZSTD_isError(n) == 0, n >= 4 else { return nil }
                    end += n
                    ends.append(end)
                }
                return ends
            } ?? nil
        }
    }

    /// Finishes the file: the last frames, then the seek table. Returns the whole file
    /// without a sink; with one, hands the rest to it and returns an empty array.
    package mutating func finish() throws -> [UInt8] {
        try closeFrame()
        try compressPending()
        // Stored in place: appending a million entries four bytes at a time took 0.07 s at
        // the end of a large dataset.
        let tableBytes = entries.count * 12 + 17
        let table = [UInt8](unsafeUninitializedCapacity: tableBytes) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var at = 0
            func le32(_ v: UInt32) {
                raw.storeBytes(of: v.littleEndian, toByteOffset: at, as: UInt32.self)
                at += 4
            }
            le32(SeekableZstdFile.skippableMagic)
            le32(UInt32(entries.count * 12 + 9))
            for (c, d, sum) in entries {
                le32(c)
                le32(d)
                le32(sum)
            }
            le32(UInt32(entries.count))
            raw[at] = 0x80  // checksums present
            at += 1
            le32(SeekableZstdFile.seekableMagic)
            count = at
        }
        compressedBytes += table.count
        if let sink {
            try sink(table)
            return []
        }
        output.append(contentsOf: table)
        defer { output = [] }
        return output
    }
}
