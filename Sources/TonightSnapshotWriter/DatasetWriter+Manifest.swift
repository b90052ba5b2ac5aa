import Foundation
import TonightSnapshot

extension DatasetWriter.Summary {
    /// The manifest entry of the dataset as written in `directory`, every file hashed with
    /// `sha256` (a path's lowercase hex SHA-256), its keys of `keyForm`. For tools and tests
    /// that publish by hand; the pipeline's `publish` records the hashes its stages recorded.
    package func manifestEntry(in directory: URL, schemaVersion: Int, keyForm: SnapshotManifest.KeyForm? = nil,
                               sha256: (String) throws -> String) throws -> SnapshotManifest.Dataset {
        func sha(_ f: String) throws -> String { try sha256(directory.appendingPathComponent(f).path) }
        var entry = SnapshotManifest.Dataset(
            file: file, bytes: Int64(bytes), sha256: try sha(file), records: records, frames: frames,
            uncompressedBytes: Int64(uncompressedBytes), index: indexFile, indexBytes: Int64(indexBytes),
            indexSha256: try sha(indexFile), schemaVersion: schemaVersion)
        entry.keyForm = keyForm
        guard layout == 2 else { return entry }
        entry.layout = 2
        if let d = dictionaryFile {
            (entry.dictionary, entry.dictionaryBytes, entry.dictionarySha256, entry.dictionaryID) = (d, Int64(dictionaryBytes), try sha(d), dictionaryID)
        }
        if let k = keyTableFile {
            (entry.keyTable, entry.keyTableBytes, entry.keyTableSha256) = (k, Int64(keyTableBytes), try sha(k))
        }
        return entry
    }
}
