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
    }

    package let frameBytes: Int
    package let level: Int32
    private var pending: [UInt8] = []
    private var pendingFirst: String?
    private var pendingLast: String?
    private var pendingRecords = 0
    private var lastKey: String?
    /// Uncompressed frames waiting to be compressed (in batches on all cores).
    private var raw: [([UInt8], FrameInfo)] = []
    package private(set) var frames: [FrameInfo] = []
    /// The seek table entries: compressed size, decompressed size, checksum.
    private var entries: [(UInt32, UInt32, UInt32)] = []
    private var output: [UInt8] = []
    /// The compressed frames of a batch on their way to the sink (reused: a fresh megabyte
    /// per batch made glibc's heap grow by hundreds of megabytes over a big dataset).
    private var chunk: [UInt8] = []
    private let sink: (([UInt8]) throws -> Void)?
    package private(set) var records = 0
    package private(set) var uncompressedBytes = 0
    package private(set) var compressedBytes = 0

    package init(frameBytes: Int = 64 << 10, level: Int32 = 1, sink: (([UInt8]) throws -> Void)? = nil) {
        self.frameBytes = frameBytes
        self.level = level
        self.sink = sink
    }

    /// Appends one record (a JSON object without the newline) under `key`; keys must come in
    /// increasing UTF-8 byte order, without repeats.
    package mutating func append(key: String, json: [UInt8]) throws {
        try append(key: key, json: json[...])
    }

    /// `append` of a record in a larger buffer (a concrete type: a generic collection
    /// parameter is not specialised across modules and copied byte by byte).
    package mutating func append(key: String, json: ArraySlice<UInt8>) throws {
        if let last = lastKey, !Self.less(last, key) {
            throw SnapshotError(file: "(writer)", "keys out of order or repeated: '\(last)' then '\(key)'")
        }
        let size = json.count + 1
        if !pending.isEmpty && pending.count + size > frameBytes { try closeFrame() }
        if pending.isEmpty { pendingFirst = key }
        pending.append(contentsOf: json)
        pending.append(0x0A)
        pendingLast = key
        lastKey = key
        pendingRecords += 1
        records += 1
        uncompressedBytes += size
    }

    /// Byte-wise comparison of UTF-8 (Swift's String `<` compares by Unicode scalar value,
    /// which is the same order for valid UTF-8, but this states the contract).
    static func less(_ a: String, _ b: String) -> Bool { UTF8Order.less(a, b) }

    private mutating func closeFrame() throws {
        guard !pending.isEmpty else { return }
        raw.append((pending, FrameInfo(first: pendingFirst!, last: pendingLast!, records: pendingRecords, bytes: pending.count)))
        pending = []
        pendingRecords = 0
        pendingFirst = nil
        pendingLast = nil
        if raw.count >= 64 { try compressPending() }
    }

    private mutating func compressPending() throws {
        let batch = raw
        raw = []
        let level = self.level
        let workers = min(batch.count, Parallel.width)
        // Worker w compresses frames w, w + workers, …, with one context of its own (creating
        // one per frame costs ~10 % at 64 KiB frames).
        let parts = try Parallel.map(workers) { w -> [[UInt8]?] in
            guard let cctx = ZSTD_createCCtx() else { return [] }
            defer { ZSTD_freeCCtx(cctx) }
            return stride(from: w, to: batch.count, by: workers).map { Self.compress(batch[$0].0, level: level, cctx: cctx) }
        }
        chunk.removeAll(keepingCapacity: true)
        for i in batch.indices {
            let (w, k) = (i % workers, i / workers)
            guard k < parts[w].count, let r = parts[w][k], r.count >= 4 else {
                throw SnapshotError(file: "(writer)", "zstd compression failed")
            }
            // The frame's content checksum (its last 4 bytes) is the low 32 bits of XXH64.
            entries.append((UInt32(r.count), UInt32(batch[i].1.bytes), SeekableZstdFile.le32(r, r.count - 4)))
            frames.append(batch[i].1)
            compressedBytes += r.count
            if sink != nil { chunk.append(contentsOf: r) } else { output.append(contentsOf: r) }
        }
        if let sink, !chunk.isEmpty { try sink(chunk) }
    }

    static func compress(_ data: [UInt8], level: Int32, cctx: OpaquePointer) -> [UInt8]? {
        ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1)
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(data.count))
        let n = out.withUnsafeMutableBytes { o in
            data.withUnsafeBytes { d in ZSTD_compress2(cctx, o.baseAddress, o.count, d.baseAddress, d.count) }
        }
        guard ZSTD_isError(n) == 0 else { return nil }
        out.removeLast(out.count - n)
        return out
    }

    /// Finishes the file: the last frames, then the seek table. Returns the whole file
    /// without a sink; with one, hands the rest to it and returns an empty array.
    package mutating func finish() throws -> [UInt8] {
        try closeFrame()
        try compressPending()
        var table: [UInt8] = []
        table.reserveCapacity(entries.count * 12 + 17)
        func le32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { table.append(contentsOf: $0) } }
        le32(SeekableZstdFile.skippableMagic)
        le32(UInt32(entries.count * 12 + 9))
        for (c, d, sum) in entries {
            le32(c)
            le32(d)
            le32(sum)
        }
        le32(UInt32(entries.count))
        table.append(0x80)  // checksums present
        le32(SeekableZstdFile.seekableMagic)
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
