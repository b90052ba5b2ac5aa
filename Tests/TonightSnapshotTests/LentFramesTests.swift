import Foundation
import Testing
import TonightBase
import TonightGenerator
@testable import TonightSnapshot
@testable import TonightSnapshotWriter

/// `append(lines:ends:records:key:)` compresses the frames that lie wholly in a caller's
/// buffer where they lie: the files must be byte for byte those of appending the same records
/// one by one, however the records are cut into batches (frames that straddle two batches,
/// records larger than a frame, batches too small to be lent, a dictionary trained in the
/// middle of a batch), and a bad record must leave the writer as one-by-one appends would.
@Suite struct LentFramesTests {
    /// Records of skewed sizes: mostly 40–300 bytes, one in 50 longer than a 2 KiB frame.
    static func records(_ count: Int, seed: UInt64) -> [(String, [UInt8])] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let key = String(format: "u%07d", i)
            let size = Int.random(in: 0..<50, using: &rng) == 0 ? Int.random(in: 2_000...9_000, using: &rng) : Int.random(in: 20...280, using: &rng)
            let pad = String((0..<size).map { _ in "abcdefghij,:[]{}0123456789".randomElement(using: &rng)! })
            return (key, Array(#"{"key":"\#(key)","items":["\#(pad)"]}"#.utf8))
        }
    }

    /// Batch sizes cycling through tiny, mid-sized and large (in records).
    static func batches(_ count: Int, seed: UInt64) -> [Range<Int>] {
        var rng = SplitMix64(seed: seed)
        var out: [Range<Int>] = [], at = 0
        while at < count {
            let n = [0, 1, 3, 40, 900, 4_000, 12_000].randomElement(using: &rng)!
            out.append(at..<min(count, at + n))
            at += n
        }
        return out
    }

    /// The records of `range` as a batch: lines with newlines, and their ends.
    static func batch(_ records: [(String, [UInt8])], _ range: Range<Int>) -> (lines: [UInt8], ends: [Int]) {
        var lines: [UInt8] = [], ends: [Int] = []
        for r in range {
            lines += records[r].1
            lines.append(0x0A)
            ends.append(lines.count)
        }
        return (lines, ends)
    }

    static func appendBatch(_ w: inout SeekableZstdWriter, _ records: [(String, [UInt8])], _ range: Range<Int>) throws {
        let (lines, ends) = batch(records, range)
        try lines.withUnsafeBytes { l in
            try ends.withUnsafeBufferPointer { e in
                try w.append(lines: l, ends: e, records: 0..<e.count) { records[range.lowerBound + $0].0 }
            }
        }
    }

    static func appendBatch(_ w: inout DatasetWriter, _ records: [(String, [UInt8])], _ range: Range<Int>) throws {
        let (lines, ends) = batch(records, range)
        try lines.withUnsafeBytes { l in
            try ends.withUnsafeBufferPointer { e in
                try w.append(lines: l, ends: e, records: 0..<e.count) { records[range.lowerBound + $0].0 }
            }
        }
    }

    @Test(arguments: [(128, UInt64(1)), (2 << 10, 2), (2 << 10, 3), (64 << 10, 4)])
    func batchesWriteTheBytesOfSingleAppends(frameBytes: Int, seed: UInt64) throws {
        let recs = Self.records(30_000, seed: seed)
        var one = SeekableZstdWriter(frameBytes: frameBytes, level: 1)
        for (k, j) in recs { try one.append(key: k, json: j) }
        var lent = SeekableZstdWriter(frameBytes: frameBytes, level: 1)
        let cuts = Self.batches(recs.count, seed: seed &+ 100)
        // Some batches are lent (at least 256 KiB of whole frames), some copied.
        #expect(cuts.contains { $0.count >= 4_000 } && cuts.contains { $0.count <= 3 })
        for r in cuts { try Self.appendBatch(&lent, recs, r) }
        #expect(lent.records == one.records)
        #expect(lent.uncompressedBytes == one.uncompressedBytes)
        let (x, y) = (try one.finish(), try lent.finish())
        #expect(x.count == y.count)
        #expect(x == y)
        // The same frames, keys and checksums (a batch is compressed at other moments, so the
        // lists are compared once every frame is done).
        var a: [SeekableZstdWriter.FrameInfo] = [], b: [SeekableZstdWriter.FrameInfo] = []
        one.takeFrames(into: &a)
        lent.takeFrames(into: &b)
        #expect(a.count == b.count && a == b)
    }

