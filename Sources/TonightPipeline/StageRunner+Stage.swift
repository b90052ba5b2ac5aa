import CSystem
import Foundation
import Logging
import TonightBase
import TonightCore
import TonightSnapshot

/// An earlier output whose files differ from what its `stage.json` recorded.
struct DamagedOutput: Error, CustomStringConvertible {
    var directory: URL
    var run: String
    var problem: String

    var description: String { "the output of run \(run) is damaged (\(problem))" }
}

extension StageRunner {
    /// The process's peak resident memory since the last `resetPeakMemory` (Linux: `VmHWM`;
    /// elsewhere the process's lifetime peak).
    static func peakMemoryBytes() -> Int64 {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                let kb = line.split(separator: " ").compactMap { Int64($0) }.first ?? 0
                return kb * 1024
            }
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int64(usage.ru_maxrss) * 1024
    }

    /// A stage starts: when no other stage is running, the peak is reset, so that the stage's
    /// reading is its own high-water mark. Stages that run side by side share a window: each
    /// one's peak is the process's since the last moment no stage ran (theirs together).
    func enterMemoryWindow() {
        stagesRunning.withLock {
            if $0 == 0 { Self.resetPeakMemory() }
            $0 += 1
        }
    }

    /// A stage ended (after reading its peak).
    func leaveMemoryWindow() {
        stagesRunning.withLock { $0 -= 1 }
    }

    /// Resets the peak so that the next reading is one stage's own high-water mark: freed heap
    /// is returned to the system first (glibc keeps it otherwise, and the earlier stages'
    /// memory would count), then 5 is written to `/proc/self/clear_refs` (a no-op where that
    /// file does not exist).
    static func resetPeakMemory() {
        _ = tonight_malloc_trim()
        let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = "5".withCString { write(fd, $0, 1) }
        close(fd)
    }

    /// Runs one stage into a temporary directory, records it and renames it into place. A
    /// failure keeps the directory as `<stage>.failed/` with a `stage.json` saying why.
    func execute(
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
        let stageProgress = progress.begin(stage: stage.name)
        defer { stageProgress.end() }
        var context = StageContext(
            stage: stage.name, config: config, inputsDirectory: options.inputs, files: files, directories: dirs, upstream: upstream,
            outputDirectory: tmp, asOf: options.asOf, runDate: options.date,
            logger: logger, progress: stageProgress, outDirectory: options.out, allowShrink: options.allowShrink,
            runID: runID, records: records,
            timeZones: stage.inputs.contains(.timeZoneDatabase) ? try timeZones() : nil,
            baseline: entry.record.inputs.first { $0.kind == "snapshot" }?.path.map { URL(fileURLWithPath: $0) },
            runCodeVersion: "\(BuildIdentity.version) build \(buildIdentity.id)",
            shard: stage.isPerUser ? options.shard : nil)
        context.allowEarlier = options.allowEarlier
        let started = Date(), cpuAtStart = CPUTime.process()
        enterMemoryWindow()
        defer { leaveMemoryWindow() }
        var record = entry.record
        record.runId = runID
        record.startedAt = CivilTime.formatUTC(Int64(started.timeIntervalSince1970))
        var deferredHashing: DeferredHashing?
        let outcome: StageOutcome
        do {
            if stage.isPerUser, let shards = shardSet {
                outcome = try ShardMerge(shards: shards, stage: stage, config: config).run(into: tmp, progress: stageProgress)
            } else {
                try entry.watched.check(stage: stage.name, when: "before the stage started")
                // A new night's file the plan did not hash is hashed beside the stage that reads it.
                deferredHashing = hashWhileRunning(entry)
                outcome = try stage.run(context)
                // The hash's thread read the file too: the check comes once both reads are done,
                // so the file was unchanged through both, and the hash is of what the stage read.
                let hashed = try deferredHashing?.finish() ?? []
                try entry.watched.check(stage: stage.name, when: "while the stage ran")
                DeferredHashing.fill(hashed, into: &record)
                hashedWhileRunning.withLock { $0 += hashed }
            }
        } catch {
            deferredHashing?.abandon()
            let e: TonightError
            switch error {
            case let f as FailureWithRejects:
                try? FileIO.write(f.rejects, to: tmp.appendingPathComponent("rejects.ndjson"))
                e = f.error.inStage(stage.name)
            case let t as TonightError: e = t.inStage(stage.name)
            case let s as SnapshotError: e = TonightError(s, stage: stage.name)
            default: e = TonightError(.internal, "\(error)", stage: stage.name)
            }
            record.durationSeconds = Date().timeIntervalSince(started)
            record.cpuSeconds = CPUTime.process() - cpuAtStart
            record.peakMemoryBytes = Self.peakMemoryBytes()
            throw keepEvidence(of: stage.name, record: record, error: e, tmp: tmp, runDir: runDir)
        }
        record.status = "completed"
        record.durationSeconds = Date().timeIntervalSince(started)
        record.cpuSeconds = CPUTime.process() - cpuAtStart
        record.peakMemoryBytes = Self.peakMemoryBytes()
        record.rows = outcome.rows
        record.warnings = outcome.warnings
        record.rejects = outcome.rejects
        record.details = StageRecord.readable(outcome.details)
        do {
            record.outputs = try Self.outputs(of: tmp)
            try record.write(to: tmp.appendingPathComponent("stage.json"))
            try FileIO.syncDirectory(tmp)
            try FileIO.rename(tmp, to: runDir.appendingPathComponent(stage.name))
        } catch let t as TonightError {
            throw t.inStage(stage.name)  // a full disk while the stage's record is written
        }
        return record
    }

    /// Every file of a finished stage directory with its size and SHA-256 (hashed on all cores).
    static func outputs(of dir: URL) throws -> [StageRecord.Output] {
        let names = FileIO.list(dir)
        return try Parallel.map(names.count) { k in
            let u = dir.appendingPathComponent(names[k])
            return .init(file: names[k], bytes: FileIO.size(u), sha256: try ContentHash.file(u))
        }
    }

    /// A failed stage's folder, kept: `<stage>.failed/` holds what the stage wrote (its rejects
    /// among them) and a `stage.json` with status `failed` and the error; the error names it.
    /// An interrupted stage's partial output is removed instead.
    private func keepEvidence(of name: String, record: StageRecord, error: TonightError, tmp: URL, runDir: URL) -> TonightError {
        guard error.kind != .interrupted else {
            try? FileIO.removeItem(tmp)
            return error
        }
        var e = error
        let kept = runDir.appendingPathComponent("\(name).failed")
        var failed = record
        failed.status = "failed"
        failed.error = error.description
        failed.outputs = FileIO.list(tmp).map { .init(file: $0, bytes: FileIO.size(tmp.appendingPathComponent($0)), sha256: "") }
        do {
            try failed.write(to: tmp.appendingPathComponent("stage.json"))
            try FileIO.removeItem(kept)
            try FileIO.rename(tmp, to: kept)
        } catch {
            return e
        }
        let rejects = kept.appendingPathComponent("rejects.ndjson")
        let evidence = FileIO.exists(rejects) ? "rejects kept in \(rejects.path)" : "the stage's folder is kept in \(kept.path)"
        e.hint = [e.hint, evidence].compactMap { $0 }.joined(separator: "; ")
        return e
    }

    /// Hard-links an earlier output into this run (copy if links are impossible), after
    /// checking every file against the SHA-256 its `stage.json` recorded (`DamagedOutput`
    /// when one differs).
    func reuse(_ entry: PlanEntry, runID: String, into runDir: URL) throws -> StageRecord {
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
