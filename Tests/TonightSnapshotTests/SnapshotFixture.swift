import TonightSnapshotWriter
import TonightBase
import Foundation
@_exported import TonightTesting
@testable import TonightSnapshot

/// Builds small snapshots on disk with the package writer, as `publish` lays them out.
enum SnapshotFixture {
        /// Records `{"key":K,"items":[…]}` for the given keys (any order; they are sorted).
    static func records(_ keys: [String], payload: (String) -> String = { "\"v-\($0.count)\"" }) -> [(String, [UInt8])] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { k in
            var json = Array(#"{"key":"#.utf8)
            JSONKey.appendEncoded(k, to: &json)
            json += Array(#","items":[{"event":"E"#.utf8)
            json += Array(#"","score":1.5,"reason":"affinity","note":"#.utf8) + Array(payload(k).utf8) + Array("}]}".utf8)
            return (k, json)
        }
    }

    /// Writes a snapshot directory `root/<id>` holding `datasets` and returns its id.
    @discardableResult
    static func write(root: URL, id: String, datasets: [String: [(String, [UInt8])]], frameBytes: Int = 512,
                      previous: String? = nil) throws -> String {
        let dir = root.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var entries: [String: SnapshotManifest.Dataset] = [:]
        for (name, recs) in datasets {
            var w = try DatasetWriter(name: name, directory: dir, frameBytes: frameBytes)
            for (k, j) in recs { try w.append(key: k, json: j) }
            let s = try w.finish()
            entries[name] = SnapshotManifest.Dataset(
                file: s.file, bytes: Int64(s.bytes), sha256: try SHA256.file(dir.appendingPathComponent(s.file).path),
                records: s.records, frames: s.frames, uncompressedBytes: Int64(s.uncompressedBytes), index: s.indexFile,
                indexBytes: Int64(s.indexBytes), indexSha256: try SHA256.file(dir.appendingPathComponent(s.indexFile).path),
                schemaVersion: 1)
        }
        let manifest = SnapshotManifest(
            id: id, asOf: "2026-01-15T06:00:00Z", date: "2026-01-15", createdAt: "2026-01-15T06:01:00Z", codeVersion: "test",
            configHash: "", contentHash: "", inputs: [], datasets: entries, stages: [], previous: previous, runId: "test")
        try JSONEncoder().encode(manifest).write(to: dir.appendingPathComponent("manifest.json"))
        return id
    }

    static func setCurrent(root: URL, _ id: String) throws {
        try Data((id + "\n").utf8).write(to: root.appendingPathComponent("CURRENT"))
    }
}
