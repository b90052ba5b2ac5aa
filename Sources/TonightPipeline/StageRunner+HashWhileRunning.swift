import Foundation
import TonightBase
import TonightCore

/// A new night's input file hashed while the stage that reads it runs, not before the plan.
///
/// The plan needs an input's hash only to find an earlier output with the same fingerprint.
/// A file's hash is of its bytes, so when no completed output of the stage read a file of
/// that role and size, none can share the fingerprint: the stage will run whatever the hash
/// is (so will a stage `--force` selects). Its file is then hashed on a thread of its own
/// while the stage reads it, instead of before any stage starts (issue 12: the feed's
/// SHA-256 was ~0.09 s before its parse, on a new night). The stage's record is written
/// with the hash (and the fingerprint it gives) once the stage has ended and its inputs
/// were found unchanged (`InputWatch`); stages downstream are described again when they start,
/// from their upstream stages' final fingerprints. The fingerprints are the ones a plan that
/// hashed first would have given, so the next run reuses these outputs as it would have.
///
/// Shards and merges plan as before: their records are compared across processes.
extension StageRunner {
    /// The hash a planned input holds until the stage that reads it has hashed it.
    static let pendingHash = "pending"

    /// A file input hashed while its stage runs.
    struct DeferredInput: Sendable {
        var role: String
        var url: URL
    }

    /// A hash computed while a stage ran, for the hash cache (the scheduling thread takes
    /// it: the cache is not shared between threads).
    struct HashedWhileRunning: Sendable {
        var file: URL
        var sha256: String
        var startedNs: Int64
    }

    /// For each selected stage, the file inputs it will hash while it runs: not in the hash
    /// cache, and either the stage is forced or no completed output of it read a file of
    /// that role and size (it cannot be reused, whatever the hash). Not when a stage the run
    /// needs but does not select is downstream of it (`--only parse-feed --only tickets
    /// --force`): that stage must be reused, and only a final fingerprint can find its output.
    func deferrableInputs(selected: Set<String>, needed: Set<String>) -> [String: [DeferredInput]] {
        guard options.shard == nil, options.mergeShards == nil else { return [:] }
        let reusedOnly = needed.subtracting(selected)
        var deferred: [String: [DeferredInput]] = [:]
        for stage in graph.stages where selected.contains(stage.name) && !stage.alwaysRuns {
            guard reusedOnly.isDisjoint(with: graph.downstream(of: stage.name)) else { continue }
            for input in stage.inputs {
                guard case .file(let role, let candidates, _) = input else { continue }
                let present = candidates.map { options.inputs.appendingPathComponent($0) }.filter(FileIO.exists)
                // Two candidates are an error `describe` reports; an absent file has no hash.
                guard present.count == 1, let url = present.first, !hashes.canAnswer(url) else { continue }
                if options.force || !store.someOutputRead(stage: stage.name, input: role, bytes: FileIO.size(url)) {
                    deferred[stage.name, default: []].append(DeferredInput(role: role, url: url))
                }
            }
        }
        return deferred
    }

    /// A provisional entry described again when its stage starts: its upstream stages'
    /// fingerprints are final now (their records), its own deferred inputs stay pending. The
    /// files it reads stay watched as the plan saw them: one changed since fails the stage
    /// when it starts (`execute`), as it would have without the new description.
    func settled(_ entry: PlanEntry, records: [StageRecord]) throws -> PlanEntry {
        let stage = try graph.stage(entry.stage)
        var upstream: [String: String] = [:]
        for r in records { upstream[r.stage] = r.fingerprint }
        var settled = entry
        do {
            settled.record = try describe(stage, upstream: upstream, deferring: Set(entry.deferred))
        } catch {
            // A file removed since the plan: said as a changed input (exit 74), as for a
            // stage described once, not as a usage error.
            try entry.watched.check(stage: entry.stage, when: "before the stage started")
            throw error
        }
        settled.fingerprint = settled.record.fingerprint
        return settled
    }

    /// Starts hashing the entry's deferred inputs on a thread of their own (`finish` waits for
    /// them, `fill` sets them on the record).
    func hashWhileRunning(_ entry: PlanEntry) -> DeferredHashing {
        let files = entry.deferred.compactMap { role in
            entry.record.inputs.first { $0.role == role && $0.kind == "file" }?.path.map { URL(fileURLWithPath: $0) }
        }
        return DeferredHashing(files: files)
    }

    /// Takes in the hashes stages computed while they ran (on the scheduling thread).
    func rememberHashedWhileRunning() {
        for h in hashedWhileRunning.withLock({ h in defer { h = [] }; return h }) {
            hashes.remember(hashedWhileRunning: h.file, sha256: h.sha256, hashedAtNs: h.startedNs)
        }
    }
}

/// The deferred inputs of one stage, hashed beside it (`StageRunner.hashWhileRunning`).
final class DeferredHashing: Sendable {
    let files: [URL]
    let startedNs: Int64
    private let job = BackgroundJob()
    private let hashes = Locked<[String]>([])

    init(files: [URL]) {
        self.files = files
        startedNs = Int64(Date().timeIntervalSince1970 * 1e9)
        guard !files.isEmpty else { return }
        job.start { [files, hashes] in
            for f in files {
                let h = try ContentHash.file(f)
                hashes.withLock { $0.append(h) }
            }
        }
    }

    /// Waits for the hashes (what the hash cache should remember, and `fill` sets on the record).
    func finish() throws -> [StageRunner.HashedWhileRunning] {
        guard !files.isEmpty else { return [] }
        try job.join()
        return zip(files, hashes.current).map { .init(file: $0, sha256: $1, startedNs: startedNs) }
    }

    /// Sets the hashes on `record`'s file inputs, and its fingerprint from them.
    static func fill(_ hashed: [StageRunner.HashedWhileRunning], into record: inout StageRecord) {
        guard !hashed.isEmpty else { return }
        for h in hashed {
            for k in record.inputs.indices where record.inputs[k].kind == "file" && record.inputs[k].path == h.file.path {
                record.inputs[k].hash = h.sha256
            }
        }
        record.fingerprint = StageRunner.fingerprint(of: record)
    }

    /// Waits for the thread (a failed stage's: its hashes are not used).
    func abandon() { try? job.join() }
}
