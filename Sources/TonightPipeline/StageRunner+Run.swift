import Foundation
import Logging
import TonightBase
import TonightCore
import TonightSnapshot

extension StageRunner {
    /// A sortable, unique run id: `YYYYMMDDTHHMMSSZ-<pid hex>`.
    static func newRunID() -> String {
        let now = Int64(Date().timeIntervalSince1970)
        let compact = CivilTime.formatUTC(now).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "")
        return compact + "-" + String(getpid(), radix: 16)
    }

    static var now: String { CivilTime.formatUTC(Int64(Date().timeIntervalSince1970)) }

    /// Runs the plan under the work-directory lock. Returns the run record.
    ///
    /// A run ends `completed`, `failed` (a stage failed: its folder is kept as
    /// `<stage>.failed/` with the error and what it wrote, later stages do not run),
    /// `interrupted` (SIGTERM or SIGINT: partial output removed, exit 143 or 130), or is found
    /// `running` by the next run after its process died, which marks it `killed` and removes
    /// its leftovers.
    ///
    /// `planned` is a plan made earlier by `plan()` (tests: the inputs may have changed
    /// since, which the stages must notice); nil plans now.
    @discardableResult
    package func run(planned: [PlanEntry]? = nil) throws -> RunRecord {
        // Shards share the work directory with each other (not with a whole run or a merge),
        // and take turns at the shared stages: the first computes them, the others reuse them.
        let lock = try WorkLock(work: options.work, mode: options.shard == nil ? .exclusive : .shared)
        defer { withExtendedLifetime(lock) {} }
        var sharedStages: WorkLock?
        if options.shard != nil {
            sharedStages = try WorkLock(waitingFor: "shared-stages.lock", in: options.work, logger: logger,
                                        what: "another shard running the shared stages")
            hashes.reload()
        }
        // Outputs never depend on the width (work is split by index), so it is in no fingerprint.
        let threads = options.threads ?? config[ConfigKeys.Runs.threads]
        Parallel.setWidth(threads == 0 ? nil : threads)
        // We hold the lock alone: a run still marked running has lost its process. (A shard
        // does not: its sibling shards are running.)
        if options.shard == nil {
            for id in store.markAbandonedRuns() { logger.warning("run \(id) was left running by a process that ended: marked killed") }
        }
        let entries = try planned ?? plan()
        // Before any stage runs: a night earlier than CURRENT's would be refused at publish.
        if let refusal = publishRefusal(entries) { throw refusal }
        // A merge refuses before it does anything unless every shard's record is there and agrees.
        shardSet = try options.mergeShards.map { try shards(count: $0, plan: entries) }
        let tag = options.shard.map { "-s\($0.index)of\($0.count)" } ?? ""
        var runID = Self.newRunID() + tag
        var suffix = 1
        while FileIO.exists(store.runDirectory(runID)) {
            suffix += 1
            runID = Self.newRunID() + tag + "-\(suffix)"
        }
        let runDir = store.runDirectory(runID)
        try FileIO.createDirectory(runDir)
        var run = RunRecord(
            runId: runID, status: "running", startedAt: Self.now,
            asOf: CivilTime.formatUTC(options.asOf), date: CivilTime.formatDate(days: options.date),
            inputs: options.inputs.path, codeVersion: "\(BuildIdentity.version) build \(buildIdentity.id)", pid: getpid(),
            stages: entries.map { .init(stage: $0.stage, action: $0.action.rawValue, reason: $0.reason) },
            shard: options.shard?.description, mergedShards: options.mergeShards)
        try run.write(to: runDir.appendingPathComponent("run.json"))
        logger.info("run \(runID) started", metadata: ["inputs": "\(options.inputs.path)", "work": "\(options.work.path)"])
        // If a signal's grace period ends before a safe point is reached: the same marking.
        let initial = run
        Interruption.setForcedExitCleanup {
            var r = initial
            r.status = "interrupted"
            r.finishedAt = Self.now
            r.error = "interrupted (the work did not reach a safe point within \(Int(Interruption.grace)) s)"
            RunStore.removeLeftovers(in: runDir)
            try? r.write(to: runDir.appendingPathComponent("run.json"))
        }
        defer { Interruption.setForcedExitCleanup(nil) }

        let records = try runScheduled(entries, run: &run, runDir: runDir, sharedStages: &sharedStages)
        if let shard = options.shard {
            do {
                try writeSuccessRecord(shard: shard, run: run, records: records)
            } catch let error as TonightError {
                try finishFailed(&run, error: error, at: entries.count, states: entries.map { _ in .done }, records: records, runDir: runDir)
            }
        }
        run.status = "completed"
        run.finishedAt = Self.now
        do {
            try run.write(to: runDir.appendingPathComponent("run.json"))
            try RunReport.write(run: run, records: records, to: runDir, work: options.work, maxShrink: shrinkGuard)
        } catch let error as TonightError {
            throw noting(publishedBy: runID, in: error)
        }
        hashes.save()
        if let shard = options.shard {
            logger.info("shard \(shard) completed: run \(runID), success record \(ShardRecord.url(work: options.work, shard: shard).path)")
            return run
        }
        let removed = store.gc(keep: config[ConfigKeys.Runs.retain], snapshots: options.out.appendingPathComponent("snapshots"))
        if !removed.isEmpty { logger.info("run store: removed \(removed.count) old run(s) beyond runs.retain (\(config[ConfigKeys.Runs.retain]))") }
        logger.info("run \(runID) completed", metadata: ["report": "\(runDir.appendingPathComponent("report.md").path)"])
        return run
    }

    /// Why `publish` in `entries` would refuse this run before it copies anything (nil: no
    /// reason known yet): the run is as of an earlier instant than CURRENT
    /// (`SnapshotPublisher.earlierRefusal`; `--allow-earlier` lifts it). Checked when the run
    /// starts, so that an earlier night fails in a second instead of after every stage, and
    /// shown by a dry run. Shards do not publish.
    package func publishRefusal(_ entries: [PlanEntry]) -> TonightError? {
        guard options.shard == nil, !options.allowEarlier,
              entries.contains(where: { $0.stage == "publish" && $0.action == .run }) else { return nil }
        let directory = SnapshotDirectory(root: options.out.appendingPathComponent("snapshots"))
        guard let current = try? directory.checkedCurrentID(), let manifest = try? directory.checkedManifest(current) else { return nil }
        return SnapshotPublisher.earlierRefusal(asOf: CivilTime.formatUTC(options.asOf), current: current, manifest: manifest)
    }

    /// Dataset `name`'s shrink guard (publish.maxShrinkByDataset over publish.maxShrink).
    func shrinkGuard(_ name: String) -> Double {
        config[ConfigKeys.Publish.maxShrinkByDataset][name] ?? config[ConfigKeys.Publish.maxShrink]
    }

    /// An error after this run switched `CURRENT` (the run store could not record what
    /// followed, e.g. a full disk): the message says the snapshot is published, so that
    /// nobody rolls back or re-runs in a hurry. Other errors are returned as they are.
    func noting(publishedBy runID: String, in error: TonightError) -> TonightError {
        let directory = SnapshotDirectory(root: options.out.appendingPathComponent("snapshots"))
        guard let id = try? directory.checkedCurrentID(), let manifest = try? directory.checkedManifest(id),
              manifest.runId == runID else { return error }
        var noted = error
        noted.message = "snapshot \(id) was published and is CURRENT, but recording the run failed: " + error.message
        noted.hint = "the snapshot is complete and verified; free space in the work directory (\(options.work.path)) before the next run"
        return noted
    }

    /// One stage of the plan: reused (outputs verified) or run. `shown` is the entry the run
    /// record shows for it (its duration; action and reason when a damaged output is recomputed).
    func perform(
        _ entry: PlanEntry, shown: inout RunRecord.StageEntry, runID: String, runDir: URL, upstream: [String: URL],
        records: [StageRecord]
    ) throws -> StageRecord {
        let stage = try graph.stage(entry.stage)
        let started = Date()
        defer { shown.durationSeconds = Date().timeIntervalSince(started) }
        switch entry.action {
        case .reuse:
            do {
                let record = try reuse(entry, runID: runID, into: runDir)
                logger.info("\(entry.stage): reused (\(entry.reason))")
                return record
            } catch let damage as DamagedOutput {
                // Nothing unverified is reused: the stage runs again.
                logger.warning("\(entry.stage): \(damage.description); recomputing")
                store.markDamaged(damage.directory)
                shown.action = PlanEntry.Action.run.rawValue
                shown.reason = damage.description + "; recomputed"
                var again = entry
                again.reason = shown.reason
                return try execute(stage, entry: again, runID: runID, runDir: runDir, upstream: upstream, records: records)
            }
        case .run:
            logger.info("\(entry.stage): running (\(entry.reason))")
            let record = try execute(stage, entry: entry, runID: runID, runDir: runDir, upstream: upstream, records: records)
            logger.info(
                "\(entry.stage): done in \(String(format: "%.2f", record.durationSeconds)) s",
                metadata: ["rows": "\(record.rows.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))",
                           "rejects": "\(record.rejects.values.reduce(0, +))",
                           "warnings": "\(record.warnings.values.reduce(0, +))"])
            return record
        }
    }

    /// Records a run that stopped at stage `at`: failed (its folder kept) or interrupted
    /// (partial output removed); the stages that had not started did not run (`states`: what
    /// became of each entry; a stage that failed beside `at` is recorded failed, or
    /// interrupted, too). Rethrows the error.
    func finishFailed(_ run: inout RunRecord, error: TonightError, at: Int, states: [StageSchedule.State],
                      records: [StageRecord], runDir: URL) throws -> Never {
        let interrupted = error.kind == .interrupted
        run.status = interrupted ? "interrupted" : "failed"
        run.error = error.description
        run.exitCode = error.exitCode
        run.failedStage = run.stages.indices.contains(at) ? run.stages[at].stage : nil
        run.finishedAt = Self.now
        for j in run.stages.indices {
            switch j < states.count ? states[j] : .waiting {
            case .waiting, .running: run.stages[j].action = j == at && interrupted ? "interrupted" : "not run"
            case .failed: run.stages[j].action = interrupted ? "interrupted" : "failed"
            case .done: break
            }
        }
        if interrupted { RunStore.removeLeftovers(in: runDir) }
        try? run.write(to: runDir.appendingPathComponent("run.json"))
        try? RunReport.write(run: run, records: records, to: runDir, work: options.work, maxShrink: shrinkGuard)
        hashes.save()
        throw error
    }
}
