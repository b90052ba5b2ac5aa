import Foundation
import TonightBase

/// `manifest.json` of a snapshot (snapshots.md): what was published, from what, by which code.
public struct SnapshotManifest: Codable, Sendable, Equatable {
    /// Reads and checks a manifest file: at most 16 MiB, valid JSON of this format, every
    /// file name a plain name inside the snapshot's directory.
    public static func read(_ path: String) throws -> SnapshotManifest {
        let bytes: [UInt8]
        do {
            bytes = try SnapshotError.reading { try RegularFile.read(path, maxBytes: 16 << 20) }
        } catch let e as SnapshotError where e.code == .missing {
            throw SnapshotError(file: path, "no manifest (is this a snapshot directory?)", code: .missing)
        }
        let manifest: SnapshotManifest
        do {
            manifest = try JSONDecoder().decode(SnapshotManifest.self, from: Data(bytes))
        } catch {
            throw SnapshotError(file: path, "malformed manifest: \(SnapshotError.quoted("\(error)", limit: 300))", code: .malformed)
        }
        guard supportedFormatVersions.contains(manifest.formatVersion) else {
            throw SnapshotError(file: path, "manifest format \(manifest.formatVersion); this reader reads \(supportedFormatVersions.map(String.init).joined(separator: " and "))",
                                code: .unsupported)
        }
        for (name, d) in manifest.datasets {
            let layout = d.layout ?? 1
            guard layout == 1 || (layout == 2 && manifest.formatVersion >= 2 && d.keyTable != nil) else {
                throw SnapshotError(file: path, "dataset \(SnapshotError.quoted(name)) has layout \(layout), which this reader does not read in a format-\(manifest.formatVersion) manifest",
                                    code: .unsupported)
            }
            if let form = d.keyForm, form.maxPrefixScalars.map({ $0 < 1 }) ?? false || form.geohashLength.map({ !(1...12).contains($0) }) ?? false {
                throw SnapshotError(file: path, "dataset \(SnapshotError.quoted(name)) has a keyForm outside its range (prefixes of at least 1 scalar, cells of 1…12 characters)",
                                    code: .malformed)
            }
            for file in d.files.map(\.name) where !isPlainFileName(file) {
                throw SnapshotError(file: path, "dataset \(SnapshotError.quoted(name)) names the file '\(SnapshotError.quoted(file))', not a plain file name",
                                    code: .malformed)
            }
        }
        return manifest
    }

