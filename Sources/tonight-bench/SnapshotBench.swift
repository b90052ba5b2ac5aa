import ArgumentParser
import Foundation
import TonightBase
import TonightCore
import TonightGenerator
import TonightSnapshot
import TonightSnapshotWriter

/// Snapshot writing and reading at full size (issue 19): an explore-shaped dataset of
/// 1,000,000 users written in today's layout (small frames with a trained dictionary, binary
/// key table) and, from the same records in the same invocation, in the earlier one (64 KiB
/// level-1 frames, NDJSON index). Goals on one core with the default 64 MiB cache: ≥ 200,000
/// random lookups/s, cold p99 < 1 ms, open < 30 ms, size ≤ 1.10× the 64 KiB level-1 files, the
/// batch CLI reading 100,000 random keys in < 1 s. Baselines: `zstd -1 -T0` writing the NDJSON,
/// `zstd -dc` reading it, and Sparkey's published figures.
struct SnapshotBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot", abstract: "Write and read a full-size explore dataset in both layouts (medians, baselines).")

    @Option(help: "Users (synthetic records).") var users: Int = 1_000_000
    @Option(help: "Take the records of this snapshot root's CURRENT explore dataset instead of synthetic ones (OUT/snapshots).")
    var recordsFrom: String?
    @Option(help: "Work directory (the datasets are written here).") var dir: String = "bench-data/snapshot-bench"
    @Option(help: "Rounds for the open and lookup figures.") var runs: Int = 5
    @Option(help: "Random lookups per round.") var lookups: Int = 200_000
    @Option(help: "Frame size (snapshot.frameBytes).") var frameBytes: Int = 2 << 10
    @Option(help: "Dictionary size (snapshot.dictionaryBytes).") var dictionaryBytes: Int = 112 << 10
    @Option(help: "zstd level (snapshot.compressionLevel).") var level: Int32 = 1
    @Option(help: "The tonight binary for the batch CLI figure (default: beside this one).") var tonight: String?
    @Flag(help: "Skip the zstd command-line baselines.") var noBaseline = false
    @OptionGroup var output: BenchOutput

    /// A deterministic generator (the generator's SplitMix64) so every run writes the same bytes.
    struct Mix {
        private var source: SplitMix64
        init(state: UInt64) { source = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { source.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    static let idAlphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// Parse-style user ids, sorted by bytes, as the dataset needs them.
    static func userIDs(_ n: Int) -> [String] {
        var rng = Mix(state: 42)
        var ids = Set<String>()
        while ids.count < n {
            ids.insert(String(decoding: (0..<10).map { _ in idAlphabet[rng.below(62)] }, as: UTF8.self))
        }
        return ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// One user's explore record: 0–50 items shaped like recommendations.md's explore items,
    /// numbers as precise as published (scores 6 significant digits, distances 2 decimals).
    static func record(_ key: String, _ rng: inout Mix, _ w: inout JSONWriter) -> [UInt8]? {
        let n = rng.below(51)
        guard n > 0 else { return nil }
        w.beginObject()
        w.field("key", key)
        w.key("items")
        w.beginArray()
        for _ in 0..<n {
            let reason = ["favorite", "affinity", "affinity", "popular"][rng.below(4)]
            w.beginObject()
            w.field("event", EventID.format(rng.next() % 400_000 &* 0x9E37_79B9_7F4A))
            w.field("score", rng.unit() * 3, .score)
            w.field("artist", Int64(1000 + rng.below(60_000)))
            if reason == "affinity" { w.field("because", ints: [Int64(1000 + rng.below(60_000)), Int64(1000 + rng.below(60_000))]) }
            if reason == "favorite" { w.field("because", ints: [Int64(1000 + rng.below(60_000))]) }
            w.field("reason", reason)
            w.field("distanceKm", rng.unit() * 800, .distance)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.take()
    }

    /// The records to write, in key order: synthetic, or a published explore dataset's.
    func records() throws -> [(String, [UInt8])] {
        if let recordsFrom {
            var out: [(String, [UInt8])] = []
            let d = try Snapshot.openCurrent(in: URL(fileURLWithPath: recordsFrom), cacheBytes: 0).dataset("explore")
            try d.forEachRecord { line in
                line.withUnsafeBufferPointer { b in
                    if let (k, _) = JSONKey.decode(b, at: 7) { out.append((String(decoding: k, as: UTF8.self), line)) }
                }
            }
            return out
        }
        var rng = Mix(state: 7)
        var json = JSONWriter(capacity: 1 << 13)
        return Self.userIDs(users).compactMap { k in Self.record(k, &rng, &json).map { (k, $0) } }
    }

    /// Writes one layout of the dataset as its own snapshot under `root`; returns the summary
    /// and the writer's seconds.
    func write(_ records: [(String, [UInt8])], root: URL, layout: Int, frameBytes: Int, dictionaryBytes: Int, level: Int32) throws
        -> (DatasetWriter.Summary, Double) {
        try? FileManager.default.removeItem(at: root)
        let id = "20260115T060000Z-00000000"
        let snapDir = root.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: snapDir, withIntermediateDirectories: true)
        let t0 = DispatchTime.now().uptimeNanoseconds
        var writer = try DatasetWriter(name: "explore", directory: snapDir, frameBytes: frameBytes, level: level,
                                       layout: layout, dictionaryBytes: dictionaryBytes)
        for (k, j) in records { try writer.append(key: k, json: j) }
        let s = try writer.finish()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        let entry = try s.manifestEntry(in: snapDir, schemaVersion: 2) { try ContentHash.file(URL(fileURLWithPath: $0)) }
        let manifest = SnapshotManifest(
            id: id, asOf: "2026-01-15T06:00:00Z", date: "2026-01-15", createdAt: "2026-01-15T06:00:00Z", codeVersion: "bench",
            configHash: "", contentHash: "", inputs: [], datasets: ["explore": entry], stages: [], previous: nil, runId: "bench")
        try JSONEncoder().encode(manifest).write(to: snapDir.appendingPathComponent("manifest.json"))
        try Data((id + "\n").utf8).write(to: root.appendingPathComponent("CURRENT"))
        return (s, seconds)
    }

    func run() throws {
        let base = URL(fileURLWithPath: dir)
        let records = try records()
        let keys = records.map(\.0)
        let mb = Double(records.reduce(0) { $0 + $1.1.count + 1 }) / 1e6
        print("snapshot benchmark: explore-shaped dataset, \(records.count) records (\(recordsFrom == nil ? "synthetic" : "from \(recordsFrom!)")), \(String(format: "%.0f", mb)) MB of NDJSON")

        let newRoot = base.appendingPathComponent("layout2/snapshots"), oldRoot = base.appendingPathComponent("layout1/snapshots")
        let (new, newSeconds) = try write(records, root: newRoot, layout: 2, frameBytes: frameBytes, dictionaryBytes: dictionaryBytes, level: level)
        let (old, oldSeconds) = try write(records, root: oldRoot, layout: 1, frameBytes: 64 << 10, dictionaryBytes: 0, level: 1)
        var write = BenchTable(
            String(format: "Writing %d records, %.0f MB NDJSON (writer only: the ranking stage's JSON is not timed)", new.records, mb),
            columns: ["layout", "frames", "data MB", "dictionary KB", "index MB (NDJSON)", "key table MB", "ratio", "size vs 64 KiB L1", "s", "MB/s"])
        func row(_ name: String, _ s: DatasetWriter.Summary, _ seconds: Double) {
            let size = Double(s.bytes + s.dictionaryBytes)
            write.row([name, String(s.frames), String(format: "%.1f", Double(s.bytes) / 1e6), String(format: "%.0f", Double(s.dictionaryBytes) / 1e3),
                       String(format: "%.1f", Double(s.indexBytes) / 1e6), String(format: "%.1f", Double(s.keyTableBytes) / 1e6),
                       String(format: "%.2f", Double(s.uncompressedBytes) / size), String(format: "%.3f", size / Double(old.bytes)),
                       sec(seconds), String(format: "%.0f", mb / seconds)])
        }
        row("2: \(frameBytes >> 10) KiB frames, L\(level), dictionary ≤ \(dictionaryBytes >> 10) KiB", new, newSeconds)
        row("1: 64 KiB frames, L1 (the earlier layout)", old, oldSeconds)
        let ratio = Double(new.bytes + new.dictionaryBytes) / Double(old.bytes)
        write.goal(Goal(name: "data + dictionary against the 64 KiB level-1 file", value: ratio, goal: 1.10, direction: .atMost, unit: "×", decimals: 3))
        write.note(String(format: "with every file (indexes, key table) on both sides: %.3f×",
                          Double(new.bytes + new.dictionaryBytes + new.indexBytes + new.keyTableBytes) / Double(old.bytes + old.indexBytes)))
        write.note(String(format: "layout 2 holds %.2f records a frame on average: a partial frame read (stop once the record is out) could save little, and a frame this small is one zstd block, decoded whole", Double(new.records) / Double(new.frames)))
        write.goal(Goal(name: "write throughput (layout 2)", value: mb / newSeconds, goal: 200, direction: .atLeast, unit: " MB/s", decimals: 0))
        if !noBaseline {
            let path = base.appendingPathComponent("explore.ndjson").path
            guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
                throw ValidationError("cannot create \(path)")
            }
            var chunk: [UInt8] = []
            for (_, j) in records {
                chunk += j
                chunk.append(0x0A)
                if chunk.count > 8 << 20 { h.write(Data(chunk)); chunk.removeAll(keepingCapacity: true) }
            }
            h.write(Data(chunk))
            try h.close()
            let z = try timeCommand("zstd -q -1 -T0 -f '\(path)' -o '\(path).zst'")
            write.row(["baseline zstd -1 -T0 (one stream)", "-", "-", "-", "-", "-", "-", "-", sec(z), String(format: "%.0f", mb / z)])
            write.note(String(format: "ours (layout 2) / zstd = %.2f", newSeconds / z))
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".zst")
        }
        print(write.text)
        let read = try readFigures(root: newRoot, oldRoot: oldRoot, keys: keys, summary: new)
        print(read.text)
        try output.emit(benchmark: "snapshot", tables: [write, read])
    }

    func timeCommand(_ command: String) throws -> Double {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        let t0 = DispatchTime.now().uptimeNanoseconds
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ValidationError("baseline failed: \(command)") }
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
    }
}
