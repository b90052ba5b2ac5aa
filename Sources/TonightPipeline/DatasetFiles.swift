import Foundation
import TonightCore
import TonightSnapshot
import TonightSnapshotWriter

/// The snapshot datasets a stage writes into its output directory, already in the published
/// format (seekable zstd NDJSON in key order plus the key index), so that `publish` only
/// links, checks and records them. `datasets.json` lists what was written.
package struct DatasetFiles: Sendable {
    package static let listFile = "datasets.json"

    /// One dataset as the stage wrote it.
    package struct Entry: Codable, Sendable, Equatable {
        package var name: String
        package var file: String
        package var records: Int
        package var frames: Int
        package var uncompressedBytes: Int64
        package var index: String
        package var schemaVersion: Int
        /// The file layout (absent: 1) and, in layout 2, the dictionary (when one was trained)
        /// and the binary key table.
        package var layout: Int?
        package var dictionary: String?
        package var dictionaryID: UInt32?
        package var keyTable: String?
        /// How the stage's settings shaped the keys (the manifest's `keyForm`).
        package var keyForm: SnapshotManifest.KeyForm?

        /// Every file of the dataset.
        package var files: [String] { [file, index] + [dictionary, keyTable].compactMap { $0 } }
    }

    let directory: URL
    package let frameBytes: Int
    package let level: Int32
    package let dictionaryBytes: Int
    /// Datasets written as a shard's part: read once, in order, by the merge, which writes
    /// the published files itself.
    let parts: Set<String>
    private(set) var entries: [Entry] = []

    /// The frames of a part: large, plain (no dictionary to train, no key table), level 1.
    package static let partFrameBytes = 64 << 10

    /// Datasets in `directory`, shaped by the snapshot keys of `config`. The datasets named in
    /// `parts` are a shard's parts (`Docs/SHARDING.md`): layout 1 in 64 KiB level-1 frames,
    /// because the merge re-frames every record anyway and a dictionary trained per shard
    /// would be thrown away (training costs ~0.15 s a dataset, a fixed cost every shard
    /// would repeat).
    package init(directory: URL, config: TonightConfig, parts: Set<String> = []) {
        self.directory = directory
        frameBytes = config[ConfigKeys.Snapshot.frameBytes]
        level = Int32(config[ConfigKeys.Snapshot.compressionLevel])
        dictionaryBytes = config[ConfigKeys.Snapshot.dictionaryBytes]
        self.parts = parts
    }

    /// The datasets of a stage run: `stage`'s sharded datasets are parts when it runs as a shard.
    package init(_ context: StageContext, stage: some Stage) {
        self.init(directory: context.outputDirectory, config: context.config,
                  parts: context.shard == nil ? [] : Set(stage.shardedDatasets))
    }

    /// The record layout version of each dataset (the manifest's `schemaVersion`), bumped when
    /// a record's fields change type or meaning. `alerts` 2: typed `old`/`new` values.
    package static let schemaVersions: [String: Int] = [
        "alerts": 2,
        // 2: numbers no more precise than they mean (snapshots.md: distances to 2 decimals,
        // scores to 6 significant digits, coordinates to 5 decimals), `following` only when true.
        "explore": 2, "feed": 2, "tonight": 2, "sessions": 2, "events": 2, "venues": 2, "playmate_sessions": 2,
    ]

    static func schemaVersion(_ name: String) -> Int { schemaVersions[name] ?? 1 }

    /// The config keys that shape dataset files (part of every producing stage's fingerprint).
    package static let configKeys: [any AnyConfigKey] = [
        ConfigKeys.Snapshot.frameBytes, ConfigKeys.Snapshot.compressionLevel, ConfigKeys.Snapshot.dictionaryBytes,
    ]

    /// A writer of dataset `name` in the stage's directory. No fsync: a stage output is
    /// verified by SHA-256 before it is reused, and `publish` syncs the copies it publishes.
    package func writer(_ name: String) throws -> DatasetWriter {
        do {
            if parts.contains(name) {
                return try DatasetWriter(name: name, directory: directory, frameBytes: Self.partFrameBytes, level: 1, sync: false, layout: 1)
            }
            return try DatasetWriter(name: name, directory: directory, frameBytes: frameBytes, level: level, sync: false,
                                     dictionaryBytes: dictionaryBytes)
        } catch let e as SnapshotError {
            throw TonightError(e)
        }
    }

    /// Writes one dataset: `body` appends records in increasing key order, keys of `keyForm`.
    package mutating func write(
        _ name: String, keyForm: SnapshotManifest.KeyForm? = nil, _ body: (inout DatasetWriter) throws -> Void
    ) throws {
        var w = try writer(name)
        do {
            try body(&w)
            try add(try w.finish(), keyForm: keyForm)
        } catch let e as SnapshotError {
            throw TonightError(e)
        }
    }

    /// Records a dataset written through its own writer, its keys of `keyForm` (nil: ids).
    package mutating func add(_ s: DatasetWriter.Summary, keyForm: SnapshotManifest.KeyForm? = nil) throws {
        entries.append(Entry(
            name: s.name, file: s.file, records: s.records, frames: s.frames, uncompressedBytes: Int64(s.uncompressedBytes),
            index: s.indexFile, schemaVersion: Self.schemaVersion(s.name), layout: s.layout,
            dictionary: s.dictionaryFile, dictionaryID: s.dictionaryFile == nil ? nil : s.dictionaryID, keyTable: s.keyTableFile,
            keyForm: keyForm))
    }

    /// Records a dataset copied with its entry as another output listed it.
    package mutating func add(entry: Entry) {
        entries.append(entry)
    }

    /// Writes `datasets.json`.
    package func finish() throws {
        try DatasetList(datasets: entries).write(to: directory.appendingPathComponent(Self.listFile))
    }

    /// Reads a stage output's `datasets.json` (empty if the stage writes none).
    package static func read(_ directory: URL) throws -> [Entry] {
        let url = directory.appendingPathComponent(listFile)
        guard FileIO.exists(url) else { return [] }
        return try DatasetList.read(url).datasets
    }

    /// Streams a dataset file as NDJSON (for `tonight runs dump`).
    package static func dump(_ name: String, from directory: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        do {
            let file = try openData(name, in: directory)
            for i in 0..<file.frames.count { try sink(try file.frame(i)[...]) }
        } catch let e as SnapshotError {
            throw TonightError(.io, e.message, file: e.file)
        }
    }
}

extension DatasetFiles {
    /// The data file of dataset `name` in `directory`, with its dictionary when it has one
    /// (read in order: the shard merge, `runs dump`).
    package static func openData(_ name: String, in directory: URL) throws -> SeekableZstdFile {
        let dict = directory.appendingPathComponent(DatasetWriter.dictionaryFileName(name))
        let dictionary = FileIO.exists(dict) ? try DecompressionDictionary(path: dict.path) : nil
        return try SeekableZstdFile(path: directory.appendingPathComponent(DatasetWriter.fileName(name)).path, dictionary: dictionary)
    }
}

/// `datasets.json` of a stage output.
struct DatasetList: JSONRecordFile {
    var datasets: [DatasetFiles.Entry]
}