    /// A file name without a directory: no `/`, not `.` or `..`, no NUL or control character.
    public static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255
            && !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The manifest format this library writes: 2 since datasets may have layout 2 (small
    /// frames with a trained dictionary and a binary key table).
    public static let currentFormatVersion = 2
    /// The manifest formats this library reads (1: every dataset in layout 1).
    public static let supportedFormatVersions = 1...2

    /// One file of a dataset, as the manifest records it.
    public struct FileEntry: Sendable, Equatable {
        /// File name in the snapshot directory.
        public var name: String
        /// Size in bytes.
        public var bytes: Int64
        /// SHA-256, lowercase hex.
        public var sha256: String
    }

    /// One input file of the run.
    public struct Input: Codable, Sendable, Equatable {
        /// The input's role (`feed`, `affinity`, `tickets/users.csv`, …).
        public var role: String
        /// The file path.
        public var path: String
        /// Size in bytes.
        public var size: Int64
        /// SHA-256, lowercase hex.
        public var sha256: String

        /// Creates an input entry.
        public init(role: String, path: String, size: Int64, sha256: String) {
            self.role = role
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    /// One dataset: its file, its index and what they hold.
    public struct Dataset: Codable, Sendable, Equatable {
        /// File name in the snapshot directory.
        public var file: String
        /// File size in bytes.
        public var bytes: Int64
        /// SHA-256, lowercase hex.
        public var sha256: String
        /// Number of records.
        public var records: Int
        /// Number of frames.
        public var frames: Int
        /// Bytes of NDJSON once decompressed.
        public var uncompressedBytes: Int64
        /// The key index file name.
        public var index: String
        /// Index file size in bytes.
        public var indexBytes: Int64
        /// SHA-256 of the index file.
        public var indexSha256: String
        /// The version of the record layout (bumped when fields change meaning).
        public var schemaVersion: Int
        /// The file layout: absent or 1, frames of up to 64 KiB found through the NDJSON index;
        /// 2, small frames compressed with `dictionary` and found through `keyTable`.
        public var layout: Int?
        /// Layout 2: the zstd dictionary file every frame is compressed with (absent when the
        /// dataset was too small to train one: its frames need none).
        public var dictionary: String?
        /// Size of the dictionary file.
        public var dictionaryBytes: Int64?
        /// SHA-256 of the dictionary file.
        public var dictionarySha256: String?
        /// The dictionary's id, as every frame's header names it.
        public var dictionaryID: UInt32?
        /// Layout 2: the binary key table file (`.keys`).
        public var keyTable: String?
        /// Size of the key table file.
        public var keyTableBytes: Int64?
        /// SHA-256 of the key table file.
        public var keyTableSha256: String?
        /// How the pipeline's settings shaped the keys (prefix datasets, geohash cells); nil
        /// for keys that are ids, and in manifests written before 2026-11-28.
        public var keyForm: KeyForm?

        /// Every file of the dataset: data, NDJSON index, then (layout 2) dictionary and key table.
        public var files: [FileEntry] {
            var all = [FileEntry(name: file, bytes: bytes, sha256: sha256), FileEntry(name: index, bytes: indexBytes, sha256: indexSha256)]
            if let dictionary { all.append(FileEntry(name: dictionary, bytes: dictionaryBytes ?? -1, sha256: dictionarySha256 ?? "")) }
            if let keyTable { all.append(FileEntry(name: keyTable, bytes: keyTableBytes ?? -1, sha256: keyTableSha256 ?? "")) }
            return all
        }

        /// Creates a dataset entry.
        public init(file: String, bytes: Int64, sha256: String, records: Int, frames: Int, uncompressedBytes: Int64,
                    index: String, indexBytes: Int64, indexSha256: String, schemaVersion: Int) {
            self.file = file
            self.bytes = bytes
            self.sha256 = sha256
            self.records = records
            self.frames = frames
            self.uncompressedBytes = uncompressedBytes
            self.index = index
            self.indexBytes = indexBytes
            self.indexSha256 = indexSha256
            self.schemaVersion = schemaVersion
        }
    }

    /// What one stage of the run did.
    public struct Stage: Codable, Sendable, Equatable {
        /// The name as published.
        public var name: String
        /// Wall-clock seconds.
        public var durationSeconds: Double
        /// `run` or `reuse`.
        public var action: String
        /// Row counts by table.
        public var rows: [String: Int]
        /// Warning counts by kind.
        public var warnings: [String: Int]
        /// Reject counts by reason.
        public var rejects: [String: Int]

        /// Creates a stage entry.
        public init(name: String, durationSeconds: Double, action: String, rows: [String: Int],
                    warnings: [String: Int], rejects: [String: Int]) {
            self.name = name
            self.durationSeconds = durationSeconds
            self.action = action
            self.rows = rows
            self.warnings = warnings
            self.rejects = rejects
        }
    }

    /// The manifest format version.
    public var formatVersion: Int
    /// `YYYYMMDDTHHMMSSZ-<first 8 hex of contentHash>`.
    public var id: String
    /// The run instant the lists were computed for (ISO 8601 UTC).
    public var asOf: String
    /// The run date D (`YYYY-MM-DD`).
    public var date: String
    /// When the snapshot was written (ISO 8601 UTC).
    public var createdAt: String
    /// Version of the code that wrote it.
    public var codeVersion: String
    /// SHA-256 of the canonical config.
    public var configHash: String
    /// SHA-256 over the datasets' names and hashes: equal for equal content.
    public var contentHash: String
    /// Every input file.
    public var inputs: [Input]
    /// Every dataset by name.
    public var datasets: [String: Dataset]
    /// Every stage of the run.
    public var stages: [Stage]
    /// The snapshot that was current when this one was published.
    public var previous: String?
    /// The run that produced it.
    public var runId: String
    /// The release of the IANA time zone database local times were computed with (`2026f`);
    /// nil in manifests written before it was recorded.
    public var tzdataVersion: String?

    /// Creates a manifest.
    public init(id: String, asOf: String, date: String, createdAt: String, codeVersion: String, configHash: String,
                contentHash: String, inputs: [Input], datasets: [String: Dataset], stages: [Stage], previous: String?,
                runId: String, tzdataVersion: String? = nil) {
        formatVersion = Self.currentFormatVersion
        self.id = id
        self.asOf = asOf
        self.date = date
        self.createdAt = createdAt
        self.codeVersion = codeVersion
        self.configHash = configHash
        self.contentHash = contentHash
        self.inputs = inputs
        self.datasets = datasets
        self.stages = stages
        self.previous = previous
        self.runId = runId
        self.tzdataVersion = tzdataVersion
    }
}
