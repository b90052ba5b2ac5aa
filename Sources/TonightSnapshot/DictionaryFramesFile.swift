import CZstd
import Foundation
import TonightBase

/// A layout-2 dataset file: small seekable-zstd frames compressed with the dataset's trained
/// dictionary, found through the binary key table (`KeyTable`) instead of the seek table, so
/// that opening reads a few hundred kilobytes whatever the number of frames. Every frame read
/// is checked: its header's size and the table's, libzstd's content checksum, and the table's
/// copy of that checksum. Safe to share across threads (a read-only mapping for lookups,
/// `pread` for scans, pooled contexts).
///
/// Lookups read frames from a read-only `mmap` of the file: at a few kilobytes a frame, the `pread` system call was a fifth of a warm
/// lookup. Snapshot files are never modified in place (a publish writes new ones), so the
/// mapping stays valid for the life of the value, after retention too.
final class DictionaryFramesFile: @unchecked Sendable {
    let path: String
    let table: KeyTable
    private let fd: Int32
    private let tableFD: Int32
    private let contexts = DecompressionContexts()
    /// Buffers (after a copy of the dictionary, if any) for lookups and scans.
    let outputs: PrefixedOutputs
    private let map: UnsafeRawBufferPointer

    /// Opens the data file, its key table and its dictionary (nil: frames without one).
    init(path: String, keyTablePath: String, dictionary: DecompressionDictionary?) throws {
        self.path = path
        outputs = PrefixedOutputs(dictionary: dictionary)
        let (fd, size) = try SnapshotError.reading { try RegularFile.open(path) }
        self.fd = fd
        do {
            let (tfd, tsize) = try SnapshotError.reading { try RegularFile.open(keyTablePath) }
            tableFD = tfd
            do {
                table = try KeyTable(fd: tfd, path: keyTablePath, fileSize: tsize)
            } catch {
                close(tfd)
                throw error
            }
        } catch {
            close(fd)
            throw error
        }
        guard table.dataBytes == size, size > 0, let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            let code = errno
            close(fd)
            close(tableFD)
            if table.dataBytes != size {
                throw SnapshotError(file: keyTablePath, "key table describes a data file of \(table.dataBytes) bytes; \(path) has \(size)")
            }
            if size == 0 { throw SnapshotError(file: path, "empty data file (a dataset file holds at least its seek table)") }
            throw SnapshotError.system("cannot map the file", file: path, errno: code)
        }
        map = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: map.baseAddress), map.count)
        close(fd)
        close(tableFD)
    }

    /// Decompresses one frame from `compressed` (its bytes), checking it against `entry`.
    func decompress(_ compressed: UnsafeRawBufferPointer, entry: KeyTable.Frame, index i: Int) throws -> [UInt8] {
        try contexts.with { try decompress(compressed, entry: entry, index: i, context: $0) }
    }

    /// `decompress` with a context the caller holds (a scan takes one for all its frames:
    /// the pool's lock and bookkeeping per 2 KiB frame were ~2.5 % of a verification pass).
    /// The frame is decompressed into a buffer of the pool (after a copy of the dictionary,
    /// `PrefixedOutput`) and copied out: a copy of 2 KiB costs less than the calls to
    /// `memmove` that decompressing with the dictionary as a separate segment makes.
    private func decompress(_ compressed: UnsafeRawBufferPointer, entry: KeyTable.Frame, index i: Int, context dctx: OpaquePointer) throws -> [UInt8] {
        try outputs.with(path: path) { Array(try decompress(compressed, into: $0, entry: entry, index: i, context: dctx)) }
    }

    /// Decompresses one frame into `prefixed` (right after its copy of the dictionary, if
    /// any; the buffer grown first if the frame is larger) and checks it: the header's size
    /// against the key table's *before* the buffer is sized from it (a damaged table could ask
    /// for gigabytes), then libzstd's content checksum, the size, the table's copy of that
    /// checksum. The bytes are valid until the buffer is used again.
    private func decompress(
        _ compressed: UnsafeRawBufferPointer, into prefixed: PrefixedOutput, entry: KeyTable.Frame, index i: Int, context dctx: OpaquePointer
    ) throws -> UnsafeBufferPointer<UInt8> {
        let declared = ZSTD_getFrameContentSize(compressed.baseAddress, compressed.count)
        guard declared == UInt64(entry.decompressedSize) else {
            throw SnapshotError(file: path, "frame \(i) is corrupt: its header and the key table disagree on its size")
        }
        let out = try prefixed.output(atLeast: entry.decompressedSize, path: path)
        let rc = ZSTD_decompress_usingDDict(dctx, out.baseAddress, out.count, compressed.baseAddress, compressed.count, prefixed.ddict)
        if ZSTD_isError(rc) != 0 {
            throw SnapshotError(file: path, "frame \(i) is corrupt: \(String(cString: ZSTD_getErrorName(rc)))")
        }
        guard rc == entry.decompressedSize else {
            throw SnapshotError(file: path, "frame \(i) decompressed to \(rc) bytes, the key table says \(entry.decompressedSize)")
        }
        let sum = UInt32(littleEndian: compressed.loadUnaligned(fromByteOffset: compressed.count - 4, as: UInt32.self))
        guard sum == entry.checksum else { throw SnapshotError(file: path, "frame \(i) checksum differs from the key table") }
        return UnsafeBufferPointer(start: out.baseAddress!.assumingMemoryBound(to: UInt8.self), count: rc)
    }

    /// Frame `i` as `entry` describes it, decompressed and checked.
    func frame(_ i: Int, entry: KeyTable.Frame) throws -> [UInt8] {
        guard entry.compressedSize >= 4, entry.offset <= map.count - entry.compressedSize else {
            throw SnapshotError(file: path, "frame \(i) lies outside the file")
        }
        return try decompress(UnsafeRawBufferPointer(rebasing: map[entry.offset..<(entry.offset + entry.compressedSize)]), entry: entry, index: i)
    }

    /// Every frame in file order, a key-table block at a time (one read per block).
    func forEachFrame(_ body: (Int, KeyTable.Frame, [UInt8], [UInt8]) throws -> Void) throws {
        try forEachFrame(in: 0..<table.frames, body)
    }

    /// The frames of `range` in file order, read a key-table block at a time (a range that
    /// starts and ends on block boundaries reads only its own blocks).
    func forEachFrame(in range: Range<Int>, _ body: (Int, KeyTable.Frame, [UInt8], [UInt8]) throws -> Void) throws {
        guard !range.isEmpty else { return }
        try contexts.with { try forEachFrame(in: range, context: $0, body) }
    }

    private func forEachFrame(in range: Range<Int>, context: OpaquePointer, _ body: (Int, KeyTable.Frame, [UInt8], [UInt8]) throws -> Void) throws {
        try forEachCompressedFrame(in: range) { i, e, compressed, first in
            try body(i, e, try decompress(compressed, entry: e, index: i, context: context), Array(first))
        }
    }

    /// The frames of `range` in file order, each decompressed into one buffer reused for all
    /// of them (after a copy of the dictionary if any, taken from the file's pool: `PrefixedOutput`)
    /// and lent to `body` for the call with the key table's first key: a scan that keeps no
    /// frame (`verify`) made and freed two arrays per 2 KiB frame (allocation ~3 % of a
    /// verification's CPU).
    func scanFrames(
        in range: Range<Int>, _ body: (Int, KeyTable.Frame, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        guard !range.isEmpty else { return }
        try outputs.with(path: path) { prefixed in
            try contexts.with { context in
                try forEachCompressedFrame(in: range) { i, e, compressed, first in
                    try body(i, e, try decompress(compressed, into: prefixed, entry: e, index: i, context: context), first)
                }
            }
        }
    }

    /// The compressed frames of `range` in file order, a key-table block read at a time (a
    /// range that starts and ends on block boundaries reads only its own blocks), each lent
    /// to `body` with its entry and the table's first key.
    private func forEachCompressedFrame(
        in range: Range<Int>, _ body: (Int, KeyTable.Frame, UnsafeRawBufferPointer, UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        var buffer: [UInt8] = []
        let blocks = (range.lowerBound / table.blockFrames)..<min(table.blockCount, (range.upperBound + table.blockFrames - 1) / table.blockFrames)
        for b in blocks {
            let firstFrame = b * table.blockFrames
            try table.withFrames(ofBlock: b) { block in
                // The block's frames inside `range`.
                let lo = max(0, range.lowerBound - firstFrame), hi = min(block.count, range.upperBound - firstFrame)
                guard lo < hi else { return }
                let first = block.frame(lo), last = block.frame(hi - 1)
                let start = first.offset, end = last.offset + last.compressedSize
                guard start >= 0, end <= table.dataBytes, end >= start else { throw SnapshotError(file: path, "block \(b) lies outside the file") }
                if buffer.count < end - start { buffer = [UInt8](repeating: 0, count: end - start) }
                try buffer.withUnsafeMutableBytes {
                    try SeekableZstdFile.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(end - start)]), at: start, path: path)
                }
                for k in lo..<hi {
                    let e = block.frame(k), i = firstFrame + k
                    guard e.offset >= start, e.compressedSize >= 4, e.offset + e.compressedSize <= end else {
                        throw SnapshotError(file: path, "frame \(i) lies outside its block")
                    }
                    try buffer.withUnsafeBytes {
                        try body(i, e, UnsafeRawBufferPointer(rebasing: $0[(e.offset - start)..<(e.offset - start + e.compressedSize)]), block.key(k))
                    }
                }
            }
        }
    }
}
