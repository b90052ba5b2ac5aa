import CZstd
import Foundation
import Testing
import TonightGenerator
import TonightBase
@testable import TonightSnapshotWriter
@testable import TonightSnapshot

/// Layout 2: small frames compressed with a dictionary trained per dataset, found through the
/// binary key table; stock tools still read it with the dictionary.
@Suite struct DictionaryLayoutTests {
    static let id = "20260115T060000Z-00000002"

    /// Explore-like records with enough repetition for a dictionary to learn from.
    static func records(_ n: Int) -> [(String, [UInt8])] {
        var rng = SplitMix64(seed: 11)
        return SnapshotFixture.records((0..<n).map { String(format: "u%06d", $0 * 7) }) { _ in
            let items = (0..<(1 + rng.next() % 6)).map { _ in
                #"{"event":"\#(String(rng.next() % 90_000, radix: 16))","score":\#(Double(rng.next() % 10_000) / 7919),"reason":"affinity","because":[\#(rng.next() % 500)]}"#
            }
            return "[" + items.joined(separator: ",") + "]"
        }
    }

    static func build(_ recs: [(String, [UInt8])], frameBytes: Int = 1024, dictionaryBytes: Int = 8 << 10) throws -> (URL, Snapshot) {
        let root = temporaryDirectory("snap-dict")
        try SnapshotFixture.write(root: root, id: id, datasets: ["explore": recs], frameBytes: frameBytes, layout: 2,
                                  dictionaryBytes: dictionaryBytes)
        try SnapshotFixture.setCurrent(root: root, id)
        return (root, try Snapshot.openCurrent(in: root, cacheBytes: 0))
    }

