import Foundation
import Logging
import TonightCore

/// An earlier output whose files differ from what its `stage.json` recorded.
struct DamagedOutput: Error, CustomStringConvertible {
    var directory: URL
    var run: String
    var problem: String

    var description: String { "the output of run \(run) is damaged (\(problem))" }
}

extension StageRunner {
    /// A sortable, unique run id: `YYYYMMDDTHHMMSSZ-<pid hex>`.
    static func newRunID() -> String {
        let now = Int64(Date().timeIntervalSince1970)
        let compact = CivilTime.formatUTC(now).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "")
        return compact + "-" + String(getpid(), radix: 16)
    }

    static func peakMemoryBytes() -> Int64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int64(usage.ru_maxrss) * 1024
    }

    /// Runs the plan under the work-directory lock. Returns the run record.
    @discardableResult
    package func run() throws -> RunRecord {
        let lock = try WorkLock(work: options.work)
        defer { withExtendedLifetime(lock) {} }
        let entries = try plan()
        var runID = Self.newRunID()
        var suffix = 1
        while FileIO.exists(store.runDirectory(runID)) {
            suffix += 1
            runID = Self.newRunID() + "-\(suffix)"
        }
        let runDir = store.runDirectory(runID)
        try FileIO.createDirectory(runDir)
        var run = RunRecord(
            runId: runID, status: "running", startedAt: CivilTime.formatUTC(Int64(Date().timeIntervalSince1970)),
            asOf: CivilTime.formatUTC(options.asOf), date: CivilTime.formatDate(days: options.date),
            inputs: options.inputs.path, codeVersion: TonightVersion.package, pid: getpid(),
            stages: entries.map { .init(stage: $0.stage, action: $0.action.rawValue, reason: $0.reason) })
        try run.write(to: runDir.appendingPathComponent("run.json"))
        logger.info("run \(runID) started", metadata: ["inputs": "\(options.inputs.path)", "work": "\(options.work.path)"])

        var records: [StageRecord] = []
        var upstreamDirs: [String: URL] = [:]
        do {
            for (i, entry) in entries.enumerated() {
                let stage = try graph.stage(entry.stage)
                let started = Date()
                let record: StageRecord
                switch entry.action {
                case .reuse:
                    do {
                        record = try reuse(entry, runID: runID, into: runDir)
                        logger.info("\(entry.stage): reused (\(entry.reason))")
                    } catch let damage as DamagedOutput {
                        // Nothing unverified is reused: the stage runs again.
                        logger.warning("\(entry.stage): \(damage.description); recomputing")
                        store.markDamaged(damage.directory)
                        run.stages[i].action = PlanEntry.Action.run.rawValue
                        run.stages[i].reason = damage.description + "; recomputed"
                        var again = entry
                        again.reason = run.stages[i].reason
                        record = try execute(stage, entry: again, runID: runID, runDir: runDir, upstream: upstreamDirs, records: records)
                    }
                case .run:
                    logger.info("\(entry.stage): running (\(entry.reason))")
                    record = try execute(stage, entry: entry, runID: runID, runDir: runDir, upstream: upstreamDirs, records: records)
                    logger.info(
                        "\(entry.stage): done in \(String(format: "%.2f", record.durationSeconds)) s",
                        metadata: ["rows": "\(record.rows.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))",
                                   "rejects": "\(record.rejects.values.reduce(0, +))",
                                   "warnings": "\(record.warnings.values.reduce(0, +))"])
                }
                upstreamDirs[entry.stage] = runDir.appendingPathComponent(entry.stage)
                records.append(record)
                run.stages[i].durationSeconds = Date().timeIntervalSince(started)
            }
        } catch let error as TonightError {
            run.status = "failed"
            run.error = error.description
            run.exitCode = error.exitCode
            run.finishedAt = CivilTime.formatUTC(Int64(Date().timeIntervalSince1970))
            try? run.write(to: runDir.appendingPathComponent("run.json"))
            try? RunReport.write(run: run, records: records, to: runDir, work: options.work)
            hashes.save()
            throw error
        }
        run.status = "completed"
        run.finishedAt = CivilTime.formatUTC(Int64(Date().timeIntervalSince1970))
        try run.write(to: runDir.appendingPathComponent("run.json"))
        try RunReport.write(run: run, records: records, to: runDir, work: options.work)
        hashes.save()
        store.prune(keep: config.int("work.retainRuns"))
        logger.info("run \(runID) completed", metadata: ["report": "\(runDir.appendingPathComponent("report.md").path)"])
        return run
    }

    /// Runs one stage into a temporary directory, records it and renames it into place.
    private func execute(
        _ stage: any Stage, entry: PlanEntry, runID: String, runDir: URL, upstream: [String: URL], records: [StageRecord]
    ) throws -> StageRecord {
        let tmp = runDir.appendingPathComponent(".\(stage.name).tmp")
        try FileIO.removeItem(tmp)
        try FileIO.createDirectory(tmp)
        var files: [String: URL] = [:]
        var dirs: [String: [URL]] = [:]
        for i in entry.record.inputs {
            if i.kind == "file", let p = i.path { files[i.role] = URL(fileURLWithPath: p) }
            if i.kind == "directory", let p = i.path {
                let d = URL(fileURLWithPath: p)
                dirs[i.role] = FileIO.list(d).filter { $0.hasSuffix(".csv") }.map { d.appendingPathComponent($0) }
            }
        }
        let context = StageContext(
            config: config, inputsDirectory: options.inputs, files: files, directories: dirs, upstream: upstream,
            outputDirectory: tmp, asOf: options.asOf, runDate: options.date,
            logger: logger, progress: progress, outDirectory: options.out, allowShrink: options.allowShrink,
            runID: runID, records: records,
            timeZones: stage.inputs.contains(.timeZoneDatabase) ? try timeZones() : nil)
        let started = Date()
        let outcome: StageOutcome
        do {
            outcome = try stage.run(context)
        } catch let e as TonightError {
            try? FileIO.removeItem(tmp)
            throw e.inStage(stage.name)
        } catch {
            try? FileIO.removeItem(tmp)
            throw TonightError(.internal, "\(error)", stage: stage.name)
        }
        var record = entry.record
        record.status = "completed"
        record.runId = runID
        record.startedAt = CivilTime.formatUTC(Int64(started.timeIntervalSince1970))
        record.durationSeconds = Date().timeIntervalSince(started)
        record.peakMemoryBytes = Self.peakMemoryBytes()
        record.rows = outcome.rows
        record.warnings = outcome.warnings
        record.rejects = outcome.rejects
        record.details = outcome.details
        record.outputs = try FileIO.list(tmp).map { name in
            let u = tmp.appendingPathComponent(name)
            return .init(file: name, bytes: FileIO.size(u), sha256: try ContentHash.file(u))
        }
        try record.write(to: tmp.appendingPathComponent("stage.json"))
        try FileIO.syncDirectory(tmp)
        try FileIO.rename(tmp, to: runDir.appendingPathComponent(stage.name))
        return record
    }

    /// Hard-links an earlier output into this run (copy if links are impossible), after
    /// checking every file against the SHA-256 its `stage.json` recorded (`DamagedOutput`
    /// when one differs).
    private func reuse(_ entry: PlanEntry, runID: String, into runDir: URL) throws -> StageRecord {
        guard let source = entry.reuseDirectory else { preconditionFailure("reuse without a directory") }
        var record = try StageRecord.read(source.appendingPathComponent("stage.json"))
        let outputs = record.outputs
        let problems = try Parallel.map(outputs.count) { k -> String? in
            let url = source.appendingPathComponent(outputs[k].file)
            guard FileIO.size(url) == outputs[k].bytes else { return "\(outputs[k].file) has \(FileIO.size(url)) bytes, not \(outputs[k].bytes)" }
            let actual = (try? ContentHash.file(url)) ?? "unreadable"
            return actual == outputs[k].sha256 ? nil : "\(outputs[k].file) has SHA-256 \(actual.prefix(12))…, not \(outputs[k].sha256.prefix(12))…"
        }
        if let problem = problems.compactMap({ $0 }).first {
            throw DamagedOutput(directory: source, run: entry.reuseRun ?? "?", problem: problem)
        }
        let tmp = runDir.appendingPathComponent(".\(entry.stage).tmp")
        try FileIO.removeItem(tmp)
        try FileIO.createDirectory(tmp)
        for out in record.outputs {
            let from = source.appendingPathComponent(out.file)
            let to = tmp.appendingPathComponent(out.file)
            if link(from.path, to.path) != 0 {
                do {
                    try FileManager.default.copyItem(at: from, to: to)
                } catch {
                    throw TonightError(.io, "cannot reuse \(out.file): \(error.localizedDescription)", file: from.path)
                }
            }
        }
        record.reusedFrom = entry.reuseRun
        record.runId = runID
        try record.write(to: tmp.appendingPathComponent("stage.json"))
        try FileIO.rename(tmp, to: runDir.appendingPathComponent(entry.stage))
        return record
    }
}
