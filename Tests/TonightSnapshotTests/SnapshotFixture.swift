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

    /// Writes a snapshot directory `root/<id>` holding `datasets` (keys of `keyForms` as the
    /// manifest records them) and returns its id.
    /// `layout` 1 writes the earlier layout (64 KiB frames in production; here `frameBytes`),
    /// 2 today's (with a dictionary when `dictionaryBytes` > 0 and there are enough records).
    @discardableResult
    static func write(root: URL, id: String, datasets: [String: [(String, [UInt8])]], frameBytes: Int = 512,
                      previous: String? = nil, layout: Int = 1, dictionaryBytes: Int = 0,
                      keyForms: [String: SnapshotManifest.KeyForm] = [:]) throws -> String {
        let dir = root.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var entries: [String: SnapshotManifest.Dataset] = [:]
        for (name, recs) in datasets {
            var w = try DatasetWriter(name: name, directory: dir, frameBytes: frameBytes, layout: layout, dictionaryBytes: dictionaryBytes)
            for (k, j) in recs { try w.append(key: k, json: j) }
            let s = try w.finish()
            entries[name] = try s.manifestEntry(in: dir, schemaVersion: 1, keyForm: keyForms[name]) { try SHA256.file($0) }
        }
        let manifest = SnapshotManifest(
            id: id, asOf: "2026-01-15T06:00:00Z", date: "2026-01-15", createdAt: "2026-01-15T06:01:00Z", codeVersion: "test",
            configHash: "", contentHash: "", inputs: [], datasets: entries, stages: [], previous: previous, runId: "test")
        try JSONEncoder().encode(manifest).write(to: dir.appendingPathComponent("manifest.json"))
        return id
    }

    static func setCurrent(root: URL, _ id: String) throws {
        // Written and renamed over, as publish does: a reader never sees it half written.
        try Data((id + "\n").utf8).write(to: root.appendingPathComponent("CURRENT"), options: .atomic)
    }
}
