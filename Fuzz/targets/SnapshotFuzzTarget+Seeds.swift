import Foundation
import TonightSnapshot
import TonightSnapshotWriter

extension SnapshotFuzzTarget {
    /// The tiny job's snapshot (its manifest, explore's index, data file and key table,
    /// alerts' data file) and a layout-2 dataset with a trained dictionary, which the tiny
    /// job's datasets are too small to get.
    package static func seeds(_ sources: FuzzSeedSources) throws -> [FuzzSeed] {
        let snap = try sources.tinySnapshot()
        func file(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: snap.appendingPathComponent(name))) }
        let index = try SeekableZstdFile(path: snap.appendingPathComponent("explore.index.ndjson.zst").path)
        var lines: [UInt8] = []
        for i in index.frames.indices { lines += try index.frame(i) }
        let explore = try SeekableZstdFile(path: snap.appendingPathComponent("explore.ndjson.zst").path)
        var records = 0
        for i in explore.frames.indices.prefix(8) { records += try explore.frame(i).split(separator: 0x0A).count }
        return [
            FuzzSeed(name: "manifest", bytes: [0] + (try file("manifest.json")), least: 23),
            // "gsDYBAAAAA", one of the probes, has an explore deck in the tiny job.
            FuzzSeed(name: "explore index", bytes: [1] + lines, least: 1),
            FuzzSeed(name: "explore", bytes: [2] + (try file("explore.ndjson.zst")), least: records),
            FuzzSeed(name: "alerts", bytes: [2] + (try file("alerts.ndjson.zst")), least: 0),
            FuzzSeed(name: "explore keys", bytes: [3] + (try file("explore.keys")), least: 1),
            FuzzSeed(name: "layout 2", bytes: try layout2Seed(sources.directory("layout2-seed")), least: layout2SeedRecords),
            roundTripSeed(userIDs: try sources.tiny("tickets/users.csv")),
        ]
    }

    /// Keys for the writer's round trip (kind 5): the tiny users' ids, 250 of the generator's
    /// shape, and ids an exporter may send (quotes, backslashes, accents in both spellings,
    /// other scripts, an emoji, prefixes of one another, 64 characters), and keys wider than
    /// the id rule that the writer must take all the same (one cluster of 81 scalars, a
    /// zero-width space, a private-use character), in 144-byte frames: over 64 frames, so the
    /// key table has two blocks.
    static func roundTripSeed(userIDs csv: [UInt8]) -> FuzzSeed {
        var lines = csv.split(separator: 0x0A).dropFirst().map { Array($0.prefix { $0 != UInt8(ascii: ",") }) }
        lines += (0..<250).map { Array(String(format: "u%04dAAAAA", $0).utf8) }
        let tricky = [#"a"b"#, #"c\d"#, #"\u0041"#, "\"", "\\", "é", "e\u{301}", "日本語", "Ωμέγα", "😀", "a", "ab", "abc", "~", "{\"key\":1}",
                      String(repeating: "z", count: 64), "x y", "/", "gsDYBAAAAA",
                      "e" + String(repeating: "\u{301}", count: 80), "a\u{200B}b", "\u{E000}"]
        lines += tricky.map { Array($0.utf8) }
        let bytes = [5, 10] + Array(lines.joined(separator: [0x0A]))
        let keys = bytes.dropFirst(2).withUnsafeBufferPointer { roundTripKeys($0) }
        return FuzzSeed(name: "round trip", bytes: bytes, least: keys.count)
    }

    /// Records of the layout-2 seed.
    static let layout2SeedRecords = 500

    /// A layout-2 dataset written by the writer as a night writes one (2 KiB frames, a trained
    /// dictionary, the key table and index), small enough for the fuzzer's inputs: 500
    /// explore-like records (~110 KB of NDJSON, ~50 frames) and a 4 KiB dictionary.
    static func layout2Seed(_ dir: URL) throws -> [UInt8] {
        var writer = try DatasetWriter(name: layout2Name, directory: dir, frameBytes: 2 << 10, sync: false, layout: 2, dictionaryBytes: 4 << 10)
        var rng: UInt64 = 0x5EED
        func next(_ bound: UInt64) -> UInt64 {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (rng >> 33) % bound
        }
        for u in 0..<layout2SeedRecords {
            let key = String(format: "u%06d", u)
            let items = (0..<(1 + Int(next(4)))).map { _ in
                String(format: #"{"event":"%016llX","artist":%llu,"score":0.%06llu,"distanceKm":%llu.%02llu}"#,
                       next(1 << 40), next(200_000), next(1_000_000), next(200), next(100))
            }
            try writer.append(key: key, json: Array(#"{"key":"\#(key)","items":[\#(items.joined(separator: ","))]}"#.utf8))
        }
        let summary = try writer.finish()
        guard let dictionary = summary.dictionaryFile else { throw FuzzSeedSources.SeedError("the layout-2 seed trained no dictionary") }
        func file(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: dir.appendingPathComponent(name))) }
        guard let keys = summary.keyTableFile else { throw FuzzSeedSources.SeedError("the layout-2 seed has no key table") }
        return layout2Input(dictionary: try file(dictionary), keys: try file(keys), index: try file(summary.indexFile), data: try file(summary.file))
    }
}
