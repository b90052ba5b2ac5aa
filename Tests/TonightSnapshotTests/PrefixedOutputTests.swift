import CZstd
import Foundation
import Synchronization
import Testing
@testable import TonightSnapshotWriter
@testable import TonightSnapshot

/// A scan decompresses layout-2 frames right after a copy of the dictionary
/// (`PrefixedOutput`, so that zstd reads the dictionary as their prefix): the records are the
/// ones written, records larger than a buffer's first 16 KiB included (it grows, the
/// dictionary copied and digested again each time), and the scan can be run again on the same
/// dataset (its buffer back from the pool, already grown). Lookups take a buffer from the same
/// pool (`PrefixedOutputs`) and copy their frame out of it.
@Suite struct PrefixedOutputTests {
    static let alphabet = Array("abcdefghij0123456789,:{}")

    /// 3,000 records, three of them past a buffer's first size (100 KB, then 300 KB, then
    /// 70 KB: a buffer grows twice and is large enough for the third).
    static func records() -> [(String, [UInt8])] {
        var recs = DictionaryLayoutTests.records(3000)
        for (i, size) in [(500, 100_000), (1500, 300_000), (2999, 70_000)] {
            let text = String((0..<size).map { Self.alphabet[($0 * 7 + i) % Self.alphabet.count] })
            recs[i].1 = Array(#"{"key":"\#(recs[i].0)","items":["\#(text)"]}"#.utf8)
        }
        return recs
    }

    @Test func scannedFramesAreTheFramesReadOneByOne() throws {
        let recs = Self.records()
        let (_, s) = try DictionaryLayoutTests.build(recs, frameBytes: 1024, dictionaryBytes: 8 << 10)
        let d = try s.dataset("explore")
        #expect(d.entry.layout == 2 && d.entry.dictionary != nil)
        for _ in 0..<2 {
            var scanned: [[UInt8]] = [], frames = 0
            try d.store.scanFrames(in: 0..<d.entry.frames) { _, f, _ in
                frames += 1
                for l in 0..<f.lineCount { scanned.append(Array(f.line(l))) }
            }
            #expect(frames == d.entry.frames)
            #expect(scanned == recs.map(\.1))
        }
        var read: [[UInt8]] = []
        try d.forEachRecord { read.append($0) }
        #expect(read == recs.map(\.1))
        #expect(s.verify().isValid)
        // The references' walk runs on the prefixed frames too: every record is walked, and
        // the only problems are the target datasets this one-dataset snapshot lacks.
        let walked = s.verify(references: true)
        #expect(walked.records == recs.count && walked.references > 0)
        #expect(walked.problems.allSatisfy { "\($0)".contains("which this snapshot lacks") })
    }

    /// Lookups from four threads at once, every key twice in a shuffled order (the large
    /// records among them, so pooled buffers grow while others are in use), each the record
    /// written (changed bytes are never served by a lookup: `DictionaryLayoutTests`).
    @Test func concurrentLookupsGetTheirOwnRecords() throws {
        let recs = Self.records()
        let (_, s) = try DictionaryLayoutTests.build(recs, frameBytes: 1024, dictionaryBytes: 8 << 10)
        let d = try s.dataset("explore")
        var rng = SystemRandomNumberGenerator()
        let order = (Array(recs.indices) + Array(recs.indices)).shuffled(using: &rng)
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for k in stride(from: t, to: order.count, by: 4) {
                let (key, line) = recs[order[k]]
                if (try? d.json(key: key)) != line { wrong.withLock { $0 += 1 } }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
    }

    /// A key table that gives one frame a size of 4 GiB (its hashes right: a buggy or hostile
    /// writer) is refused at that frame, by a scan and by a lookup, before any buffer is sized
    /// from the table: the pool's buffers keep their first 16 KiB (checking the header after
    /// sizing the buffer fails it), with and without a dictionary.
    @Test(arguments: [false, true])
    func anInflatedFrameSizeIsRefusedBeforeAnyBufferIsSized(dictionary: Bool) throws {
        let recs = DictionaryLayoutTests.records(400)
        var raw: [UInt8] = [], sizes: [Int] = []
        for (_, json) in recs {
            raw += json + [0x0A]
            sizes.append(json.count + 1)
        }
        let dict = dictionary
            ? try #require(CompressionDictionary.train(samples: raw, sizes: sizes, training: .init(capacity: 4 << 10), level: 1)) : nil
        var w = SeekableZstdWriter(frameBytes: 1024, level: 1, dictionary: dict)
        for (key, json) in recs { try w.append(key: key, json: json) }
        let data = try w.finish()
        var frames = w.frames
        let k = frames.count / 2
        #expect(k > 10 && frames.allSatisfy { $0.bytes < 16 << 10 })
        frames[k].bytes = Int(UInt32.max)
        let dir = temporaryDirectory("keys-inflated")
        let dataURL = dir.appendingPathComponent("d.ndjson.zst"), keysURL = dir.appendingPathComponent("d.keys")
        let dictURL = dir.appendingPathComponent("d.dict")
        try Data(data).write(to: dataURL)
        try Data(KeyTableWriter.build(frames: frames, records: recs.count, dataBytes: data.count)).write(to: keysURL)
        if let dict { try Data(dict.bytes).write(to: dictURL) }
        let file = try DictionaryFramesFile(path: dataURL.path, keyTablePath: keysURL.path,
                                            dictionary: dict == nil ? nil : try DecompressionDictionary(path: dictURL.path))
        var scanned = 0
        let refused = #expect(throws: SnapshotError.self) {
            try file.scanFrames(in: 0..<file.table.frames) { _, _, _, _ in scanned += 1 }
        }
        #expect(refused?.message == "frame \(k) is corrupt: its header and the key table disagree on its size")
        #expect(scanned == k)
        #expect(throws: SnapshotError.self) { try file.frame(k, entry: try file.table.frame(k)) }
        // The frames around it are still served, byte for byte.
        var before: [UInt8] = []
        for (_, json) in recs.prefix(frames[0].records) { before += json + [0x0A] }
        #expect(try file.frame(0, entry: try file.table.frame(0)) == before)
        #expect(file.outputs.largestCapacity == 16 << 10)
    }

    /// zstd takes the dictionary as a frame's prefix (matches copied inline) only when the
    /// output starts where the digested dictionary's bytes end (`dst == dictEnd`; anywhere
    /// else the dictionary is a separate segment and each match into it a `memmove` call).
    /// A buffer's `ZSTD_DDict` reads the buffer's own copy (spoiling the copy spoils the
    /// frame), and that copy ends where the output region starts, in a new buffer and after
    /// each growth.
    @Test func theOutputStartsWhereTheDigestedDictionaryEnds() throws {
        let recs = DictionaryLayoutTests.records(2000)
        let (root, _) = try DictionaryLayoutTests.build(recs, frameBytes: 1024, dictionaryBytes: 8 << 10)
        let dict = try DecompressionDictionary(
            path: root.appendingPathComponent(DictionaryLayoutTests.id).appendingPathComponent("explore.dict").path)
        let cdict = try #require(CompressionDictionary(bytes: dict.bytes, level: 1))
        let text: [UInt8] = recs[1000..<1004].flatMap { $0.1 + [UInt8(0x0A)] }
        guard let cctx = ZSTD_createCCtx(), let dctx = ZSTD_createDCtx() else { throw SnapshotError(file: "(test)", "no context") }
        defer { ZSTD_freeCCtx(cctx); ZSTD_freeDCtx(dctx) }
        var frame = [UInt8](repeating: 0, count: ZSTD_compressBound(text.count))
        let n = text.withUnsafeBytes { src in
            frame.withUnsafeMutableBytes { ZSTD_compress_usingCDict(cctx, $0.baseAddress, $0.count, src.baseAddress, src.count, cdict.cdict) }
        }
        #expect(ZSTD_isError(n) == 0 && n < text.count / 2)
        frame.removeSubrange(n...)
        func decompress(_ output: PrefixedOutput) throws -> [UInt8]? {
            let o = try output.output(atLeast: text.count, path: "(test)")
            let rc = frame.withUnsafeBytes { ZSTD_decompress_usingDDict(dctx, o.baseAddress, o.count, $0.baseAddress, $0.count, output.ddict) }
            return ZSTD_isError(rc) != 0 ? nil : Array(UnsafeRawBufferPointer(rebasing: o[..<rc]))
        }
        let output = try PrefixedOutput(dictionary: dict, capacity: 16 << 10, path: "(test)")
        for size in [1, 16 << 10, 100_000, 300_000] {
            let o = try output.output(atLeast: size, path: "(test)")
            #expect(o.count >= size)
            let copy = UnsafeRawBufferPointer(start: o.baseAddress! - dict.bytes.count, count: dict.bytes.count)
            #expect(copy.elementsEqual(dict.bytes), "the copy ends where the output starts (\(size))")
            let same = try decompress(output) == text
            #expect(same, "the frame read after the copy (\(size))")
        }
        // The digested dictionary is this copy, not one of its own: spoiling the copy's
        // content spoils the frame.
        let o = try output.output(atLeast: text.count, path: "(test)")
        let content = UnsafeMutableRawBufferPointer(start: o.baseAddress! - dict.bytes.count / 2, count: dict.bytes.count / 2)
        content.initializeMemory(as: UInt8.self, repeating: 0x7E)
        let spoiled = try decompress(output) != text
        #expect(spoiled, "a frame read after a spoiled copy")
    }

    /// A frame larger than `PrefixedOutputs.keptCapacity` (a record of 1.5 MB) is read, by
    /// lookup and by scan, but the buffer grown for it is freed after use: the pool keeps only
    /// buffers of frames of ordinary size (keeping it fails this: a 1.5 MB buffer in the pool).
    @Test func aBufferGrownForALargeFrameIsNotKept() throws {
        var recs = DictionaryLayoutTests.records(1000)
        let size = PrefixedOutputs.keptCapacity * 3 / 2
        let text = String((0..<size).map { Self.alphabet[($0 * 7) % Self.alphabet.count] })
        recs[600].1 = Array(#"{"key":"\#(recs[600].0)","items":["\#(text)"]}"#.utf8)
        let (_, s) = try DictionaryLayoutTests.build(recs, frameBytes: 1024, dictionaryBytes: 8 << 10)
        let d = try s.dataset("explore")
        guard case .keyTable(let file) = d.store else {
            Issue.record("a layout-2 dataset")
            return
        }
        #expect(try d.json(key: recs[600].0) == recs[600].1)
        var read: [[UInt8]] = []
        try d.forEachRecord { read.append($0) }
        #expect(read == recs.map(\.1))
        #expect(s.verify().isValid)
        // A lookup of an ordinary record after them: its buffer goes back into the pool.
        #expect(try d.json(key: recs[601].0) == recs[601].1)
        #expect(file.outputs.largestCapacity > PrefixedOutputs.keptCapacity, "the large frame was read into a grown buffer")
        let kept = file.outputs.keptCapacities
        #expect(!kept.isEmpty && kept.allSatisfy { $0 <= PrefixedOutputs.keptCapacity }, "\(kept)")
    }
}
