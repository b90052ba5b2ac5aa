import CZstd
import Foundation
import TonightBase

/// A file in the Zstandard seekable format (zstd's `contrib/seekable_format`): independent
/// frames followed by a seek table in a skippable frame. Opening reads only the seek table;
/// each frame read is decompressed on its own and its content checksum verified by libzstd.
/// Safe to share across threads: reads use `pread` and a per-call decompression context.
public final class SeekableZstdFile: @unchecked Sendable {
    /// One frame of the file.
    public struct Frame: Sendable, Equatable {
        /// Byte offset of the compressed frame in the file.
        public var offset: Int
        /// Bytes of the compressed frame.
        public var compressedSize: Int
        /// Bytes once decompressed.
        public var decompressedSize: Int
        /// The seek table's checksum (low 32 bits of the content's XXH64), if recorded.
        public var checksum: UInt32?
    }

    package static let skippableMagic: UInt32 = 0x184D_2A5E
    package static let seekableMagic: UInt32 = 0x8F92_EAB1

    /// The file's path.
    public let path: String
    /// The frames in file order.
    public let frames: [Frame]
    private let fd: Int32
    private let contexts = DecompressionContexts()
    private let dictionary: DecompressionDictionary?

    /// Opens a file and reads its seek table.
    public convenience init(path: String) throws {
        try self.init(path: path, dictionary: nil)
    }

    /// Opens a file whose frames were compressed with `dictionary` (a layout-2 dataset file
    /// read in order, as the shard merge and `runs dump` do).
    package init(path: String, dictionary: DecompressionDictionary?) throws {
        self.path = path
        self.dictionary = dictionary
        fd = try SnapshotError.reading { try RegularFile.open(path).fd }
        do {
            frames = try Self.readSeekTable(fd: fd, path: path)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    static func pread(_ fd: Int32, _ count: Int, at offset: Int, path: String) throws -> [UInt8] {
        var buf = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buf.withUnsafeMutableBytes { Foundation.pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw readFailure(n, at: offset + done, path: path) }
            done += n
        }
        return buf
    }

    /// Fills `buffer` from `offset` (a short read is an error).
    static func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws {
        var done = 0
        while done < buffer.count {
            let n = Foundation.pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw readFailure(n, at: offset + done, path: path) }
            done += n
        }
    }

    /// A read that returned `n` ≤ 0: end of file is a file shorter than it says (corrupt), a
    /// failed call an I/O error with its error number (it was said to be a short read, as if
    /// the data were corrupt).
    static func readFailure(_ n: Int, at byte: Int, path: String) -> SnapshotError {
        n < 0 ? .system("read failed at byte \(byte)", file: path, errno: errno) : SnapshotError(file: path, "short read at byte \(byte)")
    }

    package static func le32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    private static func readSeekTable(fd: Int32, path: String) throws -> [Frame] {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SnapshotError.system("cannot stat", file: path, errno: errno) }
        let size = Int(st.st_size)
        guard size >= 17 else { throw SnapshotError(file: path, "too short for a seekable zstd file (\(size) bytes)") }
        let footer = try pread(fd, 9, at: size - 9, path: path)
        guard le32(footer, 5) == seekableMagic else {
            throw SnapshotError(file: path, "no seek table (seekable magic number missing): not a seekable zstd file")
        }
        let count = Int(le32(footer, 0))
        let descriptor = footer[4]
        let hasChecksums = descriptor & 0x80 != 0
        guard descriptor & 0x7C == 0 else { throw SnapshotError(file: path, "corrupt seek table descriptor") }
        let entrySize = hasChecksums ? 12 : 8
        let tableSize = count * entrySize + 9
        guard count >= 0, tableSize + 8 <= size else { throw SnapshotError(file: path, "corrupt seek table (\(count) frames)") }
        let start = size - tableSize - 8
        let table = try pread(fd, tableSize + 8, at: start, path: path)
        guard le32(table, 0) == skippableMagic, Int(le32(table, 4)) == tableSize else {
            throw SnapshotError(file: path, "corrupt seek table (skippable frame header)")
        }
        var frames: [Frame] = []
        frames.reserveCapacity(count)
        var offset = 0
        for i in 0..<count {
            let at = 8 + i * entrySize
            let c = Int(le32(table, at)), d = Int(le32(table, at + 4))
            frames.append(Frame(offset: offset, compressedSize: c, decompressedSize: d,
                                checksum: hasChecksums ? le32(table, at + 8) : nil))
            offset += c
        }
        guard offset == start else {
            throw SnapshotError(file: path, "seek table does not match the file (frames end at \(offset), table at \(start))")
        }
        return frames
    }

    /// The decompressed content of frame `i`; corrupt data is an error, never returned.
    public func frame(_ i: Int) throws -> [UInt8] {
        guard i >= 0 && i < frames.count else { throw SnapshotError(file: path, "no frame \(i)") }
        let f = frames[i]
        let compressed = try Self.pread(fd, f.compressedSize, at: f.offset, path: path)
        // Check the frame's own declared size before allocating (a corrupt table could ask for 4 GB).
        let declared = compressed.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        guard declared == UInt64(f.decompressedSize) else {
            throw SnapshotError(file: path, "frame \(i) is corrupt: its header and the seek table disagree on its size")
        }
        var out = [UInt8](repeating: 0, count: f.decompressedSize)
        let rc = try contexts.with { dctx in
            out.withUnsafeMutableBytes { o in
                compressed.withUnsafeBytes { c in
                    ZSTD_decompress_usingDDict(dctx, o.baseAddress, o.count, c.baseAddress, c.count, dictionary?.ddict)
                }
            }
        }
        if ZSTD_isError(rc) != 0 {
            throw SnapshotError(file: path, "frame \(i) is corrupt: \(String(cString: ZSTD_getErrorName(rc)))")
        }
        guard rc == f.decompressedSize else {
            throw SnapshotError(file: path, "frame \(i) decompressed to \(rc) bytes, the seek table says \(f.decompressedSize)")
        }
        // The frame's own checksum (verified by libzstd) must also be the seek table's.
        if let sum = f.checksum, compressed.count >= 4, Self.le32(compressed, compressed.count - 4) != sum {
            throw SnapshotError(file: path, "frame \(i) checksum differs from the seek table")
        }
        return out
    }
}
