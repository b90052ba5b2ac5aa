import TonightSnapshot

/// Builds a dataset's binary key table (`<dataset>.keys`, layout in `KeyTable`) from the frames
/// the seekable writer produced.
package enum KeyTableWriter {
    /// Frames per block: a lookup reads and hashes one block (~2 KB at 64 frames of 10-byte
    /// keys), and opening reads one directory entry per block.
    package static let blockFrames = 64

    /// The table's bytes for `frames` (in file order) of a data file of `dataBytes` bytes.
    package static func build(frames: [SeekableZstdWriter.FrameInfo], records: Int, dataBytes: Int,
                              blockFrames: Int = blockFrames) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: KeyTable.headerBytes)
        let blockCount = (frames.count + blockFrames - 1) / blockFrames
        var directory: [(offset: Int, bytes: Int, hash: UInt64)] = []
        var blockKeys: [UInt8] = [], blockKeyEnds: [UInt32] = []
        var offset = 0
        var block: [UInt8] = []
        for b in 0..<blockCount {
            let slice = frames[(b * blockFrames)..<min(frames.count, (b + 1) * blockFrames)]
            block.removeAll(keepingCapacity: true)
            var keys: [UInt8] = [], ends: [UInt32] = []
            var frameOffset = offset
            for f in slice {
                Self.append64(&block, UInt64(frameOffset))
                Self.append32(&block, UInt32(f.compressedSize))
                Self.append32(&block, UInt32(f.bytes))
                Self.append32(&block, UInt32(f.records))
                Self.append32(&block, f.checksum)
                keys += f.first.utf8
                ends.append(UInt32(keys.count))
                frameOffset += f.compressedSize
            }
            offset = frameOffset
            for e in ends { Self.append32(&block, e) }
            block += keys
            directory.append((out.count, block.count, block.withUnsafeBytes { XXH64.hash($0) }))
            blockKeys += slice.first!.first.utf8
            blockKeyEnds.append(UInt32(blockKeys.count))
            out += block
        }
        var dir: [UInt8] = []
        for d in directory {
            Self.append64(&dir, UInt64(d.offset))
            Self.append32(&dir, UInt32(d.bytes))
            Self.append32(&dir, 0)
            Self.append64(&dir, d.hash)
        }
        for e in blockKeyEnds { Self.append32(&dir, e) }
        dir += blockKeys
        let dirOffset = out.count
        out += dir
        var header: [UInt8] = KeyTable.magic
        Self.append32(&header, KeyTable.version)
        Self.append64(&header, UInt64(frames.count))
        Self.append64(&header, UInt64(records))
        Self.append64(&header, UInt64(dataBytes))
        Self.append32(&header, UInt32(blockFrames))
        Self.append32(&header, UInt32(blockCount))
        Self.append64(&header, UInt64(dirOffset))
        Self.append64(&header, UInt64(dir.count))
        Self.append64(&header, XXH64.hash(dir))
        Self.append64(&header, XXH64.hash(header))
        out.replaceSubrange(0..<KeyTable.headerBytes, with: header)
        return out
    }

    static func append32(_ out: inout [UInt8], _ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
    static func append64(_ out: inout [UInt8], _ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
}
