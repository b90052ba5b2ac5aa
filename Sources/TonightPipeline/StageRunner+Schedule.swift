import Foundation
import TonightBase
import TonightCore

extension StageRunner {
    /// What became of one plan entry that was started.
    struct Finished: Sendable {
        var index: Int
        /// The entry as the run record shows it (duration; action and reason when a damaged
        /// output was recomputed).
        var entry: RunRecord.StageEntry
        var result: Result<StageRecord, TonightError>
    }

    /// How many stages may run side by side: `runs.stagesAtOnce`, 0 meaning one per worker
    /// thread (`Parallel.width`).
    var stagesAtOnce: Int {
        let n = config[ConfigKeys.Runs.stagesAtOnce]
        return n == 0 ? Parallel.width : n
    }

    /// Runs the plan's entries by `StageSchedule`: each on a thread of its own (a
    /// `BackgroundJob`) once its upstream stages are done. After a failure (or an interruption) nothing new starts; the
    /// stages running finish, then the failure is recorded and thrown. Returns the records in
    /// plan order.
    func runScheduled(_ planned: [PlanEntry], run: inout RunRecord, runDir: URL,
                      sharedStages: inout WorkLock?) throws -> [StageRecord] {
        var entries = planned
        let stages = try entries.map { try graph.stage($0.stage) }
        let schedule = StageSchedule(plan: entries.map(\.stage), stages: stages, width: stagesAtOnce,
                                     barrier: sharedStages != nil)
        var states = Array(repeating: StageSchedule.State.waiting, count: entries.count)
        var records = [StageRecord?](repeating: nil, count: entries.count)
        var failure: (index: Int, error: TonightError)?
        // Each started stage runs as a `BackgroundJob` and hands what became of it to this
        // thread, which alone changes the run record and decides what starts next.
        let finished = Handoff<Finished>(capacity: entries.count)
        var jobs: [BackgroundJob] = []
        let runID = run.runId
        let began = Date()
        while true {
            if failure == nil {
                do {
                    try Interruption.check()
                } catch let error as TonightError {
                    failure = (states.firstIndex(of: .waiting) ?? entries.count, error)
                }
            }
            let start = failure == nil ? schedule.startable(states) : []
            for i in start {
                if sharedStages != nil, stages[i].isPerUser {
                    // The shared stages are done (run or reused): the next shard may reuse them.
                    hashes.save()
                    sharedStages = nil
                }
                let done = records.compactMap { $0 }
                if entries[i].provisional {
                    // Its upstream stages' fingerprints are final now.
                    do {
                        entries[i] = try settled(entries[i], records: done)
                    } catch {
                        states[i] = .failed
                        let e = (error as? TonightError)?.inStage(entries[i].stage) ?? TonightError(.internal, "\(error)", stage: entries[i].stage)
                        if failure == nil { failure = (i, e) }
                        continue
                    }
                }
                states[i] = .running
                run.stages[i].startSeconds = Date().timeIntervalSince(began)
                let upstream = Dictionary(uniqueKeysWithValues: schedule.upstream[i].map {
                    (entries[$0].stage, runDir.appendingPathComponent(entries[$0].stage))
                })
                let entry = entries[i]
                let shown = run.stages[i]
                let job = BackgroundJob()
                jobs.append(job)
                job.start { [self] in
                    var shownEntry = shown
                    let result: Result<StageRecord, TonightError>
                    do {
                        result = .success(try perform(entry, shown: &shownEntry, runID: runID, runDir: runDir,
                                                      upstream: upstream, records: done))
                    } catch let error as TonightError {
                        result = .failure(error)
                    } catch {
                        result = .failure(TonightError(.internal, "\(error)", stage: entry.stage))
                    }
                    _ = finished.put(Finished(index: i, entry: shownEntry, result: result))
                }
            }
            let running = states.filter { $0 == .running }.count
            if running == 0 {
                if failure != nil || !states.contains(.waiting) { break }
                // Unreachable with a topological plan: the first waiting entry is startable.
                failure = (states.firstIndex(of: .waiting)!, TonightError(.internal, "no stage of the plan can start"))
                break
            }
            if let f = finished.take() {
                rememberHashedWhileRunning()
                run.stages[f.index].durationSeconds = f.entry.durationSeconds
                run.stages[f.index].action = f.entry.action
                run.stages[f.index].reason = f.entry.reason
                switch f.result {
                case .success(let record):
                    states[f.index] = .done
                    records[f.index] = record
                case .failure(let error):
                    states[f.index] = .failed
                    // The run's failure is the first one, unless that was an interruption
                    // and a stage beside it failed for a reason of its own.
                    if failure == nil || (failure!.error.kind == .interrupted && error.kind != .interrupted) {
                        failure = (f.index, error)
                    }
                }
            }
        }
        for job in jobs { try? job.join() }  // every one has handed its result over
        let done = records.compactMap { $0 }
        if let failure {
            try finishFailed(&run, error: noting(publishedBy: runID, in: failure.error), at: failure.index, states: states, records: done, runDir: runDir)
        }
        return done
    }
}
