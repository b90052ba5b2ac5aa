import Foundation
import Logging
import TonightCore
import TonightGeo

/// An input of a stage: a file of the input layout, or the output of an upstream stage.
package enum StageInput: Sendable, Equatable {
    /// A file under the inputs directory; the first candidate that exists is used.
    case file(role: String, candidates: [String], optional: Bool)
    /// All files matching `*.csv` in a subdirectory of the inputs directory.
    case directory(role: String, path: String)
    case stage(String)
    /// The previous night's snapshot under `--out`: the newest published snapshot whose run date
    /// is before this run's, whose `events` verify (its id and content enter the fingerprint).
    case previousNight
    /// The system's IANA time zone database: its version and the zone files the bundled
    /// geocoding table names enter the fingerprint.
    case timeZoneDatabase
}

/// What a stage reports when it finishes: row counts, warnings, rejects, free-form details.
package struct StageOutcome: Sendable {
    package var rows: [String: Int] = [:]
    package var warnings: [String: Int] = [:]
    package var rejects: [String: Int] = [:]
    /// Extra facts for the report (e.g. unknown element names), as JSON-able strings.
    package var details: [String: String] = [:]

    package init() {}

    /// Counts rejects by the file they came from (`rejectsIn.<file>`, for the report).
    package mutating func countRejectsByFile(_ files: [String]) {
        var counts: [String: Int] = [:]
        for f in files { counts[f, default: 0] += 1 }
        for (f, n) in counts { details["rejectsIn.\((f as NSString).lastPathComponent)"] = String(n) }
    }

    /// Reports the list lengths of `dataset`: their distribution (`length.<dataset>`) and
    /// histogram (`histogram.<dataset>`: the report draws it, the merge adds shards' up).
    package mutating func recordLengths(_ dataset: String, _ lengths: [Int], users: Int, shard: Shard?) {
        let l = ListLengths(lengths, users: users)
        details["length.\(dataset)"] = l.distribution
        details["histogram.\(dataset)"] = l.text
    }
}

/// Everything a running stage may use.
package struct StageContext: Sendable {
    /// The running stage's name.
    package var stage: String
    package var config: TonightConfig
    package var inputsDirectory: URL
    /// Resolved file inputs by role.
    package var files: [String: URL]
    /// Resolved directory inputs by role (files inside, sorted).
    package var directories: [String: [URL]]
    /// Output directories of upstream stages by stage name (read tables with `read(_:)`).
    package var upstream: [String: URL]
    /// Where this stage writes (a temporary directory renamed into place on success).
    package var outputDirectory: URL
    package var asOf: Int64
    package var runDate: Int
    package var logger: Logger
    package var progress: ProgressReporter
    /// The snapshot root's parent (`--out`): snapshots live in `out/snapshots`.
    package var outDirectory: URL
    package var allowShrink: Bool
    /// Publish even if the run's as-of is earlier than CURRENT's.
    package var allowEarlier = false
    package var runID: String
    /// Records of the stages of this run that finished (run or reused) before this one
    /// started: every upstream stage's among them (publish, last, gets all).
    package var records: [StageRecord]
    /// The time zone database, for stages that read `.timeZoneDatabase`.
    package var timeZones: TimeZoneDatabase?
    /// The previous night's snapshot directory, for stages that read `.previousNight` (nil:
    /// none).
    package var baseline: URL?
    /// `0.2.0 build <id>`: what the manifest records as its code version.
    package var runCodeVersion: String = ""
    /// The time `publish` stamps on a snapshot (seconds since the epoch).
    package var now: Int64 = Int64(Date().timeIntervalSince1970)
    /// The shard this per-user stage ranks (nil: every user).
    package var shard: Shard?

    /// Whether the running stage owns user or player `id` (always, unless sharded).
    package func owns(_ id: String) -> Bool { shard?.owns(id) ?? true }

    /// Whether the running stage owns the user or player whose id has these UTF-8 bytes.
    package func owns(idBytes: UnsafeRawBufferPointer) -> Bool { shard?.owns(idBytes: idBytes) ?? true }
}

/// A named step of the nightly graph (pipeline.md). Stages are values; the runner decides
/// whether to run or reuse them from their fingerprints.
package protocol Stage: Sendable {
    /// The fixed name schedules and scripts use.
    var name: String { get }
    var summary: String { get }
    var inputs: [StageInput] { get }
    /// The config keys the stage reads; their values enter the fingerprint.
    var configKeys: [any AnyConfigKey] { get }
    /// The bundled data the stage reads (its hash enters the stage's code version).
    var bundledData: [BuildIdentity.Resource] { get }
    /// Whether the stage depends on the run instant (`--as-of`) or date.
    var readsAsOf: Bool { get }
    /// The tables `tonight runs dump` can show.
    var tables: [String] { get }
    /// The snapshot datasets the stage writes (`DatasetFiles`), published by `publish`.
    var datasets: [String] { get }
    /// Whether the stage runs on every run (never reused): `publish`.
    var alwaysRuns: Bool { get }
    /// Whether the stage keeps every core busy for most of its time (its work is split over
    /// all of them): the runner never starts two such stages side by side, and fills the
    /// cores the others leave idle with the stages that are ready.
    var usesEveryCore: Bool { get }
    /// The datasets keyed by user or player: a per-user stage (one that lists any) runs per
    /// shard, each shard writing the records of the ids it owns; its other datasets are
    /// written by shard 0 alone.
    var shardedDatasets: [String] { get }
    /// Rows the stage counts the same in every shard (not summed by the merge).
    var shardInvariantRows: Set<String> { get }

    func run(_ context: StageContext) throws -> StageOutcome
    /// Writes one table of a finished output directory as NDJSON.
    func dump(table: String, from directory: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws
}

extension Stage {
    package var readsAsOf: Bool { false }
    package var bundledData: [BuildIdentity.Resource] { [] }
    package var datasets: [String] { [] }
    package var alwaysRuns: Bool { false }
    package var usesEveryCore: Bool { false }
    package var shardedDatasets: [String] { [] }
    package var shardInvariantRows: Set<String> { [] }
    /// Whether the stage's work grows with users (it runs per shard).
    package var isPerUser: Bool { !shardedDatasets.isEmpty }
    package var upstreamStages: [String] {
        inputs.compactMap { if case .stage(let s) = $0 { return s } else { return nil } }
    }
}
