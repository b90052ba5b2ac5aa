import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator
import TonightSnapshot
import TonightSnapshotWriter

/// Snapshot writing and reading at full size: an explore-shaped dataset of 1,000,000 users
/// (goals: write ≥ 200 MB/s of NDJSON on 2 cores, open < 50 ms, ≥ 100,000 random lookups/s on
/// one core once warm, p99 < 1 ms from cold). Baselines in the same run: `zstd -LEVEL -T2` on
/// the same NDJSON, and `zstd -dc` reading the dataset whole.
struct SnapshotBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot", abstract: "Write and read a full-size explore dataset (medians, baselines).")

    @Option(help: "Users.") var users: Int = 1_000_000
    @Option(help: "Work directory (the dataset is written here).") var dir: String = "bench-data/snapshot-bench"
    @Option(help: "Rounds for the open and lookup figures.") var runs: Int = 5
    @Option(help: "Random lookups per round.") var lookups: Int = 200_000
    @Option(help: "Frame size (snapshot.frameBytes).") var frameBytes: Int = 64 << 10
    @Flag(help: "Skip the zstd command-line baselines.") var noBaseline = false
    @Option(help: "zstd level (the pipeline's default, snapshot.compressionLevel, is 1).") var level: Int32 = 1
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

    /// One user's explore record: 0–50 items shaped like recommendations.md's explore items.
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
            w.field("score", rng.unit() * 3)
            w.field("artist", Int64(1000 + rng.below(60_000)))
            if reason == "affinity" { w.field("because", ints: [Int64(1000 + rng.below(60_000)), Int64(1000 + rng.below(60_000))]) }
            if reason == "favorite" { w.field("because", ints: [Int64(1000 + rng.below(60_000))]) }
            w.field("reason", reason)
            w.field("distanceKm", (rng.unit() * 800).rounded() / 10)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.take()
    }

    func run() throws {
        let root = URL(fileURLWithPath: dir)
        try? FileManager.default.removeItem(at: root)
        let id = "20260115T060000Z-00000000"
        let snapDir = root.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: snapDir, withIntermediateDirectories: true)
        print("snapshot benchmark: explore-shaped dataset, \(users) users, frames of \(frameBytes) bytes")

        // Write: time only the writer (JSON generation is the ranking stage's cost).
        let ids = Self.userIDs(users)
        var rng = Mix(state: 7)
        var writer = try DatasetWriter(name: "explore", directory: snapDir, frameBytes: frameBytes, level: level)
        let ndjson = noBaseline ? nil : FileHandle(forWritingAtPath: {
            _ = FileManager.default.createFile(atPath: root.appendingPathComponent("explore.ndjson").path, contents: nil)
            return root.appendingPathComponent("explore.ndjson").path
        }())
        var writeSeconds = 0.0
        var keys: [String] = []
        keys.reserveCapacity(users)
        var batch: [(String, [UInt8])] = []
        func flush() throws {
            let t0 = DispatchTime.now().uptimeNanoseconds
            for (k, j) in batch { try writer.append(key: k, json: j) }
            writeSeconds += Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            if let ndjson { ndjson.write(Data(batch.flatMap { $0.1 + [0x0A] })) }
            batch.removeAll(keepingCapacity: true)
        }
        var json = JSONWriter(capacity: 1 << 13)
        for k in ids {
            if let r = Self.record(k, &rng, &json) {
                batch.append((k, r))
                keys.append(k)
            }
            if batch.count == 20_000 { try flush() }
        }
        try flush()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let summary = try writer.finish()
        writeSeconds += Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        try? ndjson?.close()
        let mb = Double(summary.uncompressedBytes) / 1e6
        var write = BenchTable(
            String(format: "Writing an explore-shaped dataset: %d records, %.0f MB NDJSON → %.0f MB (%.2f×), %d frames of %d bytes",
                   summary.records, mb, Double(summary.bytes) / 1e6, Double(summary.uncompressedBytes) / Double(summary.bytes),
                   summary.frames, frameBytes),
            columns: ["what", "s", "MB/s of NDJSON"])
        write.row(["DatasetWriter (seekable frames, checksums, index, fsync)", sec(writeSeconds), String(format: "%.0f", mb / writeSeconds)])
        write.goal(Goal(name: "write throughput", value: mb / writeSeconds, goal: 200, direction: .atLeast, unit: " MB/s", decimals: 0))
        if !noBaseline {
            let path = root.appendingPathComponent("explore.ndjson").path
            let z = try timeCommand("zstd -q -\(level) -T0 -f '\(path)' -o '\(path).zst'")
            write.row(["baseline zstd -\(level) -T0 (one stream)", sec(z), String(format: "%.0f", mb / z)])
            write.note(String(format: "ours / zstd = %.2f", writeSeconds / z))
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".zst")
        }
        let manifest = SnapshotManifest(
            id: id, asOf: "2026-01-15T06:00:00Z", date: "2026-01-15", createdAt: "2026-01-15T06:00:00Z", codeVersion: "bench",
            configHash: "", contentHash: "", inputs: [],
            datasets: ["explore": .init(file: summary.file, bytes: Int64(summary.bytes), sha256: "", records: summary.records,
                                        frames: summary.frames, uncompressedBytes: Int64(summary.uncompressedBytes),
                                        index: summary.indexFile, indexBytes: Int64(summary.indexBytes), indexSha256: "",
                                        schemaVersion: 1)],
            stages: [], previous: nil, runId: "bench")
        try JSONEncoder().encode(manifest).write(to: snapDir.appendingPathComponent("manifest.json"))
        try Data((id + "\n").utf8).write(to: root.appendingPathComponent("CURRENT"))
        let read = try readFigures(root: root, id: id, keys: keys, summary: summary)
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
