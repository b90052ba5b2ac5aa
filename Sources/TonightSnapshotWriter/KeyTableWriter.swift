import TonightSnapshot

/// Builds a dataset's binary key table (`<dataset>.keys`, layout in `KeyTable`) from the frames
/// the seekable writer produced, a block at a time as frames come in.
///
/// `DatasetWriter` hands it the frames compressed since the last call every few thousand
/// frames (the writer keeps no list of every frame) and writes the finished blocks straight
/// to the file; `finish` adds the last block, the directory and
/// the header (written over the placeholder at the file's start). Building the whole table at
/// the end took the two large tickets datasets ~0.25 s each, plus ~0.07 s to write 30 MB, after
/// every user was ranked, with one core idle.
package struct KeyTableWriter {
    /// Frames per block: a lookup reads and hashes one block (~2 KB at 64 frames of 10-byte
    /// keys), and opening reads one directory entry per block.
    package static let blockFrames = 64

    package let blockFrames: Int
    /// Frames taken into blocks so far.
    package private(set) var framesDone = 0
    /// Bytes of the file handed out so far (the header placeholder first).
    package private(set) var fileBytes = 0
    /// Where the next frame starts in the data file.
    private var dataOffset = 0
    private var directory: [(offset: Int, bytes: Int, hash: UInt64)] = []
    private var blockKeys: [UInt8] = []
    private var blockKeyEnds: [UInt32] = []
    /// Frames taken but not yet in a whole block.
    private var pending: [SeekableZstdWriter.FrameInfo] = []
    /// Scratch buffers of one block, reused.
    private var block: [UInt8] = []
    private var keys: [UInt8] = []
    private var ends: [UInt32] = []

    package init(blockFrames: Int = KeyTableWriter.blockFrames) {
        self.blockFrames = blockFrames
    }

    /// The bytes the file starts with until `finish` gives the header.
    package func placeholder() -> [UInt8] { [UInt8](repeating: 0, count: KeyTable.headerBytes) }

    /// Takes `frames` (the next ones of the data file, in order) and appends to `out` the
    /// blocks they complete: whole blocks only, the rest kept for the next call or `finish`.
    /// `out` continues the file after the placeholder and the blocks appended before.
    package mutating func add(_ frames: [SeekableZstdWriter.FrameInfo], to out: inout [UInt8]) {
        guard pending.isEmpty else {
            pending.append(contentsOf: frames)
            let done = emitBlocks(pending[...], all: false, to: &out)
            pending.removeSubrange(0..<done)
            return
        }
        // Blocks straight from `frames` (a copy into `pending` retained and released two
        // strings a frame); only the frames of a short last block wait.
        let done = emitBlocks(frames[...], all: false, to: &out)
        pending.append(contentsOf: frames[done...])
    }

    /// Writes the whole blocks of `frames` (and, with `all`, the last short one); returns how
    /// many frames it took.
    private mutating func emitBlocks(_ frames: ArraySlice<SeekableZstdWriter.FrameInfo>, all: Bool, to out: inout [UInt8]) -> Int {
        if fileBytes == 0 { fileBytes = KeyTable.headerBytes }
        var start = frames.startIndex
        while frames.endIndex - start >= blockFrames || (all && start < frames.endIndex) {
            let slice = frames[start..<min(frames.endIndex, start + blockFrames)]
            block.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            for f in slice {
                Self.append64(&block, UInt64(dataOffset))
                Self.append32(&block, UInt32(f.compressedSize))
                Self.append32(&block, UInt32(f.bytes))
                Self.append32(&block, UInt32(f.records))
                Self.append32(&block, f.checksum)
                keys += f.first.utf8
                ends.append(UInt32(keys.count))
                dataOffset += f.compressedSize
            }
            for e in ends { Self.append32(&block, e) }
            block += keys
            directory.append((fileBytes, block.count, block.withUnsafeBytes { XXH64.hash($0) }))
            blockKeys += slice.first!.first.utf8
            blockKeyEnds.append(UInt32(blockKeys.count))
            out += block
            fileBytes += block.count
            framesDone += slice.count
            start = slice.endIndex
        }
        return start - frames.startIndex
    }

    /// The last block, then the directory, appended to `out`; returns the header, the
    /// file's first `KeyTable.headerBytes` bytes. Every frame of the data file must have
    /// been `add`ed.
    package mutating func finish(records: Int, dataBytes: Int, to out: inout [UInt8]) -> [UInt8] {
        _ = emitBlocks(pending[...], all: true, to: &out)
        pending.removeAll()
        var dir: [UInt8] = []
        for d in directory {
            Self.append64(&dir, UInt64(d.offset))
            Self.append32(&dir, UInt32(d.bytes))
            Self.append32(&dir, 0)
            Self.append64(&dir, d.hash)
        }
        for e in blockKeyEnds { Self.append32(&dir, e) }
        dir += blockKeys
        let dirOffset = fileBytes
        out += dir
        fileBytes += dir.count
        var header: [UInt8] = KeyTable.magic
        Self.append32(&header, KeyTable.version)
        Self.append64(&header, UInt64(framesDone))
        Self.append64(&header, UInt64(records))
        Self.append64(&header, UInt64(dataBytes))
        Self.append32(&header, UInt32(blockFrames))
        Self.append32(&header, UInt32(directory.count))
        Self.append64(&header, UInt64(dirOffset))
        Self.append64(&header, UInt64(dir.count))
        Self.append64(&header, XXH64.hash(dir))
        Self.append64(&header, XXH64.hash(header))
        return header
    }

    /// The whole table's bytes for `frames` (in file order) of a data file of `dataBytes`
    /// bytes, in memory.
    package static func build(frames: [SeekableZstdWriter.FrameInfo], records: Int, dataBytes: Int,
                              blockFrames: Int = blockFrames) -> [UInt8] {
        var writer = KeyTableWriter(blockFrames: blockFrames)
        var out = writer.placeholder()
        writer.add(frames, to: &out)
        let header = writer.finish(records: records, dataBytes: dataBytes, to: &out)
        out.replaceSubrange(0..<KeyTable.headerBytes, with: header)
        return out
    }

    static func append32(_ out: inout [UInt8], _ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
    static func append64(_ out: inout [UInt8], _ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
}
