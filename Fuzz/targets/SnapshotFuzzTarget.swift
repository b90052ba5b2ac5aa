import Foundation
import TonightSnapshot

/// The snapshot reader's parsers. The first byte chooses (modulo 6): 0 a manifest, 1 a key
/// index's NDJSON, 2 a dataset file (seek table, frames, the records and their references),
/// 3 a binary key table (header, directory, blocks, lookups), 4 a whole layout-2 dataset (its
/// dictionary, key table, index and dictionary-compressed frames, opened, looked up and
/// verified through the reader's public API: `SnapshotFuzzTarget+Layout2.swift`), 5 keys
/// written by the writer and read back (`SnapshotFuzzTarget+RoundTrip.swift`). Reached: the
/// manifest's datasets, the probe keys an index or key table placed in a frame, the records
/// scanned, the records of a layout-2 dataset that verified, or the keys read back.
package struct SnapshotFuzzTarget: FuzzTarget {
    package static let name = "snapshot"
    let directory: URL
    private let scanner = RecordScanner(ReferenceRule.standard.filter { $0.dataset == "explore" || $0.dataset == "alerts" })
    private static let probes = ["", "a", "m", "zzzz", "gsDYBAAAAA"]

    package init(scratch: URL) throws {
        directory = scratch
        try FileManager.default.createDirectory(at: Self.layout2Directory(scratch), withIntermediateDirectories: true)
    }

    package func run(_ input: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome {
        guard let kind = input.first else { return .refused }
        let body = UnsafeBufferPointer(rebasing: input.dropFirst())
        switch kind % 6 {
        case 0:
            let url = directory.appendingPathComponent("manifest.json")
            try Self.write(body, to: url)
            guard let manifest = try? SnapshotManifest.read(url.path) else { return .refused }
            return .accepted(reached: manifest.datasets.count)
        case 1:
            guard let index = try? KeyIndex(ndjson: Array(body), path: "index") else { return .refused }
            return .accepted(reached: Self.probes.count { index.frame(for: $0) != nil })
        case 3:
            let url = directory.appendingPathComponent("dataset.keys")
            try Self.write(body, to: url)
            let fd = open(url.path, O_RDONLY)
            guard fd >= 0 else { return .refused }
            defer { close(fd) }
            guard let table = try? KeyTable(fd: fd, path: url.path, fileSize: body.count) else { return .refused }
            var found = 0
            for key in Self.probes {
                var k = key
                if k.withUTF8({ (try? table.frame(for: $0)) ?? nil }) != nil { found += 1 }
            }
            for i in 0..<min(table.frames, 8) { _ = try? table.frame(i) }
            return .accepted(reached: found)
        case 4:
            return try runLayout2(body)
        case 5:
            return try runRoundTrip(body)
        default:
            let url = directory.appendingPathComponent("dataset.ndjson.zst")
            try Self.write(body, to: url)
            guard let file = try? SeekableZstdFile(path: url.path) else { return .refused }
            var lines: [[UInt8]] = []
            for i in 0..<min(file.frames.count, 8) {
                guard let frame = try? file.frame(i) else { continue }
                lines += frame.split(separator: 0x0A).map(Array.init)
            }
            // Each line scanned with the member names of every line before it remembered (as
            // a verification does), with none, and with those of every line after it: the
            // values found, or the refusal, are the same.
            let forward = RecordScanner.KnownNames(), backward = RecordScanner.KnownNames()
            var scans: [[[(Int, [UInt8])]?]] = [[], [], []]
            for line in lines { scans[0].append(scan(line, names: forward)) }
            for line in lines { scans[1].append(scan(line, names: RecordScanner.KnownNames())) }
            for line in lines.reversed() { scans[2].insert(scan(line, names: backward), at: 0) }
            for k in lines.indices where !Self.same(scans[0][k], scans[1][k]) || !Self.same(scans[0][k], scans[2][k]) {
                throw FuzzFinding(Self.name, "line \(k) scanned differently with other member names remembered: \(lines[k])")
            }
            return .accepted(reached: scans[0].count { $0 != nil })
        }
    }

    /// The values the scanner finds in `line` (rule, bytes), or nil when it refuses it.
    private func scan(_ line: [UInt8], names: RecordScanner.KnownNames) -> [(Int, [UInt8])]? {
        var found: [(Int, [UInt8])] = []
        let ok = line.withUnsafeBufferPointer { b in (try? scanner.scan(b, names: names) { found.append(($0, Array($1))) }) != nil }
        return ok ? found : nil
    }

    private static func same(_ a: [(Int, [UInt8])]?, _ b: [(Int, [UInt8])]?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}
