import Foundation
import TonightCore
import TonightSnapshot

/// The run store under `WORK/runs/<run-id>/<stage>/`.
package struct RunStore: Sendable {
    package let work: URL
    package var runsDirectory: URL { work.appendingPathComponent("runs") }

    package init(work: URL) {
        self.work = work
    }

    /// Run ids, newest first (ids sort by time).
    package func runIDs() -> [String] {
        FileIO.list(runsDirectory).filter { FileIO.isDirectory(runsDirectory.appendingPathComponent($0)) }
            .sorted(by: >)
    }

    package func runDirectory(_ id: String) -> URL { runsDirectory.appendingPathComponent(id) }

    package func record(run: String, stage: String) -> StageRecord? {
        try? StageRecord.read(runDirectory(run).appendingPathComponent(stage).appendingPathComponent("stage.json"))
    }

    /// The newest completed output of `stage` with this fingerprint whose files are all there.
    func findOutput(stage: String, fingerprint: String) -> (URL, String)? {
        for run in runIDs() {
            guard let r = record(run: run, stage: stage), r.status == "completed", r.fingerprint == fingerprint
            else { continue }
            let dir = runDirectory(run).appendingPathComponent(stage)
            let complete = r.outputs.allSatisfy { FileIO.size(dir.appendingPathComponent($0.file)) == $0.bytes }
            if complete { return (dir, r.reusedFrom ?? run) }
        }
        return nil
    }

    /// Runs marked `running` whose process is gone (the caller holds the work lock, so no
    /// live run can be among them): marked `killed`, their partial stage folders removed.
    /// Returns their ids.
    func markAbandonedRuns() -> [String] {
        var marked: [String] = []
        for id in runIDs() {
            let url = runDirectory(id).appendingPathComponent("run.json")
            guard var run = try? RunRecord.read(url), run.status == "running" else { continue }
            run.status = "killed"
            run.error = "the process ended without finishing the run (killed, or the machine stopped)"
            if let at = run.stages.firstIndex(where: { !FileIO.exists(runDirectory(id).appendingPathComponent($0.stage)) }) {
                run.failedStage = run.stages[at].stage
                for j in run.stages.indices where j >= at { run.stages[j].action = j == at ? "killed" : "not run" }
            }
            Self.removeLeftovers(in: runDirectory(id))
            let tmp = runDirectory(id).appendingPathComponent(".run.json.tmp")
            if (try? run.write(to: tmp)) != nil, (try? FileIO.rename(tmp, to: url)) != nil { marked.append(id) }
        }
        return marked
    }

    /// Removes the partial stage folders (`.<stage>.tmp`) of a run directory.
    static func removeLeftovers(in dir: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        }
    }

    /// Marks a stage output as damaged (its `stage.json` status), so that no later run picks
    /// it for reuse again.
    func markDamaged(_ directory: URL) {
        let url = directory.appendingPathComponent("stage.json")
        guard var record = try? StageRecord.read(url) else { return }
        record.status = "damaged"
        let tmp = directory.appendingPathComponent(".stage.json.tmp")
        if (try? record.write(to: tmp)) != nil { try? FileIO.rename(tmp, to: url) }
    }

    /// Whether a completed output of `stage` read an input `role` of `bytes` bytes. A file's
    /// hash is of its bytes, so only such an output can share the fingerprint of a stage
    /// reading a file of that size.
    func someOutputRead(stage: String, input role: String, bytes: Int64) -> Bool {
        runIDs().contains { run in
            guard let r = record(run: run, stage: stage), r.status == "completed" else { return false }
            return r.inputs.contains { $0.role == role && $0.kind == "file" && $0.bytes == bytes }
        }
    }

    /// The newest completed record of `stage`, whatever its fingerprint.
    func latestRecord(stage: String) -> StageRecord? {
        for run in runIDs() {
            if let r = record(run: run, stage: stage), r.status == "completed" { return r }
        }
        return nil
    }

    /// The directory of `stage` in run `id` (default: the newest run that completed it).
    package func stageDirectory(stage: String, run id: String?) throws -> URL {
        let candidates = id.map { [$0] } ?? runIDs()
        for run in candidates {
            if let r = record(run: run, stage: stage), r.status == "completed" {
                return runDirectory(run).appendingPathComponent(stage)
            }
        }
        throw TonightError(
            .usage, "no completed output of stage \(stage)" + (id.map { " in run \($0)" } ?? ""), file: runsDirectory.path,
            hint: "run `tonight run` first, or list runs with `tonight runs`")
    }

    /// Removes run directories beyond the newest `keep` (at least one), never one that a kept
    /// run reused an output from, nor the run that produced the current snapshot (`snapshots`:
    /// the snapshot root, whose CURRENT manifest names its run). Returns the removed ids,
    /// newest first. The caller holds the work lock.
    @discardableResult
    package func gc(keep: Int, snapshots: URL?) -> [String] {
        let ids = runIDs()
        let kept = Array(ids.prefix(max(1, keep)))
        var needed = Set(kept)
        for id in kept {
            for stage in FileIO.list(runDirectory(id)) {
                if let from = record(run: id, stage: stage)?.reusedFrom { needed.insert(from) }
            }
        }
        if let snapshots, let current = try? SnapshotDirectory(root: snapshots).currentIDIfAny(),
           let runID = try? SnapshotDirectory(root: snapshots).manifest(current).runId {
            needed.insert(runID)
        }
        var removed: [String] = []
        for id in ids where !needed.contains(id) {
            // Renamed first, so that a crash never leaves a half-removed run that looks whole.
            let doomed = runsDirectory.appendingPathComponent(".gc-\(id)")
            guard (try? FileIO.rename(runDirectory(id), to: doomed)) != nil else { continue }
            try? FileIO.removeItem(doomed)
            removed.append(id)
        }
        return removed
    }

}