    /// A whole dataset (layout 2): the dictionary is trained on records held back from the
    /// first batches, one of which is cut by the training; every file is the same.
    @Test func aDatasetOfBatchesWritesTheFilesOfSingleAppends() throws {
        let recs = Self.records(20_000, seed: 7)
        let root = temporaryDirectory("lent-frames")
        func write(_ name: String, batched: Bool) throws -> (DatasetWriter.Summary, URL) {
            let dir = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            var w = try DatasetWriter(name: "feed", directory: dir, frameBytes: 2 << 10, sync: false, layout: 2, dictionaryBytes: 2 << 10)
            if batched {
                for r in Self.batches(recs.count, seed: 8) { try Self.appendBatch(&w, recs, r) }
            } else {
                for (k, j) in recs { try w.append(key: k, json: j) }
            }
            return (try w.finish(), dir)
        }
        let (s1, d1) = try write("one", batched: false), (s2, d2) = try write("lent", batched: true)
        #expect(s1 == s2)
        #expect(s1.dictionaryFile != nil, "a dictionary was trained")
        let files = try FileManager.default.contentsOfDirectory(atPath: d1.path).sorted()
        #expect(files.count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: d2.path).sorted() == files)
        for f in files {
            #expect(try Data(contentsOf: d1.appendingPathComponent(f)) == Data(contentsOf: d2.appendingPathComponent(f)), "\(f) differs")
        }
    }

    /// A key out of order in the middle of a large batch (past frames that would be lent, and
    /// within the frame left open before it) throws the single append's error, and the records
    /// before it are written as if appended one by one.
    @Test(arguments: [5, 3_000, 3_001])
    func aKeyOutOfOrderStopsWhereSingleAppendsStop(bad: Int) throws {
        var recs = Self.records(6_000, seed: 11)
        recs[bad].0 = recs[bad - 2].0
        var one = SeekableZstdWriter(frameBytes: 2 << 10, level: 1)
        var oneError: String?
        for (k, j) in recs {
            do { try one.append(key: k, json: j) } catch { oneError = "\(error)"; break }
        }
        var lent = SeekableZstdWriter(frameBytes: 2 << 10, level: 1)
        try Self.appendBatch(&lent, recs, 0..<3)
        var lentError: String?
        do { try Self.appendBatch(&lent, recs, 3..<recs.count) } catch { lentError = "\(error)" }
        #expect(oneError != nil)
        #expect(lentError == oneError)
        #expect(lent.records == bad)
        #expect(try lent.finish() == one.finish())
    }

    /// A record without its newline in the middle of a large batch (past frames that would be
    /// lent, and within the frame left open before it), or whose end lies beyond the bytes, is
    /// refused, and the records before it are written as if appended one by one (the ends are
    /// checked in a pass of their own before the scan: `firstRefusedLine`).
    @Test(arguments: [(5, false), (3_000, false), (3_001, false), (5_999, false), (4_000, true)])
    func aRecordWithoutItsNewlineStopsTheBatchThere(bad: Int, beyond: Bool) throws {
        let recs = Self.records(6_000, seed: 12)
        var one = SeekableZstdWriter(frameBytes: 2 << 10, level: 1)
        for (k, j) in recs[..<bad] { try one.append(key: k, json: j) }
        var lent = SeekableZstdWriter(frameBytes: 2 << 10, level: 1)
        try Self.appendBatch(&lent, recs, 0..<3)
        var (lines, ends) = Self.batch(recs, 3..<recs.count)
        if beyond { ends[bad - 3] = lines.count + 1 } else { lines[ends[bad - 3] - 1] = UInt8(ascii: " ") }
        var refusal: String?
        do {
            try lines.withUnsafeBytes { l in
                try ends.withUnsafeBufferPointer { e in
                    try lent.append(lines: l, ends: e, records: 0..<e.count) { recs[3 + $0].0 }
                }
            }
        } catch { refusal = "\(error)" }
        #expect(refusal?.contains("record \(bad - 3) of a batch does not end with a newline") == true, "\(refusal ?? "no error")")
        #expect(lent.records == bad)
        #expect(try lent.finish() == one.finish())
    }

    /// A record whose end does not fall after a newline inside the buffer is refused, after
    /// the records before it are appended.
    @Test(arguments: [([12, 23], 1), ([12, 30], 1), ([11, 23], 0), ([0, 12], 0)])
    func recordsMustEndWithTheirNewline(ends: [Int], before: Int) throws {
        let lines = Array(#"{"key":"a"}"#.utf8) + [0x0A] + Array(#"{"key":"b"}"#.utf8)
        var w = SeekableZstdWriter(frameBytes: 2 << 10, level: 1)
        #expect(throws: SnapshotError.self) {
            try lines.withUnsafeBytes { l in
                try ends.withUnsafeBufferPointer { e in try w.append(lines: l, ends: e, records: 0..<2) { ["a", "b"][$0] } }
            }
        }
        #expect(w.records == before)
        #expect(w.uncompressedBytes == (before == 1 ? 12 : 0))
    }
}
