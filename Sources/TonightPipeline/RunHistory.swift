import Foundation
import TonightCore
import TonightSnapshot

/// The figures of the last runs of a work directory that the report compares tonight with:
/// per run, the duration of each stage that ran (reuses take no time worth comparing), the
/// records of each published dataset and the rejects of each stage. Shard runs are left out
/// (each holds a part of the users); so are failed runs.
package struct RunHistory: Sendable {
    package struct Night: Sendable, Equatable {
        package var runId: String
        package var date: String
        package var status: String
        /// Stages that ran (not reused): seconds.
        package var durations: [String: Double] = [:]
        /// Published datasets: records, compressed and uncompressed bytes.
        package var records: [String: Int] = [:]
        package var bytes: [String: Int64] = [:]
        package var uncompressedBytes: [String: Int64] = [:]
        /// Rejected rows per stage.
        package var rejects: [String: Int] = [:]
    }

    /// Oldest first.
    package var nights: [Night]

    package init(nights: [Night]) {
        self.nights = nights
    }

    /// Tonight's figures from the run record and its stage records (the publish stage's
    /// manifest copy in `runDir`).
    package static func night(run: RunRecord, records: [StageRecord], runDir: URL) -> Night {
        var n = Night(runId: run.runId, date: run.date, status: run.status)
        for e in run.stages where e.action == "run" {
            if let d = e.durationSeconds { n.durations[e.stage] = d }
        }
        for r in records { n.rejects[r.stage] = r.rejects.values.reduce(0, +) }
        if let manifest = try? JSONDecoder().decode(
            SnapshotManifest.self, from: FileIO.read(runDir.appendingPathComponent("publish/manifest.json")))
        {
            for (name, d) in manifest.datasets {
                n.records[name] = d.records
                n.bytes[name] = d.bytes
                n.uncompressedBytes[name] = d.uncompressedBytes
            }
        }
        return n
    }

    /// The last `limit` completed whole runs (or merges) of the store before `before`.
    package static func load(store: RunStore, before runID: String, limit: Int = AnomalyRule.window) -> RunHistory {
        var nights: [Night] = []
        for id in store.runIDs() where id < runID {
            guard nights.count < limit else { break }
            let dir = store.runDirectory(id)
            guard let run = try? RunRecord.read(dir.appendingPathComponent("run.json")), run.status == "completed",
                  run.shard == nil else { continue }
            let records = run.stages.compactMap { store.record(run: id, stage: $0.stage) }
            nights.append(night(run: run, records: records, runDir: dir))
        }
        return RunHistory(nights: nights.reversed())
    }

    /// Tonight against the history: stage durations, dataset records and stage rejects outside
    /// their bands, and datasets that shrank against the last night past their guard
    /// (`maxShrink(dataset)`: the share `publish` refuses without --allow-shrink).
    package func anomalies(tonight: Night, maxShrink: (String) -> Double) -> [Anomaly] {
        var found: [Anomaly] = []
        func check(_ kind: Anomaly.Kind, _ subject: String, _ value: Double, _ history: [Double], _ rule: AnomalyRule,
                   _ unit: (Double) -> String) {
            guard let band = rule.band(history), !band.contains(value) else { return }
            found.append(Anomaly(
                kind: kind, subject: subject, value: value, usual: band.median,
                message: "\(subject): \(kind.rawValue) \(unit(value)), usually \(unit(band.median)) (band \(unit(max(0, band.low)))–\(unit(band.high)) over the last \(min(history.count, AnomalyRule.window)) runs)"))
        }
        let seconds = { (x: Double) in String(format: "%.2f s", x) }
        let count = { (x: Double) in String(Int(x.rounded())) }
        for (stage, d) in tonight.durations.sorted(by: { $0.key < $1.key }) {
            check(.duration, stage, d, nights.compactMap { $0.durations[stage] }, .duration, seconds)
        }
        for (name, r) in tonight.records.sorted(by: { $0.key < $1.key }) {
            check(.records, name, Double(r), nights.compactMap { $0.records[name].map(Double.init) }, .records, count)
            if let last = nights.last(where: { $0.records[name] != nil })?.records[name], last > 0 {
                let shrink = 1 - Double(r) / Double(last)
                let guardShare = maxShrink(name)
                if guardShare < 1, shrink > guardShare {
                    found.append(Anomaly(
                        kind: .shrink, subject: name, value: Double(r), usual: Double(last),
                        message: String(format: "%@: %d records, %.0f %% fewer than the last run's %d (its shrink guard is %.0f %%)",
                                        name, r, shrink * 100, last, guardShare * 100)))
                }
            }
        }
        for (stage, n) in tonight.rejects.sorted(by: { $0.key < $1.key }) {
            check(.rejects, stage, Double(n), nights.compactMap { $0.rejects[stage].map(Double.init) }, .rejects, count)
        }
        return found
    }
}
