import Foundation
import Testing
@testable import TonightSnapshot

/// Any single flipped byte in a dataset or index file is reported (on open, on read or by
/// `verify`) and never returned as data.
@Suite struct CorruptionTests {
    static func build() throws -> (URL, String, [(String, [UInt8])]) {
        let root = temporaryDirectory("snap-corrupt")
        let recs = SnapshotFixture.records((0..<300).map { "user\($0)" })
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001", datasets: ["explore": recs],
                                           frameBytes: 1024)
        return (root, id, recs)
    }

    /// Flips byte `offset` of `file` and checks the reader's behaviour; restores the byte.
    static func check(_ root: URL, _ id: String, _ file: String, offset: Int, recs: [(String, [UInt8])]) throws {
        let url = root.appendingPathComponent(id).appendingPathComponent(file)
        var bytes = [UInt8](try Data(contentsOf: url))
        let original = bytes[offset]
        bytes[offset] ^= 0x5A
        try Data(bytes).write(to: url)
        defer {
            bytes[offset] = original
            try? Data(bytes).write(to: url)
        }
        let snapshot: Snapshot
        do {
            snapshot = try Snapshot.open(id: id, in: root, cacheBytes: 0)
        } catch is SnapshotError {
            return  // reported on open
        }
        #expect(!snapshot.verify().isValid, "\(file) byte \(offset): verify accepted a flipped byte")
        guard let d = try? snapshot.dataset("explore") else {
            // Reported on open, for this dataset only.
            #expect(snapshot.unavailable["explore"] != nil)
            return
        }
        for (k, j) in recs {
            do {
                if let got = try d.json(key: k) { #expect(got == j, "\(file) byte \(offset): wrong data for \(k)") }
            } catch is SnapshotError {
                // reported on read
            }
        }
    }

    @Test func everyByteOfTheIndexFile() throws {
        let (root, id, recs) = try Self.build()
        let size = try Data(contentsOf: root.appendingPathComponent(id).appendingPathComponent("explore.index.ndjson.zst")).count
        for offset in 0..<size { try Self.check(root, id, "explore.index.ndjson.zst", offset: offset, recs: recs) }
    }

    @Test func bytesAcrossTheDatasetFile() throws {
        let (root, id, recs) = try Self.build()
        let size = try Data(contentsOf: root.appendingPathComponent(id).appendingPathComponent("explore.ndjson.zst")).count
        // Every byte of the first frame's header, the seek table, and a stride through the rest.
        var offsets = Set(0..<min(64, size))
        offsets.formUnion((size - 200)..<size)
        offsets.formUnion(stride(from: 0, to: size, by: 7))
        for offset in offsets.sorted() { try Self.check(root, id, "explore.ndjson.zst", offset: offset, recs: recs) }
    }

    @Test func verifyReportsAManifestThatDoesNotMatch() throws {
        let (root, id, _) = try Self.build()
        let url = root.appendingPathComponent(id).appendingPathComponent("manifest.json")
        var m = try JSONDecoder().decode(SnapshotManifest.self, from: Data(contentsOf: url))
        m.datasets["explore"]!.sha256 = String(repeating: "0", count: 64)
        try JSONEncoder().encode(m).write(to: url)
        let report = try Snapshot.open(id: id, in: root).verify()
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.message.contains("SHA-256") == true)
    }
}