    @Test(arguments: [0, 1 << 20])
    func everyKeyIsFoundOthersAreNot(cacheBytes: Int) throws {
        let recs = Self.records(3000)
        let (root, _) = try Self.build(recs)
        let d = try Snapshot.openCurrent(in: root, cacheBytes: cacheBytes).dataset("explore")
        #expect(d.entry.layout == 2)
        #expect(d.entry.dictionary == "explore.dict" && d.entry.keyTable == "explore.keys")
        #expect(d.entry.frames > 3 * KeyTableWriter.blockFrames, "several key table blocks")
        for (k, j) in recs { #expect(try d.json(key: k) == j) }
        for k in ["", "a", "u", "u000001", "u0000070", "u999999", "v", "\u{10FFFF}"] { #expect(try d.json(key: k) == nil, "\(k)") }
        let keys = recs.map(\.0).shuffled() + ["nope", "u000001"]
        let batch = try d.records(keys: keys)
        let byKey = Dictionary(uniqueKeysWithValues: recs)
        for (k, got) in zip(keys, batch) { #expect(got == byKey[k], "\(k)") }
        var seen: [[UInt8]] = []
        try d.forEachRecord { seen.append($0) }
        #expect(seen == recs.map(\.1))
    }

    @Test func framesNameTheDictionaryAndStayWithinTheirSize() throws {
        let (root, s) = try Self.build(Self.records(2000))
        let d = try s.dataset("explore")
        let dir = root.appendingPathComponent(Self.id)
        let dict = [UInt8](try Data(contentsOf: dir.appendingPathComponent("explore.dict")))
        let dictID = dict.withUnsafeBytes { ZDICT_getDictID($0.baseAddress, $0.count) }
        #expect(dictID != 0 && dictID == d.entry.dictionaryID)
        let file = try SeekableZstdFile(path: d.path, dictionary: try DecompressionDictionary(path: dir.appendingPathComponent("explore.dict").path))
        #expect(file.frames.count == d.entry.frames)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: d.path)))
        for f in file.frames {
            let id = bytes.withUnsafeBytes { ZSTD_getDictID_fromFrame($0.baseAddress! + f.offset, f.compressedSize) }
            #expect(id == dictID)
            #expect(f.decompressedSize <= 1024)
        }
        #expect(s.verify().isValid)
    }

    @Test func sameRecordsSameBytes() throws {
        let recs = Self.records(1500)
        let (a, _) = try Self.build(recs)
        let (b, _) = try Self.build(recs)
        for f in ["explore.ndjson.zst", "explore.index.ndjson.zst", "explore.dict", "explore.keys"] {
            let x = try Data(contentsOf: a.appendingPathComponent(Self.id).appendingPathComponent(f))
            let y = try Data(contentsOf: b.appendingPathComponent(Self.id).appendingPathComponent(f))
            #expect(x == y, "\(f)")
        }
    }

    @Test func aSmallDatasetGetsNoDictionary() throws {
        let recs = Self.records(20)
        let (root, s) = try Self.build(recs)
        let d = try s.dataset("explore")
        #expect(d.entry.dictionary == nil && d.entry.keyTable != nil)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(Self.id).appendingPathComponent("explore.dict").path))
        for (k, j) in recs { #expect(try d.json(key: k) == j) }
        #expect(s.verify().isValid)
    }

    @Test(.enabled(if: ExternalTool.zstd.isAvailable))
    func zstdWithTheDictionaryPrintsTheNDJSON() throws {
        let recs = Self.records(2000)
        let (root, _) = try Self.build(recs)
        let dir = root.appendingPathComponent(Self.id).path
        let (status, out) = try unpack(shell("zstd -q -dc -D '\(dir)/explore.dict' '\(dir)/explore.ndjson.zst'", mergingStandardError: true))
        #expect(status == 0)
        #expect(out == recs.map { String(decoding: $0.1, as: UTF8.self) + "\n" }.joined())
        // Without the dictionary, zstd refuses (it never prints wrong text).
        let (without, _) = try unpack(shell("zstd -q -dc '\(dir)/explore.ndjson.zst' > /dev/null", mergingStandardError: true))
        #expect(without != 0)
    }

    @Test(.enabled(if: ExternalTool.pyzstd.isAvailable))
    func pyzstdReadsRangesWithTheDictionary() throws {
        let recs = Self.records(2000)
        let (root, _) = try Self.build(recs)
        let dir = root.appendingPathComponent(Self.id).path
        let text = Array(recs.map { String(decoding: $0.1, as: UTF8.self) + "\n" }.joined().utf8)
        let script = """
            import sys
            from pyzstd import SeekableZstdFile, ZstdDict
            d = ZstdDict(open(sys.argv[2], 'rb').read())
            f = SeekableZstdFile(sys.argv[1], 'r', zstd_dict=d)
            f.seek(int(sys.argv[3])); sys.stdout.buffer.write(f.read(int(sys.argv[4])))
            """
        for (start, length) in [(0, 100), (12_345, 3000), (text.count - 50, 50), (40_000, 100_000)] {
            let (status, out) = try unpack(shell(
                "python3 -c \"\(script)\" '\(dir)/explore.ndjson.zst' '\(dir)/explore.dict' \(start) \(length)", mergingStandardError: true))
            #expect(status == 0, "pyzstd: \(out)")
            #expect(out == String(decoding: text[start..<min(text.count, start + length)], as: UTF8.self))
        }
    }

    /// Any flipped byte of the key table or the dictionary is reported, never served.
    @Test(arguments: ["explore.keys", "explore.dict", "explore.ndjson.zst"])
    func flippedBytesAreCaught(file: String) throws {
        let recs = Self.records(500)
        let (root, _) = try Self.build(recs, frameBytes: 512, dictionaryBytes: 4 << 10)
        let url = root.appendingPathComponent(Self.id).appendingPathComponent(file)
        let original = [UInt8](try Data(contentsOf: url))
        // Every byte of the key table's header and directory (its last ~1 KB), a stride
        // through the rest; a stride through the other files plus their last 64 bytes.
        var offsets = Array(stride(from: 0, to: original.count, by: max(1, original.count / 150)))
        offsets += (max(0, original.count - (file == "explore.keys" ? 1200 : 64))..<original.count)
        if file == "explore.keys" { offsets += 0..<KeyTable.headerBytes }
        for offset in Set(offsets).sorted() {
            var bytes = original
            bytes[offset] ^= 0x5A
            try Data(bytes).write(to: url)
            defer { try? Data(original).write(to: url) }
            let snapshot: Snapshot
            do {
                snapshot = try Snapshot.open(id: Self.id, in: root, cacheBytes: 0)
            } catch is SnapshotError {
                continue
            }
            #expect(!snapshot.verify().isValid, "\(file) byte \(offset): verify accepted it")
            guard let d = try? snapshot.dataset("explore") else { continue }
            for (k, j) in recs.enumerated().filter({ $0.offset % 5 == 0 }).map(\.element) {
                if let got = try? d.json(key: k) { #expect(got == j, "\(file) byte \(offset): wrong data for \(k)") }
            }
        }
    }

    /// A snapshot written before layout 2 (Fixtures/legacy-snapshot: the bundled fixtures' run
    /// by the previous release, 64 KiB frames, format-1 manifest) opens and answers.
    @Test func theEarlierLayoutStillOpens() throws {
        let root = packageRoot.appendingPathComponent("Fixtures/legacy-snapshot")
        let s = try Snapshot.openCurrent(in: root, cacheBytes: 0)
        #expect(s.manifest.formatVersion == 1)
        #expect(s.unavailable.isEmpty)
        #expect(s.datasets.count >= 20)
        var total = 0
        for (_, d) in s.datasets {
            #expect(d.entry.layout == nil)
            var lines: [[UInt8]] = []
            try d.forEachRecord { lines.append($0) }
            total += lines.count
            for line in lines {
                let key = line.withUnsafeBufferPointer { JSONKey.decode($0, at: 7)!.0 }
                #expect(try d.json(key: String(decoding: key, as: UTF8.self)) == line)
            }
        }
        #expect(total == s.manifest.datasets.values.reduce(0) { $0 + $1.records })
        #expect(s.verify(references: true).isValid)
    }

    @Test func manifestsThisReaderCannotReadAreRefusedClearly() throws {
        let recs = Self.records(100)
        let (root, s) = try Self.build(recs)
        let path = root.appendingPathComponent(Self.id).appendingPathComponent("manifest.json")
        func rewrite(_ change: (inout SnapshotManifest) -> Void) throws -> SnapshotError? {
            var m = s.manifest
            change(&m)
            try JSONEncoder().encode(m).write(to: path)
            do {
                _ = try Snapshot.open(id: Self.id, in: root)
                return nil
            } catch let e as SnapshotError {
                return e
            }
        }
        let future = try rewrite { $0.formatVersion = 3 }
        #expect(future?.code == .unsupported && future?.message.contains("manifest format 3") == true)
        let mixed = try rewrite { $0.formatVersion = 1 }
        #expect(mixed?.code == .unsupported && mixed?.message.contains("layout 2") == true)
        let escape = try rewrite { $0.datasets["explore"]!.keyTable = "../../etc/passwd" }
        #expect(escape?.code == .malformed)
        let unknown = try rewrite { $0.datasets["explore"]!.layout = 7 }
        #expect(unknown?.code == .unsupported)
    }

    /// A key table whose hashes are right but whose entries point outside the data file (a
    /// buggy or hostile writer) gives errors, never a trap or bytes from elsewhere.
    @Test func aKeyTablePointingOutsideTheFileIsRefused() throws {
        let dir = temporaryDirectory("keys-hostile")
        let data = dir.appendingPathComponent("d.ndjson.zst"), keys = dir.appendingPathComponent("d.keys")
        try Data(repeating: 0, count: 100).write(to: data)
        var frames: [SeekableZstdWriter.FrameInfo] = []
        for (i, size) in [60, 30, Int(UInt32.max), 3].enumerated() {
            var f = SeekableZstdWriter.FrameInfo(first: "k\(i)", last: "k\(i)", records: 1, bytes: 10)
            f.compressedSize = size
            frames.append(f)
        }
        try Data(KeyTableWriter.build(frames: frames, records: 4, dataBytes: 100, blockFrames: 2)).write(to: keys)
        let file = try DictionaryFramesFile(path: data.path, keyTablePath: keys.path, dictionary: nil)
        for i in 0..<4 {
            let entry = try file.table.frame(i)
            #expect(throws: SnapshotError.self) { try file.frame(i, entry: entry) }
        }
        let before = try Array("a".utf8).withUnsafeBufferPointer { try file.table.frame(for: $0) }
        #expect(before == nil)
        #expect(throws: SnapshotError.self) { try file.forEachFrame { _, _, _, _ in } }
    }

    /// The key table's hash is zstd's: the low 32 bits of XXH64 of a frame's content are the
    /// checksum libzstd writes at its end.
    /// A writer keeps its zstd contexts across batches (~4 MiB each): every frame of a file of
    /// several batches is byte for byte what a fresh context makes of the same records, with
    /// and without a dictionary.
    @Test(arguments: [false, true])
    func contextsKeptAcrossBatchesGiveFreshContextBytes(dictionary: Bool) throws {
        let recs = Self.records(60_000)
        var raw: [UInt8] = [], sizes: [Int] = []
        for (_, json) in recs {
            raw += json
            raw.append(0x0A)
            sizes.append(json.count + 1)
        }
        #expect(raw.count > 8 << 20, "several batches")
        var dict: CompressionDictionary?
        if dictionary {
            let trained = try #require(CompressionDictionary.train(samples: Array(raw.prefix(1 << 20)), sizes: Array(sizes.prefix(2_000)),
                                                                   training: .init(capacity: 16 << 10), level: 1))
            dict = trained
        }
        var w = SeekableZstdWriter(frameBytes: 2 << 10, level: 1, dictionary: dict)
        for (key, json) in recs { try w.append(key: key, json: json) }
        let file = try w.finish()
        guard let cctx = ZSTD_createCCtx() else { throw SnapshotError(file: "(test)", "no context") }
        defer { ZSTD_freeCCtx(cctx) }
        var at = 0, compressedAt = 0
        for f in w.frames {
            ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters)
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1)
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1)
            if let dict { ZSTD_CCtx_refCDict(cctx, dict.cdict) }
            var out = [UInt8](repeating: 0, count: ZSTD_compressBound(f.bytes))
            let n = raw.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { ZSTD_compress2(cctx, $0.baseAddress, $0.count, src.baseAddress! + at, f.bytes) }
            }
            #expect(ZSTD_isError(n) == 0 && n == f.compressedSize)
            #expect(Array(file[compressedAt..<(compressedAt + f.compressedSize)]) == Array(out.prefix(n)))
            at += f.bytes
            compressedAt += f.compressedSize
        }
        #expect(at == raw.count && w.frames.count > 4_000)
    }

    @Test(arguments: [0, 1, 3, 4, 7, 8, 31, 32, 33, 64, 100, 1000, 4096, 70_001])
    func xxh64AgreesWithZstd(length: Int) throws {
        var rng = SplitMix64(seed: UInt64(length))
        let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        var w = SeekableZstdWriter(frameBytes: 1 << 20, level: 1)
        try w.append(key: "k", json: data)
        _ = try w.finish()
        #expect(UInt32(truncatingIfNeeded: XXH64.hash(data + [0x0A])) == w.frames[0].checksum)
        #expect(XXH64.hash([UInt8]()) == 0xEF46_DB37_51D8_E999)
    }
}

