import TonightSnapshotWriter
import Foundation
import Testing
@testable import TonightSnapshot

/// The seekable zstd writer and reader against stock tools: `zstd -dc` and Python's
/// `pyzstd.SeekableZstdFile` (installed by .ci/run).
@Suite struct SeekableFormatTests {
    static func records(_ n: Int) -> [(String, String)] {
        (0..<n).map { i in
            let key = String(format: "u%07d", i)
            return (key, #"{"key":"\#(key)","items":[{"event":"\#(String(i * 7919 % 100_000, radix: 16))","score":\#(Double(i % 97) / 97)}]}"#)
        }
    }

    static func write(_ recs: [(String, String)], frameBytes: Int = 4096) throws -> (URL, [UInt8], SeekableZstdWriter) {
        var w = SeekableZstdWriter(frameBytes: frameBytes, level: 3)
        for (k, j) in recs { try w.append(key: k, json: Array(j.utf8)) }
        let bytes = try w.finish()
        let url = temporaryDirectory("seek").appendingPathComponent("seek.ndjson.zst")
        try Data(bytes).write(to: url)
        return (url, bytes, w)
    }

        @Test(.enabled(if: ExternalTool.zstd.isAvailable))
    func zstdCommandLinePrintsTheNDJSON() throws {
        let recs = Self.records(5000)
        let (url, _, w) = try Self.write(recs)
        #expect(w.frames.count > 10)
        let (status, out) = try unpack(shell("zstd -dc '\(url.path)'", mergingStandardError: true))
        #expect(status == 0)
        #expect(out == recs.map { $0.1 + "\n" }.joined())
    }

    @Test(.enabled(if: ExternalTool.pyzstd.isAvailable))
    func pyzstdReadsAnyRange() throws {
        let recs = Self.records(5000)
        let (url, _, _) = try Self.write(recs)
        let text = recs.map { $0.1 + "\n" }.joined()
        let script = """
            import sys
            from pyzstd import SeekableZstdFile
            f = SeekableZstdFile(sys.argv[1], 'r')
            f.seek(int(sys.argv[2])); sys.stdout.buffer.write(f.read(int(sys.argv[3])))
            """
        for (start, length) in [(0, 100), (123_456, 5000), (text.utf8.count - 50, 50), (70_000, 200_000)] {
            let (status, out) = try unpack(shell("python3 -c \"\(script)\" '\(url.path)' \(start) \(length)", mergingStandardError: true))
            #expect(status == 0, "pyzstd: \(out)")
            let expected = String(decoding: Array(text.utf8)[start..<min(text.utf8.count, start + length)], as: UTF8.self)
            #expect(out == expected)
        }
    }

    @Test func readerDecodesEveryFrameAndWholeRecords() throws {
        let recs = Self.records(3000)
        let (url, _, w) = try Self.write(recs, frameBytes: 2048)
        let f = try SeekableZstdFile(path: url.path)
        #expect(f.frames.count == w.frames.count)
        var all: [UInt8] = []
        for i in f.frames.indices {
            let frame = try f.frame(i)
            #expect(frame.count <= 2048)
            #expect(frame.last == 0x0A)  // whole records only
            all += frame
        }
        #expect(String(decoding: all, as: UTF8.self) == recs.map { $0.1 + "\n" }.joined())
        #expect(w.frames.map(\.records).reduce(0, +) == recs.count)
        #expect(w.frames.first?.first == recs.first?.0 && w.frames.last?.last == recs.last?.0)
    }

    /// The key index is built while records come in (a batch every 4,096 frames): over
    /// several batches and a remainder, in both layouts, it lists every frame with its first
    /// and last key and its records, as `verify` checks against the frames themselves.
    @Test(arguments: [1, 2])
    func theIndexBuiltAsFramesAreWrittenListsEveryFrame(_ layout: Int) throws {
        let root = temporaryDirectory("index-batches")
        defer { try? FileManager.default.removeItem(at: root) }
        let keys = (0..<20_000).map { String(format: "k%06d", $0) }
        // A record a frame, 6 MB in all: the writer compresses (and so lists) frames every
        // 4 MiB, so the index takes a batch of over 4,096 frames, then the rest at `finish`.
        let records = SnapshotFixture.records(keys) { _ in "\"" + String(repeating: "x", count: 250) + "\"" }
        try SnapshotFixture.write(root: root, id: "s", datasets: ["d": records], frameBytes: 320, layout: layout)
        let snapshot = try Snapshot(directory: root.appendingPathComponent("s"), cacheBytes: 0)
        let dataset = try #require(snapshot.datasets["d"], "the dataset did not open (its index disagrees with its frames)")
        #expect(dataset.entry.frames == keys.count)
        let report = snapshot.verify(dataset: "d")
        #expect(report.isValid, "\(report.problems.map(\.message))")
        #expect(report.records == keys.count)
        let index = try KeyIndex(file: root.appendingPathComponent("s/d.index.ndjson.zst").path)
        #expect(index.count == dataset.entry.frames)
    }

    @Test func aLargerRecordGetsAFrameOfItsOwn() throws {
        var w = SeekableZstdWriter(frameBytes: 100)
        try w.append(key: "a", json: Array(repeating: 0x78, count: 10))
        try w.append(key: "b", json: Array(repeating: 0x79, count: 500))
        try w.append(key: "c", json: Array(repeating: 0x7A, count: 10))
        _ = try w.finish()
        #expect(w.frames.map(\.records) == [1, 1, 1])
    }

    @Test func keysMustIncrease() throws {
        var w = SeekableZstdWriter()
        try w.append(key: "b", json: Array("{}".utf8))
        #expect(throws: SnapshotError.self) { try w.append(key: "a", json: Array("{}".utf8)) }
        #expect(throws: SnapshotError.self) { try w.append(key: "b", json: Array("{}".utf8)) }
    }

    @Test func deterministicBytes() throws {
        let recs = Self.records(2000)
        let (_, a, _) = try Self.write(recs)
        let (_, b, _) = try Self.write(recs)
        #expect(a == b)
    }

    /// Any single flipped byte is reported, never returned as data.
    @Test func everyFlippedByteIsCaught() throws {
        let recs = Self.records(300)
        let (url, bytes, _) = try Self.write(recs, frameBytes: 1024)
        let good = try SeekableZstdFile(path: url.path)
        let truth = try good.frames.indices.map { try good.frame($0) }
        for position in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
            var bad = bytes
            bad[position] ^= 0x01
            let u = url.deletingLastPathComponent().appendingPathComponent("flip-\(position).zst")
            try Data(bad).write(to: u)
            defer { try? FileManager.default.removeItem(at: u) }
            do {
                let f = try SeekableZstdFile(path: u.path)
                for i in f.frames.indices {
                    let data = try f.frame(i)
                    #expect(i < truth.count && data == truth[i], "byte \(position): frame \(i) returned wrong data")
                }
                #expect(Bool(false), "byte \(position): the flip went unnoticed")
            } catch is SnapshotError {
                // reported: good
            }
        }
    }
}
