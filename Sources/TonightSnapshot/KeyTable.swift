import Foundation
import TonightBase

/// The binary key table of a layout-2 dataset (`<dataset>.keys`): where every frame is and the
/// first key it holds, laid out so that opening costs the same for a thousand frames or ten
/// million (a small directory is read and checked), and a lookup reads and checks one block.
///
/// Layout (little-endian):
///
/// ```
/// header (72 bytes)  "TNKT", version u32 = 1, frames u64, records u64, dataBytes u64,
///                    blockFrames u32, blocks u32, directoryOffset u64, directoryBytes u64,
///                    directoryHash u64 (XXH64 of the directory), headerHash u64 (XXH64 of the 64 bytes before)
/// blocks             block b holds frames b·blockFrames ..< min((b+1)·blockFrames, frames):
///                      n entries of 24 bytes: offset u64, compressedSize u32, decompressedSize u32,
///                                             records u32, checksum u32 (the frame's XXH64, low 32 bits)
///                      n key ends u32 (end of frame i's first key in the key bytes)
///                      key bytes (every frame's first key, UTF-8)
/// directory          per block 24 bytes: offset u64, bytes u32, reserved u32, hash u64 (XXH64 of the block);
///                    then per block a key end u32, then the key bytes (each block's first key)
/// ```
///
/// Every block is checked against the directory's hash when it is first read (then kept: at
/// most the whole table, 18 MB for a million users, stays in memory), so damaged bytes are an
/// error, never a wrong answer. The NDJSON key index beside it holds the same frames for
/// readers in other languages.
package struct KeyTable: Sendable {
    package static let magic: [UInt8] = Array("TNKT".utf8)
    package static let version: UInt32 = 1
    package static let headerBytes = 72
    package static let entryBytes = 24

    /// One frame as the table gives it.
    package struct Frame: Sendable, Equatable {
        package var offset: Int
        package var compressedSize: Int
        package var decompressedSize: Int
        package var records: Int
        package var checksum: UInt32
    }

    struct Block: Sendable {
        var offset: Int
        var bytes: Int
        var hash: UInt64
    }

    let path: String
    private let fd: Int32
    package let frames: Int
    package let records: Int
    /// The size of the data file the table describes.
    package let dataBytes: Int
    let blockFrames: Int
    private let blocks: [Block]
    /// Each block's first key: bytes `keyBounds[b]..<keyBounds[b+1]` of `keys`.
    private let keys: [UInt8]
    private let keyBounds: [Int32]
    /// Blocks read and checked so far.
    private let checked: Locked<[[UInt8]?]>

    /// Reads and checks the header and the directory. `fd` stays owned by the caller.
    package init(fd: Int32, path: String, fileSize: Int) throws {
        self.path = path
        self.fd = fd
        func corrupt(_ what: String) -> SnapshotError { SnapshotError(file: path, "key table is corrupt: \(what)") }
        guard fileSize >= Self.headerBytes else { throw corrupt("\(fileSize) bytes, shorter than its header") }
        let header = try SeekableZstdFile.pread(fd, Self.headerBytes, at: 0, path: path)
        guard Array(header[0..<4]) == Self.magic else { throw SnapshotError(file: path, "not a key table (magic number missing)") }
        let r = ByteFields(header)
        guard r.u32(4) == Self.version else {
            throw SnapshotError(file: path, "key table version \(r.u32(4)); this reader reads \(Self.version)", code: .unsupported)
        }
        guard XXH64.hash(Array(header[0..<64])) == r.u64(64) else { throw corrupt("header checksum mismatch") }
        let frames = r.int(8), records = r.int(16)
        let blockFrames = Int(r.u32(32)), blockCount = Int(r.u32(36))
        let dirOffset = r.int(40), dirBytes = r.int(48)
        guard blockFrames > 0, frames >= 0, blockCount == (frames + blockFrames - 1) / blockFrames,
              dirOffset >= Self.headerBytes, dirBytes >= blockCount * 28, dirOffset <= fileSize, dirBytes == fileSize - dirOffset
        else { throw corrupt("header fields disagree with each other or with the file's size") }
        let dir = try SeekableZstdFile.pread(fd, dirBytes, at: dirOffset, path: path)
        guard XXH64.hash(dir) == r.u64(56) else { throw corrupt("directory checksum mismatch") }
        let d = ByteFields(dir)
        var blocks: [Block] = []
        blocks.reserveCapacity(blockCount)
        var expected = Self.headerBytes
        for b in 0..<blockCount {
            let block = Block(offset: d.int(b * 24), bytes: Int(d.u32(b * 24 + 8)), hash: d.u64(b * 24 + 16))
            guard block.offset == expected, block.bytes >= Self.entryBytes + 4, block.offset + block.bytes <= dirOffset else {
                throw corrupt("block \(b) is out of place")
            }
            expected += block.bytes
            blocks.append(block)
        }
        guard expected == dirOffset else { throw corrupt("blocks do not end where the directory starts") }
        let endsAt = blockCount * 24
        let keysAt = endsAt + blockCount * 4
        var bounds: [Int32] = [0]
        bounds.reserveCapacity(blockCount + 1)
        for b in 0..<blockCount {
            let end = Int(d.u32(endsAt + b * 4))
            guard end >= Int(bounds[b]), keysAt + end <= dir.count else { throw corrupt("block key \(b) is out of bounds") }
            bounds.append(Int32(end))
        }
        guard keysAt + Int(bounds[blockCount]) == dir.count else { throw corrupt("directory has trailing bytes") }
        self.frames = frames
        self.records = records
        dataBytes = r.int(24)
        self.blockFrames = blockFrames
        self.blocks = blocks
        keys = Array(dir[keysAt...])
        keyBounds = bounds
        checked = Locked(Array(repeating: nil, count: blockCount))
    }

    /// Position of the last element of `count` sorted keys that is ≤ `key` (-1 if none).
    @inline(__always)
    private static func lastAtMost(
        _ key: UnsafeBufferPointer<UInt8>, count: Int, keyAt: (Int) -> UnsafeBufferPointer<UInt8>
    ) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if UTF8Order.compare(keyAt(mid), key) <= 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    /// The frame that would hold `key` (the last frame whose first key ≤ key), or nil when the
    /// key sorts before every frame.
    package func frame(for key: UnsafeBufferPointer<UInt8>) throws -> (index: Int, frame: Frame)? {
        let b = keys.withUnsafeBufferPointer { k in
            Self.lastAtMost(key, count: blocks.count) { i in
                UnsafeBufferPointer(rebasing: k[Int(keyBounds[i])..<Int(keyBounds[i + 1])])
            }
        }
        guard b >= 0 else { return nil }
        return try withBlock(b) { block in
            let i = Self.lastAtMost(key, count: block.count) { block.key($0) }
            guard i >= 0 else { return nil }
            return (b * blockFrames + i, block.frame(i))
        }
    }

    /// Frame `i`'s entry.
    package func frame(_ i: Int) throws -> Frame {
        guard i >= 0, i < frames else { throw SnapshotError(file: path, "no frame \(i)") }
        return try withBlock(i / blockFrames) { $0.frame(i % blockFrames) }
    }

    /// Frame `i`'s first key.
    package func firstKey(_ i: Int) throws -> [UInt8] {
        guard i >= 0, i < frames else { throw SnapshotError(file: path, "no frame \(i)") }
        return try withBlock(i / blockFrames) { Array($0.key(i % blockFrames)) }
    }

    /// Block `b`'s frames and first keys lent to `body` (sequential readers take a block at a
    /// time; no array per frame's key).
    func withFrames<T>(ofBlock b: Int, _ body: (BlockView) throws -> T) throws -> T {
        try withBlock(b, body)
    }

    package var blockCount: Int { blocks.count }

    /// Block `b`, checked (its hash and layout) when first read, handed to `body`.
    private func withBlock<T>(_ b: Int, _ body: (BlockView) throws -> T) throws -> T {
        let count = min(blockFrames, frames - b * blockFrames)
        let keysAt = count * (Self.entryBytes + 4)
        if let bytes = checked.withLock({ $0[b] }) {
            return try bytes.withUnsafeBytes { try body(BlockView(raw: $0, count: count, keysAt: keysAt)) }
        }
        let info = blocks[b]
        let bytes = try [UInt8](unsafeUninitializedCapacity: info.bytes) { buffer, n in
            try SeekableZstdFile.pread(fd, into: UnsafeMutableRawBufferPointer(buffer), at: info.offset, path: path)
            n = info.bytes
        }
        try bytes.withUnsafeBytes { raw in
            guard XXH64.hash(raw) == info.hash else {
                throw SnapshotError(file: path, "key table is corrupt: block \(b) checksum mismatch")
            }
            guard keysAt <= raw.count, BlockView(raw: raw, count: count, keysAt: keysAt).keyEndsAreValid else {
                throw SnapshotError(file: path, "key table is corrupt: block \(b) layout")
            }
        }
        checked.withLock { $0[b] = bytes }
        return try bytes.withUnsafeBytes { try body(BlockView(raw: $0, count: count, keysAt: keysAt)) }
    }

    /// A checked block in memory.
    struct BlockView {
        let raw: UnsafeRawBufferPointer
        let count: Int
        let keysAt: Int

        func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }

        func keyEnd(_ i: Int) -> Int { Int(u32(count * KeyTable.entryBytes + i * 4)) }

        var keyEndsAreValid: Bool {
            var previous = 0
            for i in 0..<count {
                let e = keyEnd(i)
                guard e >= previous, keysAt + e <= raw.count else { return false }
                previous = e
            }
            return keysAt + previous == raw.count
        }

        func key(_ i: Int) -> UnsafeBufferPointer<UInt8> {
            let lo = i == 0 ? 0 : keyEnd(i - 1), hi = keyEnd(i)
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return UnsafeBufferPointer(start: base + keysAt + lo, count: hi - lo)
        }

        func frame(_ i: Int) -> Frame {
            let at = i * KeyTable.entryBytes
            // Clamped: a value past Int.max fails the caller's bounds check instead of trapping.
            return Frame(offset: Int(clamping: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) & 0x7FFF_FFFF_FFFF),
                         compressedSize: Int(u32(at + 8)), decompressedSize: Int(u32(at + 12)), records: Int(u32(at + 16)),
                         checksum: u32(at + 20))
        }
    }
}

/// Little-endian fields of a byte array.
struct ByteFields {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func u32(_ at: Int) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    }
    func u64(_ at: Int) -> UInt64 {
        bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
    }
    /// A u64 field as an Int, clamped so that corrupt values fail later checks instead of trapping.
    func int(_ at: Int) -> Int { Int(clamping: u64(at) & 0x7FFF_FFFF_FFFF) }
}
