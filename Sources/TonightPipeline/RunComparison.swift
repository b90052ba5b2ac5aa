import Foundation
import TonightCore

/// Two runs of one work directory side by side (`tonight runs compare`): per stage, what was
/// reused or recomputed and why, durations, row counts, rejects, warnings and list-length
/// quantiles. Built from `run.json` and the stages' `stage.json` only.
package struct RunComparison: Codable, Sendable {
    /// One run's header.
    package struct Run: Codable, Sendable, Equatable {
        package var runId: String
        package var status: String
        package var asOf: String
        package var date: String
        package var startedAt: String
        package var finishedAt: String?
        package var failedStage: String?
    }

    /// A list-length distribution of a stage's `length.<dataset>` detail.
    package struct Lengths: Codable, Sendable, Equatable {
        package var users: Int
        package var of: Int
        package var min: Int
        package var median: Int
        package var p90: Int
        package var max: Int

        /// Parses "N of M users; length min a median b p90 c max d" (nil for any other text,
        /// e.g. "0 of M users have a list", which reads as no lengths).
        package init?(_ text: String) {
            let w = text.replacingOccurrences(of: ";", with: "").split(separator: " ")
            guard w.count == 13, w[1] == "of", w[3] == "users", w[4] == "length", w[5] == "min", w[7] == "median",
                  w[9] == "p90", w[11] == "max",
                  let n = Int(w[0]), let m = Int(w[2]), let lo = Int(w[6]), let med = Int(w[8]), let p = Int(w[10]),
                  let hi = Int(w[12]) else { return nil }
            (users, of, min, median, p90, max) = (n, m, lo, med, p, hi)
        }
    }

    /// One stage in one run.
    package struct Side: Codable, Sendable, Equatable {
        /// `run`, `reuse`, `failed`, `not run`…
        package var action: String
        package var reason: String
        package var durationSeconds: Double?
        /// The run that computed a reused output.
        package var reusedFrom: String?
        package var fingerprint: String?
        package var rows: [String: Int]
        package var rejects: [String: Int]
        package var warnings: [String: Int]
        package var lengths: [String: Lengths]
    }

    /// One stage, as run A and run B did it (nil: not part of that run).
    package struct Stage: Codable, Sendable {
        package var stage: String
        package var a: Side?
        package var b: Side?
    }

    package var a: Run
    package var b: Run
    package var stages: [Stage]

    /// Compares runs `a` and `b` of `store`; by default (nil) the two newest completed runs,
    /// older first. A missing run, or fewer than two completed runs, is a usage error.
    package static func load(_ store: RunStore, a: String? = nil, b: String? = nil) throws -> RunComparison {
        let ids: (String, String)
        switch (a, b) {
        case let (a?, b?): ids = (a, b)
        case let (a?, nil):
            guard let newest = completed(store).first(where: { $0 != a }) else {
                throw TonightError(.usage, "no other completed run to compare \(a) with", file: store.runsDirectory.path)
            }
            ids = (a, newest)
        default:
            let done = completed(store)
            guard done.count >= 2 else {
                throw TonightError(.usage, "runs compare needs two completed runs; \(store.runsDirectory.path) has \(done.count)",
                                   file: store.runsDirectory.path, hint: "name the runs to compare (tonight runs list)")
            }
            ids = (done[1], done[0])
        }
        let (ra, rb) = (try record(store, ids.0), try record(store, ids.1))
        var names: [String] = ra.stages.map(\.stage)
        for s in rb.stages where !names.contains(s.stage) { names.append(s.stage) }
        let stages = names.map { name in
            Stage(stage: name, a: side(store, ra, name), b: side(store, rb, name))
        }
        return RunComparison(a: header(ra), b: header(rb), stages: stages)
    }

    /// Completed runs, newest first.
    static func completed(_ store: RunStore) -> [String] {
        // Nights, not shards: a shard's run holds a part of the users (name it to compare it).
        store.runIDs().filter {
            guard let r = try? RunRecord.read(store.runDirectory($0).appendingPathComponent("run.json")) else { return false }
            return r.status == "completed" && r.shard == nil
        }
    }

    static func record(_ store: RunStore, _ id: String) throws -> RunRecord {
        let url = store.runDirectory(id).appendingPathComponent("run.json")
        guard FileIO.exists(url) else {
            throw TonightError(.usage, "no run \(id)", file: store.runsDirectory.path, hint: "tonight runs list shows the runs")
        }
        return try RunRecord.read(url)
    }

    static func header(_ r: RunRecord) -> Run {
        Run(runId: r.runId, status: r.status, asOf: r.asOf, date: r.date, startedAt: r.startedAt, finishedAt: r.finishedAt,
            failedStage: r.failedStage)
    }

    static func side(_ store: RunStore, _ run: RunRecord, _ stage: String) -> Side? {
        guard let entry = run.stages.first(where: { $0.stage == stage }) else { return nil }
        let record = store.record(run: run.runId, stage: stage)
        var lengths: [String: Lengths] = [:]
        for (k, v) in record?.details ?? [:] where k.hasPrefix("length.") {
            if let l = Lengths(v) { lengths[String(k.dropFirst("length.".count))] = l }
        }
        return Side(
            action: entry.action, reason: entry.reason, durationSeconds: entry.durationSeconds, reusedFrom: record?.reusedFrom,
            fingerprint: record?.fingerprint, rows: record?.rows ?? [:], rejects: record?.rejects ?? [:],
            warnings: record?.warnings ?? [:], lengths: lengths)
    }
}
