import ArgumentParser
import Foundation
import TonightCore
import TonightSnapshot

extension PipelineBench {
    /// List lengths of a published snapshot (items per record: median, p90, max), so that a
    /// reader can tell which world a figure comes from.
    static func shapeTable(snapshots: URL, dataName: String) throws -> BenchTable {
        let snapshot = try Snapshot.openCurrent(in: snapshots, cacheBytes: 0)
        var table = BenchTable("Shape of the data the stages ran on (\(dataName)): items per published list",
                               columns: ["dataset", "lists", "median", "p90", "max", "uncompressed MB", "compressed MB"])
        let itemStart: [String: [UInt8]] = [
            "explore": Array(#"{"event":"#.utf8), "feed": Array(#"{"event":"#.utf8),
            "tonight": Array(#"{"event":"#.utf8), "sessions": Array(#"{"session":"#.utf8),
        ]
        for name in ["explore", "feed", "tonight", "sessions"] {
            guard let marker = itemStart[name], let dataset = snapshot.datasets[name] else { continue }
            var counts: [Int] = []
            counts.reserveCapacity(dataset.count)
            try dataset.forEachRecord { line in counts.append(Self.occurrences(of: marker, in: line)) }
            counts.sort()
            let pick = { (q: Double) in counts.isEmpty ? 0 : counts[min(counts.count - 1, Int(Double(counts.count) * q))] }
            table.row([name, "\(counts.count)", "\(pick(0.5))", "\(pick(0.9))", "\(counts.last ?? 0)",
                       String(format: "%.0f", Double(dataset.entry.uncompressedBytes) / 1e6),
                       String(format: "%.0f", Double(dataset.entry.bytes) / 1e6)])
        }
        return table
    }

    /// Every published dataset: records and bytes (what each dataset adds to a snapshot).
    static func datasetTable(snapshots: URL) throws -> BenchTable {
        let manifest = try Snapshot.openCurrent(in: snapshots, cacheBytes: 0).manifest
        var table = BenchTable("Published datasets: records and size", columns: ["dataset", "records", "uncompressed MB", "compressed MB", "ratio"])
        for (name, d) in manifest.datasets.sorted(by: { $0.key < $1.key }) {
            table.row([name, "\(d.records)", String(format: "%.1f", Double(d.uncompressedBytes) / 1e6), String(format: "%.1f", Double(d.bytes) / 1e6),
                       d.bytes > 0 ? String(format: "%.2f", Double(d.uncompressedBytes) / Double(d.bytes)) : ""])
        }
        let u = manifest.datasets.values.map(\.uncompressedBytes).reduce(0, +), c = manifest.datasets.values.map(\.bytes).reduce(0, +)
        table.row(["all", "\(manifest.datasets.values.map(\.records).reduce(0, +))", String(format: "%.1f", Double(u) / 1e6),
                   String(format: "%.1f", Double(c) / 1e6), c > 0 ? String(format: "%.2f", Double(u) / Double(c)) : ""])
        return table
    }

    static func occurrences(of marker: [UInt8], in line: [UInt8]) -> Int {
        guard line.count >= marker.count else { return 0 }
        var n = 0
        var i = 0
        let first = marker[0]
        while i <= line.count - marker.count {
            if line[i] == first && line[i..<(i + marker.count)].elementsEqual(marker) {
                n += 1
                i += marker.count
            } else {
                i += 1
            }
        }
        return n
    }
}

extension PipelineBench {
    /// The floor of the tickets stage: its output NDJSON compressed by `zstd -1 -T0` alone
    /// (decompressed first into memory-backed files, so that only the compression is timed),
    /// against the stage's median, in the same invocation.
    static func floorTable(snapshots: URL, tickets: Double) throws -> BenchTable {
        let snapshot = try Snapshot.openCurrent(in: snapshots, cacheBytes: 0)
        let scratch = URL(fileURLWithPath: FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
            .appendingPathComponent("tonight-floor-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var files: [String] = []
        var bytes: Int64 = 0
        for name in ["explore", "feed", "tonight"] {
            guard let d = snapshot.datasets[name] else { continue }
            let out = scratch.appendingPathComponent("\(name).ndjson").path
            // Decompressed by the reader (layout 2's frames need the dataset's dictionary, and
            // `zstd -D` pays ~70 µs a frame to load it: minutes for these datasets).
            let sink = try FileSink(URL(fileURLWithPath: out))
            var buffer: [UInt8] = []
            buffer.reserveCapacity(4 << 20)
            try d.forEachRecord { json in
                buffer += json
                buffer.append(0x0A)
                if buffer.count >= 4 << 20 {
                    try sink.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try sink.write(buffer)
            try sink.close()
            files.append(out)
            bytes += d.entry.uncompressedBytes
        }
        let quoted = files.map { "'\($0)'" }.joined(separator: " ")
        var times: [Double] = []
        for _ in 0..<3 {
            let r = try ChildProcess.run(["/bin/sh", "-c", "cat \(quoted) | zstd -1 -T0 -q -c > /dev/null"])
            guard r.status == 0 else { throw ValidationError("cat | zstd -1 -T0 ended with status \(r.status)") }
            times.append(r.seconds)
        }
        var table = BenchTable("Floor of the tickets stage: its \(String(format: "%.0f", Double(bytes) / 1e6)) MB of NDJSON through `zstd -1 -T0` (3 runs)",
                               columns: ["what", "median s"])
        table.row(["`cat | zstd -1 -T0` of explore, feed, tonight", sec(median(times))])
        table.row(["tickets stage (rank + write + compress)", sec(tickets)])
        table.goal(Goal(name: "tickets / floor", value: tickets / max(median(times), 1e-9), goal: 2, direction: .atMost, unit: "×", decimals: 2))
        return table
    }
}
