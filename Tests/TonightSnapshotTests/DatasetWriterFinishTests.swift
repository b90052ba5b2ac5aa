import Foundation
import Testing
@testable import TonightSnapshot
@testable import TonightSnapshotWriter

/// A dataset writer takes its frames from the seekable writer as they come (it keeps no list
/// of every frame), and `finishAll` finishes the caller's writers themselves: the files must
/// be those of writers finished one at a time, with a key index and key table that number
/// every frame across the takes.
@Suite struct DatasetWriterFinishTests {
    /// Records of ~120 bytes in frames of at most 128: one frame per record, so `count`
    /// records make `count` frames (more than `DatasetWriter.indexEvery`: several takes).
    static func records(_ count: Int, prefix: String) -> [(String, [UInt8])] {
        (0..<count).map { i in
            let key = "\(prefix)\(String(format: "%06d", i))"
            return (key, Array(#"{"key":"\#(key)","items":[\#(i % 97),\#(i % 13)],"note":"\#(String(repeating: "x", count: 60 + i % 30))"}"#.utf8))
        }
    }

    static let names = ["explore", "feed", "tonight"]

    static func writers(in dir: URL) throws -> [DatasetWriter] {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var writers = try names.map { try DatasetWriter(name: $0, directory: dir, frameBytes: 128, sync: false, layout: 2, dictionaryBytes: 4 << 10) }
        for (d, count) in [9_000, 5_000, 40].enumerated() {
            for (k, j) in records(count, prefix: names[d]) { try writers[d].append(key: k, json: j) }
        }
        return writers
    }

    @Test func finishAllWritesWhatFinishingEachWrites() throws {
        let root = temporaryDirectory("finish-all")
        let (one, all) = (root.appendingPathComponent("one"), root.appendingPathComponent("all"))
        var alone: [DatasetWriter.Summary] = []
        for var w in try Self.writers(in: one) { alone.append(try w.finish()) }
        var writers = try Self.writers(in: all)
        let together = try DatasetWriter.finishAll(&writers)
        #expect(writers.isEmpty, "the writers are spent")
        #expect(together == alone)
        let files = try FileManager.default.contentsOfDirectory(atPath: one.path).sorted()
        // Data, index, dictionary and key table of each dataset; `tonight` (40 records, under
        // 64 KiB) trains no dictionary.
        #expect(files.count == 3 * 4 - 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: all.path).sorted() == files)
        for f in files {
            let a = try Data(contentsOf: one.appendingPathComponent(f)), b = try Data(contentsOf: all.appendingPathComponent(f))
            #expect(a == b, "\(f) differs")
        }
        #expect(together.map(\.frames) == [9_000, 5_000, 40])
    }

    /// The key index (a line per frame) and the key table count every frame once, in order,
    /// across the writer's takes.
    @Test func theIndexesNumberEveryFrameAcrossTakes() throws {
        let dir = temporaryDirectory("finish-index")
        var writers = try Self.writers(in: dir)
        let summary = try writers[0].finish()
        let index = try SeekableZstdFile(path: dir.appendingPathComponent(summary.indexFile).path)
        var lines: [[String: Any]] = []
        for i in index.frames.indices {
            for line in try index.frame(i).split(separator: 0x0A) {
                lines.append(try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]))
            }
        }
        let recs = Self.records(9_000, prefix: "explore")
        #expect(lines.count == recs.count)
        #expect(lines.enumerated().allSatisfy { $0.element["frame"] as? Int == $0.offset })
        #expect(lines.enumerated().allSatisfy { $0.element["first"] as? String == recs[$0.offset].0 })
        let data = try SeekableZstdFile(path: dir.appendingPathComponent(summary.file).path, dictionary: nil)
        #expect(data.frames.count == 9_000)
        let keys = dir.appendingPathComponent(try #require(summary.keyTableFile)).path
        let fd = open(keys, O_RDONLY)
        defer { close(fd) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: keys)[.size] as? Int)
        let table = try KeyTable(fd: fd, path: keys, fileSize: size)
        #expect(table.frames == 9_000)
        #expect(table.records == 9_000)
    }

    /// `takeFrames` hands out each frame once, in order; `frameCount` goes on counting.
    @Test func takeFramesHandsOutEachFrameOnce() throws {
        var w = SeekableZstdWriter(frameBytes: 128, sink: { _ in })
        var taken: [SeekableZstdWriter.FrameInfo] = []
        let recs = Self.records(30_000, prefix: "k")
        for (n, (k, j)) in recs.enumerated() {
            try w.append(key: k, json: j)
            if n % 7_000 == 0 { w.takeFrames(into: &taken) }
        }
        _ = try w.finish()
        #expect(w.frameCount == recs.count)
        #expect(w.frames.count + taken.count == recs.count)
        w.takeFrames(into: &taken)
        #expect(w.frames.isEmpty)
        #expect(taken.map(\.first) == recs.map(\.0))
    }

    /// The key index's numbers are written as bytes: the digits `String` gives, at every
    /// length up to `Int.max`.
    @Test(arguments: [0, 1, 9, 10, 99, 100, 4_095, 4_096, 999_999, 1_000_000, 123_456_789_012, Int.max])
    func decimalsAreTheDigitsOfString(_ v: Int) {
        var out: [UInt8] = [0x7B]
        DatasetWriter.appendDecimal(v, to: &out)
        #expect(out == [0x7B] + Array(String(v).utf8))
    }
}
