import ArgumentParser
import Foundation
import TonightSnapshot
import TonightSnapshotWriter

extension SnapshotBench {
    /// Drops the files' pages from the OS cache (posix_fadvise), for cold figures.
    func evict(_ paths: [String]) {
        for p in paths {
            let fd = open(p, O_RDONLY)
            guard fd >= 0 else { continue }
            fdatasync(fd)
            posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(fd)
        }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    func percentile(_ xs: [Double], _ p: Double) -> Double {
        let s = xs.sorted()
        return s[min(s.count - 1, Int(Double(s.count) * p))]
    }

    /// Random lookups of `keys` on one thread; returns lookups per second (all must hit).
    func throughput(_ d: SnapshotDataset, _ keys: [String], count: Int, seed: UInt64) throws -> Double {
        var rng = Mix(state: seed)
        let sample = (0..<count).map { _ in keys[rng.below(keys.count)] }
        let t0 = Self.now()
        var found = 0
        for k in sample where try d.json(key: k) != nil { found += 1 }
        let s = Double(Self.now() - t0) / 1e9
        guard found == count else { throw SnapshotError(file: d.name, "lookups missed: \(count - found)") }
        return Double(count) / s
    }

    /// Keys for random lookups, drawn with `seed`.
    func sample(_ keys: [String], count: Int, seed: UInt64) -> [String] {
        var rng = Mix(state: seed)
        return (0..<count).map { _ in keys[rng.below(keys.count)] }
    }

    func readFigures(root: URL, oldRoot: URL, keys: [String], summary: DatasetWriter.Summary) throws -> BenchTable {
        var table = BenchTable("Reading it: layout 2 (\(runs) rounds, medians; one core)", columns: ["what", "figure"])
        let id = try String(contentsOf: root.appendingPathComponent("CURRENT"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let dir = root.appendingPathComponent(id)
        let files = (try FileManager.default.contentsOfDirectory(atPath: dir.path)).map { dir.appendingPathComponent($0).path }

        var coldOpen: [Double] = [], warmOpen: [Double] = []
        for _ in 0..<runs {
            evict(files)
            var t0 = Self.now()
            _ = try Snapshot.openCurrent(in: root)
            coldOpen.append(Double(Self.now() - t0) / 1e6)
            t0 = Self.now()
            _ = try Snapshot.openCurrent(in: root)
            warmOpen.append(Double(Self.now() - t0) / 1e6)
        }
        table.row(["open, cold (manifest, dictionary, key table directory; \(summary.frames) frames)", String(format: "%.2f ms", median(coldOpen))])
        table.row(["open, warm", String(format: "%.2f ms", median(warmOpen))])
        table.goal(Goal(name: "cold open", value: median(coldOpen), goal: 30, direction: .atMost, unit: " ms", decimals: 2))

        // Cold: page cache dropped, a fresh reader, each lookup timed.
        var p50s: [Double] = [], p99s: [Double] = [], maxes: [Double] = []
        for r in 0..<runs {
            evict(files)
            let d = try Snapshot.openCurrent(in: root).dataset("explore")
            var lat: [Double] = []
            for k in sample(keys, count: 20_000, seed: UInt64(100 + r)) {
                let t0 = Self.now()
                guard try d.json(key: k) != nil else { throw SnapshotError(file: "bench", "missed \(k)") }
                lat.append(Double(Self.now() - t0) / 1e6)
            }
            p50s.append(percentile(lat, 0.5))
            p99s.append(percentile(lat, 0.99))
            maxes.append(lat.max()!)
        }
        table.row(["cold lookups (page cache dropped, 20,000 random keys): p50", String(format: "%.3f ms", median(p50s))])
        table.row(["cold lookups: p99", String(format: "%.3f ms", median(p99s))])
        table.row(["cold lookups: max", String(format: "%.1f ms", median(maxes))])
        table.goal(Goal(name: "cold lookup p99", value: median(p99s), goal: 1, direction: .atMost, unit: " ms", decimals: 3))

        // Warm, one core: both layouts, three cache settings.
        var defaultRate = 0.0
        for (layoutName, layoutRoot) in [("layout 2", root), ("layout 1 (64 KiB frames)", oldRoot)] {
            for (label, budget) in [("no frame cache", 0), ("default frame cache (64 MiB)", Snapshot.defaultCacheBytes),
                                    ("frame cache holding the dataset", summary.uncompressedBytes + (64 << 20))] {
                let d = try Snapshot.openCurrent(in: layoutRoot, cacheBytes: budget).dataset("explore")
                if budget > Snapshot.defaultCacheBytes {
                    try d.forEachFrame()  // warm every frame once
                } else {
                    _ = try throughput(d, keys, count: lookups, seed: 1)  // one whole round to warm the mapping and key table
                }
                var rates: [Double] = []
                for r in 0..<runs { rates.append(try throughput(d, keys, count: lookups, seed: UInt64(r + 2))) }
                table.row(["warm random lookups, \(layoutName), \(label)", String(format: "%.0f /s", median(rates))])
                if budget == Snapshot.defaultCacheBytes && layoutRoot == root { defaultRate = median(rates) }
            }
        }
        table.goal(Goal(name: "warm random lookups, default cache", value: defaultRate, goal: 200_000, direction: .atLeast, unit: "/s", decimals: 0))

        // Batch: the library call and the CLI, 100,000 random keys.
        let batch = sample(keys, count: 100_000, seed: 99)
        let d = try Snapshot.openCurrent(in: root).dataset("explore")
        var batchLib: [Double] = []
        for _ in 0..<runs {
            let t0 = Self.now()
            let got = try d.records(keys: batch)
            batchLib.append(Double(Self.now() - t0) / 1e9)
            guard !got.contains(where: { $0 == nil }) else { throw SnapshotError(file: "bench", "a batch key was missed") }
        }
        table.row(["records(keys:) of 100,000 random keys (library)", String(format: "%.3f s", median(batchLib))])
        let keysFile = root.appendingPathComponent("keys.txt")
        try Data(batch.joined(separator: "\n").utf8 + [0x0A]).write(to: keysFile)
        let binary = tonight ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tonight").path
        var cli: [Double] = []
        for _ in 0..<runs {
            let m = try ChildProcess.run([binary, "snapshot", "get", "explore", "--keys", keysFile.path, "--out", root.deletingLastPathComponent().path])
            guard m.status == 0 else { throw ValidationError("tonight snapshot get --keys failed (exit \(m.status))") }
            cli.append(m.seconds)
        }
        table.row(["tonight snapshot get explore --keys (100,000 random keys), whole process", String(format: "%.3f s", median(cli))])
        table.goal(Goal(name: "batch CLI, 100,000 random keys", value: median(cli), goal: 1, direction: .atMost, unit: " s", decimals: 3))

        if !noBaseline {
            let t = try timeCommand("zstd -dc -D '\(dir.appendingPathComponent("explore.dict").path)' '\(dir.appendingPathComponent("explore.ndjson.zst").path)' > /dev/null")
            var ours: [Double] = []
            let d = try Snapshot.openCurrent(in: root, cacheBytes: 0).dataset("explore")
            for _ in 0..<3 {
                let t0 = Self.now()
                var n = 0
                try d.forEachRecord { _ in n += 1 }
                ours.append(Double(Self.now() - t0) / 1e9)
            }
            let mb = Double(summary.uncompressedBytes) / 1e6
            table.row(["full scan (frame checksums, record split)", String(format: "%.2f s, %.0f MB/s", median(ours), mb / median(ours))])
            table.row(["baseline zstd -dc -D explore.dict > /dev/null", String(format: "%.2f s, %.0f MB/s", t, mb / t)])
        }
        table.note("Sparkey (spotify/sparkey, its README's figures: not run here) serves 277,000 random lookups/s per core from block-compressed files and 1.28 M/s from uncompressed ones; the lines above are the same measure (random keys, one core, warm page cache)")
        return table
    }
}
