import ArgumentParser
import Foundation
import TonightSnapshot

extension PipelineBench {
    /// List lengths of a published snapshot (items per record: median, p90, max), so that a
    /// reader can tell which world a figure comes from.
    static func shapeTable(snapshots: URL, dataName: String, tickets: [String: String] = [:]) throws -> BenchTable {
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
        // What the tickets stage saw (its stage.json): the world behind the list lengths.
        if let reach = tickets["shape.eventsInReach"] { table.note("upcoming events in reach of a located user: \(reach)") }
        if let candidates = tickets["shape.candidates"] {
            table.note("explore candidates per user (upcoming events of favoured or similar artists, in reach and affordable): \(candidates)")
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
