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
        for (name, d) in manifest.datasets {
            for file in [d.file, d.index] where !isPlainFileName(file) {
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

    /// The manifest format this library reads.
    public static let currentFormatVersion = 1

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
