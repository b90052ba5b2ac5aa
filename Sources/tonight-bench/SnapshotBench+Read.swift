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

    func readFigures(root: URL, id: String, keys: [String], summary: DatasetWriter.Summary) throws -> BenchTable {
        var table = BenchTable("Reading it (\(runs) rounds, medians)", columns: ["what", "figure"])
        let dir = root.appendingPathComponent(id)
        let files = [dir.appendingPathComponent(summary.file).path, dir.appendingPathComponent(summary.indexFile).path]

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
        table.row(["open, cold (manifest + index of \(summary.frames) frames)", String(format: "%.1f ms", median(coldOpen))])
        table.row(["open, warm", String(format: "%.1f ms", median(warmOpen))])
        table.goal(Goal(name: "cold open", value: median(coldOpen), goal: 50, direction: .atMost, unit: " ms", decimals: 1))

        // Cold: page cache dropped, a fresh reader, each lookup timed.
        var p50s: [Double] = [], p99s: [Double] = [], maxes: [Double] = []
        for r in 0..<runs {
            evict(files)
            let d = try Snapshot.openCurrent(in: root).dataset("explore")
            var rng = Mix(state: UInt64(100 + r))
            var lat: [Double] = []
            for _ in 0..<20_000 {
                let k = keys[rng.below(keys.count)]
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

        // Warm, one core, three cache settings.
        for (label, budget) in [("no frame cache (every lookup decompresses a frame)", 0),
                                ("default frame cache (64 MiB)", Snapshot.defaultCacheBytes),
                                ("frame cache holding the dataset", summary.uncompressedBytes + (64 << 20))] {
            let d = try Snapshot.openCurrent(in: root, cacheBytes: budget).dataset("explore")
            if budget > Snapshot.defaultCacheBytes {
                try d.forEachFrame()  // warm every frame once
            } else {
                _ = try throughput(d, keys, count: min(lookups, 50_000), seed: 1)
            }
            var rates: [Double] = []
            for r in 0..<runs { rates.append(try throughput(d, keys, count: lookups, seed: UInt64(r + 2))) }
            table.row(["warm random lookups, one core, \(label)", String(format: "%.0f /s", median(rates))])
            if budget == Snapshot.defaultCacheBytes {
                table.goal(Goal(name: "warm lookups with the default cache", value: median(rates), goal: 100_000, direction: .atLeast, unit: "/s", decimals: 0))
            }
        }

        if !noBaseline {
            let t = try timeCommand("zstd -dc '\(files[0])' > /dev/null")
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
            table.row(["baseline zstd -dc > /dev/null", String(format: "%.2f s, %.0f MB/s", t, mb / t)])
        }
        return table
    }
}
