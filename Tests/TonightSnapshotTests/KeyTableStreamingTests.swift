import Foundation
import Testing
import TonightGenerator
import TonightBase
@testable import TonightSnapshot
@testable import TonightSnapshotWriter

/// The key table is written a block at a time while frames come in (`KeyTableWriter`): the
/// bytes must be those of the table built at once from every frame, however the frames
/// arrive, and a dataset of several writer steps must be readable through it.
@Suite struct KeyTableStreamingTests {
    /// Frames with varied sizes, record counts, checksums and first keys.
    static func frames(_ n: Int, seed: UInt64) -> [SeekableZstdWriter.FrameInfo] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { i in
            let key = "k\(String(format: "%07d", i))" + String(repeating: "é", count: Int(rng.next() % 4))
            var f = SeekableZstdWriter.FrameInfo(first: key, last: key + "z", records: 1 + Int(rng.next() % 40), bytes: 1 + Int(rng.next() % 2048))
            f.compressedSize = 9 + Int(rng.next() % 1500)
            f.checksum = UInt32(truncatingIfNeeded: rng.next())
            return f
        }
    }

    /// The table as the first version built it, in one pass over every frame (kept here as
    /// the reference of the format's bytes).
    static func reference(_ frames: [SeekableZstdWriter.FrameInfo], records: Int, dataBytes: Int, blockFrames: Int) -> [UInt8] {
        func u32(_ out: inout [UInt8], _ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func u64(_ out: inout [UInt8], _ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        var out = [UInt8](repeating: 0, count: KeyTable.headerBytes)
        let blockCount = (frames.count + blockFrames - 1) / blockFrames
        var directory: [(Int, Int, UInt64)] = []
        var blockKeys: [UInt8] = [], blockKeyEnds: [UInt32] = []
        var offset = 0
        for b in 0..<blockCount {
            let slice = frames[(b * blockFrames)..<min(frames.count, (b + 1) * blockFrames)]
            var block: [UInt8] = [], keys: [UInt8] = [], ends: [UInt32] = []
            for f in slice {
                u64(&block, UInt64(offset))
                u32(&block, UInt32(f.compressedSize))
                u32(&block, UInt32(f.bytes))
                u32(&block, UInt32(f.records))
                u32(&block, f.checksum)
                keys += f.first.utf8
                ends.append(UInt32(keys.count))
                offset += f.compressedSize
            }
            for e in ends { u32(&block, e) }
            block += keys
            directory.append((out.count, block.count, XXH64.hash(block)))
            blockKeys += slice.first!.first.utf8
            blockKeyEnds.append(UInt32(blockKeys.count))
            out += block
        }
        var dir: [UInt8] = []
        for (o, n, h) in directory {
            u64(&dir, UInt64(o))
            u32(&dir, UInt32(n))
            u32(&dir, 0)
            u64(&dir, h)
        }
        for e in blockKeyEnds { u32(&dir, e) }
        dir += blockKeys
        let dirOffset = out.count
        out += dir
        var header: [UInt8] = KeyTable.magic
        u32(&header, KeyTable.version)
        u64(&header, UInt64(frames.count))
        u64(&header, UInt64(records))
        u64(&header, UInt64(dataBytes))
        u32(&header, UInt32(blockFrames))
        u32(&header, UInt32(blockCount))
        u64(&header, UInt64(dirOffset))
        u64(&header, UInt64(dir.count))
        u64(&header, XXH64.hash(dir))
        u64(&header, XXH64.hash(header))
        out.replaceSubrange(0..<KeyTable.headerBytes, with: header)
        return out
    }

    @Test(arguments: [0, 1, 63, 64, 65, 200, 4_097, 10_000])
    func streamedTableEqualsTheOneBuiltAtOnce(frameCount: Int) {
        let all = Self.frames(frameCount, seed: UInt64(frameCount) + 1)
        let records = all.reduce(0) { $0 + $1.records }
        let dataBytes = all.reduce(0) { $0 + $1.compressedSize } + 17 + 12 * frameCount
        let expected = Self.reference(all, records: records, dataBytes: dataBytes, blockFrames: 64)
        let built = KeyTableWriter.build(frames: all, records: records, dataBytes: dataBytes)
        #expect(built.count == expected.count)
        let builtMatches = built == expected  // (not printed: tens of kilobytes)
        #expect(builtMatches)
        // Frames arrive in runs of random lengths (the writer's batches), and the blocks are
        // handed out as they complete.
        // Each run is handed over alone (the writer keeps no list of every frame).
        var rng = SplitMix64(seed: 77)
        var writer = KeyTableWriter()
        var file = writer.placeholder()
        var arrived = 0
        while arrived < all.count {
            let from = arrived
            arrived = min(all.count, arrived + 1 + Int(rng.next() % 300))
            var chunk: [UInt8] = []
            writer.add(Array(all[from..<arrived]), to: &chunk)
            #expect(writer.framesDone % 64 == 0, "only whole blocks before the end")
            #expect(writer.framesDone > arrived - 64, "every whole block written as soon as it is complete")
            file += chunk
        }
        var tail: [UInt8] = []
        let header = writer.finish(records: records, dataBytes: dataBytes, to: &tail)
        file += tail
        file.replaceSubrange(0..<KeyTable.headerBytes, with: header)
        #expect(file.count == expected.count)
        let streamedMatches = file == expected
        #expect(streamedMatches)
        #expect(writer.fileBytes == expected.count)
    }

    /// A dataset of more frames than the writer indexes at once (so its key table is written
    /// in several steps): every record is found by key and read back in order, and the
    /// snapshot verifies.
    @Test func aDatasetWrittenInSeveralStepsIsFoundByEveryKey() throws {
        let recs = DictionaryLayoutTests.records(40_000)
        let root = temporaryDirectory("keys-streamed")
        let id = DictionaryLayoutTests.id
        // Records of ~300 bytes in frames of at most 64: one frame per record, ~12 MB, so the
        // writer compresses several 4 MiB batches and writes the table in several steps.
        try SnapshotFixture.write(root: root, id: id, datasets: ["explore": recs], frameBytes: 64, layout: 2, dictionaryBytes: 8 << 10)
        try SnapshotFixture.setCurrent(root: root, id)
        let s = try Snapshot.openCurrent(in: root, cacheBytes: 0)
        let d = try s.dataset("explore")
        #expect(d.entry.frames == recs.count)
        #expect(d.entry.uncompressedBytes > 8 << 20)
        for (k, j) in recs { #expect(try d.json(key: k) == j) }
        var seen: [[UInt8]] = []
        try d.forEachRecord { seen.append($0) }
        #expect(seen == recs.map(\.1))
        #expect(s.verify().isValid)
    }
}
