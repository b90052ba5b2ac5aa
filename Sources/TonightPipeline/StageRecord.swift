import Foundation
import TonightBase
import TonightCore

/// `stage.json`: what a stage read, wrote and counted. The fingerprint decides reuse; the
/// other fields let the dry run explain *why* a stage must run again.
package struct StageRecord: Codable, Sendable {
    package struct Input: Codable, Sendable, Equatable {
        package var role: String
        /// `file`, `directory` or `stage`.
        package var kind: String
        package var path: String?
        package var bytes: Int64?
        /// Content hash (files, directories) or upstream fingerprint (stages).
        package var hash: String
        /// The files of a directory input, each with its own hash.
        package var files: [Input]? = nil
        /// The release of a versioned input (the time zone database: `2026f`).
        package var version: String? = nil
    }

    package struct Output: Codable, Sendable {
        package var file: String
        package var bytes: Int64
        package var sha256: String
    }

    package var stage: String
    package var status: String
    package var runId: String
    package var fingerprint: String
    package var codeVersion: String
    package var config: [String: String]
    package var asOf: String?
    package var inputs: [Input]
    package var outputs: [Output] = []
    package var rows: [String: Int] = [:]
    package var warnings: [String: Int] = [:]
    package var rejects: [String: Int] = [:]
    /// What the stage reports in words (unknown sources, examples of faults), as
    /// `readable(_:)` made it.
    package var details: [String: String] = [:]
    package var startedAt: String = ""
    package var durationSeconds: Double = 0
    package var peakMemoryBytes: Int64 = 0
    /// User and system CPU seconds of the process while the stage ran (every thread). Stages
    /// that run side by side count each other's, as their peaks do; nil in records written
    /// before 2026-11-30.
    package var cpuSeconds: Double?
    /// Set when the output was reused: the run that computed it.
    package var reusedFrom: String?
    /// Why the stage failed (status `failed`): the error as printed.
    package var error: String?
    /// The shard (`I/N`) whose users this output holds; nil: every user.
    package var shard: String?
}

/// `run.json`: one run of the graph.
package struct RunRecord: Codable, Sendable {
    package struct StageEntry: Codable, Sendable {
        package var stage: String
        package var action: String
        package var reason: String
        package var durationSeconds: Double?
        /// When the stage started, in seconds after the run's first stage did (nil in the
        /// records of older runs, whose stages ran one after another).
        package var startSeconds: Double?
    }

    package var runId: String
    package var status: String
    package var startedAt: String
    package var finishedAt: String?
    package var asOf: String
    package var date: String
    package var inputs: String
    package var codeVersion: String
    package var pid: Int32
    package var stages: [StageEntry]
    package var error: String?
    package var exitCode: Int32?
    /// The stage that failed or was interrupted, if the run did not complete.
    package var failedStage: String?
    /// A shard's run (`I/N`): per-user stages for its users, no catalog or publish.
    package var shard: String?
    /// A merge's run: the number of shards whose parts it merged.
    package var mergedShards: Int?
}

/// The records are small pretty-printed JSON files with sorted keys (diffable, stable).
package protocol JSONRecordFile: Codable {}

extension JSONRecordFile {
    package func write(to url: URL) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try FileIO.write(Array(try e.encode(self)), to: url)
    }

    package static func read(_ url: URL) throws -> Self {
        do {
            return try JSONDecoder().decode(Self.self, from: try FileIO.read(url))
        } catch let e as TonightError {
            throw e
        } catch {
            throw TonightError(.invalidInput, "unreadable \(Self.self) file: \(error)", file: url.path,
                               hint: "the run store may be from another version; remove the run directory")
        }
    }
}

extension StageRecord: JSONRecordFile {}

extension StageRecord {
    /// A stage's details as people read them (`tonight runs show`, the report): control
    /// characters escaped (`Quoted.line`). Every value that carries input text is quoted where
    /// it is made; this is the last guard before the record is written.
    package static func readable(_ details: [String: String]) -> [String: String] {
        details.mapValues { Quoted.line($0) }
    }
}

extension RunRecord: JSONRecordFile {}
