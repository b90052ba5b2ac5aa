import Foundation
import TonightCore

extension StageRunner {
    /// The stages a shard runs: the per-user ones and every stage they read from.
    var shardStages: Set<String> {
        var names = Set(graph.stages.filter(\.isPerUser).map(\.name))
        for stage in graph.stages.reversed() where names.contains(stage.name) { names.formUnion(stage.upstreamStages) }
        return names
    }

    /// A merge's success records, checked against its own plan (missing, duplicated or stale
    /// ones refuse the merge with exit 65 before anything runs).
    package func shards(count: Int, plan: [PlanEntry]) throws -> ShardSet {
        let stages = shardStages
        return try ShardSet.load(
            work: options.work, count: count, expected: plan.filter { stages.contains($0.stage) }.map(\.record),
            perUser: Set(graph.stages.filter(\.isPerUser).map(\.name)),
            codeVersion: "\(BuildIdentity.version) build \(buildIdentity.id)", config: config)
    }

    /// Writes shard `shard`'s success record from its completed run: every per-user stage's
    /// part with its files' sizes and SHA-256 (as recorded when the stage finished or was
    /// reused after verification).
    func writeSuccessRecord(shard: Shard, run: RunRecord, records: [StageRecord]) throws {
        var parts: [ShardRecord.Part] = []
        for r in records where try graph.stage(r.stage).isPerUser {
            parts.append(.init(
                stage: r.stage, fingerprint: r.fingerprint, directory: "runs/\(run.runId)/\(r.stage)", outputs: r.outputs,
                rows: r.rows, warnings: r.warnings, rejects: r.rejects, details: r.details, durationSeconds: r.durationSeconds,
                peakMemoryBytes: r.peakMemoryBytes, computedBy: r.reusedFrom ?? run.runId))
        }
        let record = ShardRecord(
            shard: shard.index, count: shard.count, runId: run.runId, finishedAt: Self.now, codeVersion: run.codeVersion,
            asOf: run.asOf, date: run.date, config: ShardRecord.comparableConfig(config), inputs: ShardRecord.inputs(of: records),
            parts: parts)
        try record.publish(work: options.work)
    }
}
