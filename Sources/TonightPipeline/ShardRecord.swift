import Foundation
import TonightCore

/// A shard's success record, `WORK/shards/<N>/<I>.json`: written (through a temporary name and
/// a rename) when shard I of N has completed every per-user stage. It names the build, the
/// run instant, the settings and the inputs the shard ranked from, and, per stage, the
/// fingerprint and every file of its part with size and SHA-256: what the merge checks before
/// it trusts a byte.
package struct ShardRecord: JSONRecordFile, Sendable {
    /// One per-user stage's output in the shard.
    package struct Part: Codable, Sendable {
        package var stage: String
        package var fingerprint: String
        /// The part's directory, relative to the work directory (`runs/<run>/<stage>`).
        package var directory: String
        package var outputs: [StageRecord.Output]
        package var rows: [String: Int]
        package var warnings: [String: Int]
        package var rejects: [String: Int]
        package var details: [String: String]
        package var durationSeconds: Double
        package var peakMemoryBytes: Int64
        /// The run that computed the part (it may have been reused by this shard's run).
        package var computedBy: String
    }

    package var shard: Int
    package var count: Int
    package var runId: String
    package var finishedAt: String
    /// `0.2.0 build <id>`.
    package var codeVersion: String
    package var asOf: String
    package var date: String
    /// Every setting (canonical values) but `sharding.count`.
    package var config: [String: String]
    /// Every input the shard's stages read: role → content hash (files, directories, the time
    /// zone database, the alerts baseline).
    package var inputs: [String: String]
    package var parts: [Part]

    /// `WORK/shards/<N>`: the success records of a sharding into N.
    package static func directory(work: URL, count: Int) -> URL {
        work.appendingPathComponent("shards").appendingPathComponent(String(count))
    }

    /// `WORK/shards/<N>/<I>.json`.
    package static func url(work: URL, shard: Shard) -> URL {
        directory(work: work, count: shard.count).appendingPathComponent("\(shard.index).json")
    }

    /// The settings a shard and its merge must agree on: all of them but the count, which a
    /// flag may give instead of the config.
    static func comparableConfig(_ config: TonightConfig) -> [String: String] {
        var c = config.canonical(ConfigKeys.all)
        c[ConfigKeys.Sharding.count.name] = nil
        return c
    }

    /// The inputs of a run's stage records (role → hash), upstream stages left out.
    static func inputs(of records: [StageRecord]) -> [String: String] {
        var result: [String: String] = [:]
        for r in records {
            for i in r.inputs where i.kind != "stage" { result[i.role] = i.hash }
        }
        return result
    }

    /// Writes the record under a temporary name, then renames it into place (a merge never
    /// sees half a record).
    func publish(work: URL) throws {
        let shard = try Shard(index: shard, count: count)
        let url = Self.url(work: work, shard: shard)
        try FileIO.createDirectory(url.deletingLastPathComponent())
        let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(shard.index).json.\(getpid()).tmp")
        try write(to: tmp)
        try FileIO.rename(tmp, to: url)
    }
}
