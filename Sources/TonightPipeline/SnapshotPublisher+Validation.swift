import Foundation
import TonightCore
import TonightSnapshot

extension SnapshotPublisher {
    /// Validation before publish (snapshots.md): every dataset re-read through the reader and
    /// checked against the manifest, every reference resolved in the new snapshot; no dataset shrinks by more than `maxShrink` against the
    /// current snapshot (unless `allowShrink`); reject shares within their thresholds.
    func validate(_ dir: URL, manifest: SnapshotManifest, against current: SnapshotManifest?) throws {
        let report: VerificationReport
        do {
            // swift-crypto's SHA-256 (several times the reader's portable one).
            report = try Snapshot(directory: dir, cacheBytes: 0).verify(references: true) { path in
                try ContentHash.file(URL(fileURLWithPath: path))
            }
        } catch let e as SnapshotError {
            throw TonightError(.invalidInput, "publish refused: \(e.message)", file: e.file, stage: "publish")
        }
        if let p = report.problems.first {
            throw TonightError(
                .invalidInput, "publish refused: \(report.problems.count) problem(s) in the new snapshot, first: \(p.message)",
                file: p.file, stage: "publish",
                hint: p.code == .danglingReference
                    ? "a record points at an id its dataset lacks: a bug in the stage that wrote it; nothing was published"
                    : "the stage output is damaged; re-run with --force")
        }
        var problems: [String] = []
        for s in manifest.stages {
            guard let limit = maxRejectShare[s.name] else { continue }
            let rejects = s.rejects.values.reduce(0, +)
            let total = rejects + s.rows.values.reduce(0, +)
            if total > 0 && Double(rejects) / Double(total) > limit {
                problems.append("stage \(s.name) rejected \(rejects) of \(total) records (more than \(limit * 100) %)")
            }
        }
        if let p = problems.first {
            throw TonightError(.invalidInput, "publish refused: \(p)", stage: "publish", hint: "fix the inputs")
        }
        guard let current, !allowShrink else { return }
        // Like with like: each dataset against the same dataset of CURRENT, at the same record
        // layout, with its own limit (tonight and alerts follow the calendar: unguarded).
        var shrunk: [String] = []
        for (name, old) in current.datasets.sorted(by: { $0.key < $1.key }) where old.records > 0 {
            let limit = maxShrinkByDataset[name] ?? maxShrink
            guard limit < 1 else { continue }
            guard let new = manifest.datasets[name] else {
                shrunk.append("\(name) \(old.records) → missing")
                continue
            }
            guard new.schemaVersion == old.schemaVersion else { continue }
            if Double(new.records) < Double(old.records) * (1 - limit) {
                shrunk.append("\(name) \(old.records) → \(new.records) records (limit \(Int(limit * 100)) %)")
            }
        }
        if !shrunk.isEmpty {
            throw TonightError(
                .invalidInput,
                "publish refused: against snapshot \(current.id), \(shrunk.joined(separator: ", "))",
                stage: "publish", hint: "check the inputs; if the drop is expected, re-run with --allow-shrink (or set publish.maxShrinkByDataset)")
        }
    }
}
