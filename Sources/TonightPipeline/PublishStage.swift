import Foundation
import TonightCore
import TonightSnapshot
import TonightBase

/// `publish`: gathers the datasets of the upstream stages into a snapshot under
/// `OUT/snapshots`, validates it and makes it current (snapshots.md). Runs on every run.
package struct PublishStage: Stage {
    package init(sources: [String] = PublishStage.sourceStages) {
        self.sources = sources
        inputs = sources.map { .stage($0) }
    }

    /// The stages whose datasets are published.
    package static let sourceStages = ["catalog", "planner", "tickets", "alerts", "playmate"]

    package let name = "publish"
    package let summary = "publish the datasets as a snapshot: validate, write atomically, switch CURRENT, retention"
    package let sources: [String]
    package let inputs: [StageInput]
    package let configKeys: [any AnyConfigKey] = [
        ConfigKeys.Snapshot.retain, ConfigKeys.Publish.maxShrink, ConfigKeys.Publish.maxShrinkByDataset,
    ]
    package let readsAsOf = true
    package let alwaysRuns = true
    package let usesEveryCore = true
    package let tables = ["manifest"]

    static let rejectLimits = [
        "parse-feed": ConfigKeys.Feed.maxRejectShare, "parse-affinity": ConfigKeys.Affinity.maxRejectShare,
        "load-tickets": ConfigKeys.Exports.maxRejectShare, "load-playmate": ConfigKeys.Exports.maxRejectShare,
    ]

    package func run(_ context: StageContext) throws -> StageOutcome {
        let records = Dictionary(context.records.map { ($0.stage, $0) }, uniquingKeysWith: { _, b in b })
        var sources: [SnapshotPublisher.Source] = []
        for stage in self.sources {
            let dir = try context.directory(of: stage)
            guard let record = records[stage] else { throw TonightError(.internal, "no record of stage \(stage)") }
            let hashes = Dictionary(record.outputs.map { ($0.file, $0.sha256) }, uniquingKeysWith: { a, _ in a })
            for entry in try DatasetFiles.read(dir) {
                guard let sha = hashes[entry.file], let indexSha = hashes[entry.index] else {
                    throw TonightError(.internal, "stage \(stage) lists dataset \(entry.name) but did not record its files")
                }
                var source = SnapshotPublisher.Source(entry: entry, directory: dir, sha256: sha, indexSha256: indexSha)
                for file in [entry.dictionary, entry.keyTable].compactMap({ $0 }) {
                    guard let h = hashes[file] else {
                        throw TonightError(.internal, "stage \(stage) lists dataset \(entry.name) but did not record its file \(file)")
                    }
                    source.otherSha256[file] = h
                }
                sources.append(source)
            }
        }
        let config = context.config
        var publisher = SnapshotPublisher(root: context.outDirectory.appendingPathComponent("snapshots"))
        publisher.retain = config[ConfigKeys.Snapshot.retain]
        publisher.maxShrink = config[ConfigKeys.Publish.maxShrink]
        publisher.maxShrinkByDataset = config[ConfigKeys.Publish.maxShrinkByDataset]
        publisher.allowShrink = context.allowShrink
        publisher.allowEarlier = context.allowEarlier
        publisher.maxRejectShare = Self.rejectLimits.mapValues { config[$0] }
        publisher.logger = context.logger
        publisher.progress = context.progress
        let copy = context.outputDirectory.appendingPathComponent("manifest.json")
        let writeCopy = { (manifest: SnapshotManifest) throws in
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try FileIO.write(Array(try e.encode(manifest)) + [0x0A], to: copy)
        }
        // The run store's copy is written before CURRENT switches (a full disk there must not
        // leave a published snapshot behind a failed run).
        publisher.beforeSwitch = writeCopy
        var clock = PhaseClock()
        let result = try publisher.publish(sources, template: template(context), now: context.now, clock: &clock)
        let manifest = result.manifest
        if case .unchanged = result { try writeCopy(manifest) }
        var outcome = StageOutcome()
        for (phase, t) in clock.laps { outcome.details["seconds." + phase] = String(format: "%.2f", t) }
        outcome.rows["datasets"] = manifest.datasets.count
        outcome.rows["records"] = manifest.datasets.values.reduce(0) { $0 + $1.records }
        outcome.details["snapshot"] = manifest.id
        if case .unchanged = result {
            outcome.details["published"] = "no: datasets unchanged, CURRENT stays \(manifest.id)"
            outcome.rows["published"] = 0
        } else {
            outcome.rows["published"] = 1
        }
        outcome.details["previous"] = manifest.previous ?? "-"
        return outcome
    }

    /// The manifest's fields that come from the run: inputs, stages, config, times.
    func template(_ context: StageContext) -> SnapshotManifest {
        var inputs: [String: SnapshotManifest.Input] = [:]
        for r in context.records {
            for i in r.inputs {
                for f in i.files ?? [i] where f.kind == "file" {
                    guard let path = f.path, let bytes = f.bytes else { continue }
                    inputs[path] = .init(role: f.role, path: path, size: bytes, sha256: f.hash)
                }
            }
        }
        let stages = context.records.map {
            SnapshotManifest.Stage(
                name: $0.stage, durationSeconds: $0.durationSeconds, action: $0.reusedFrom == nil ? "run" : "reuse",
                rows: $0.rows, warnings: $0.warnings, rejects: $0.rejects)
        }
        let cfg = context.config.canonical(ConfigKeys.all)
        return SnapshotManifest(
            id: "", asOf: CivilTime.formatUTC(context.asOf), date: CivilTime.formatDate(days: context.runDate),
            createdAt: "", codeVersion: context.runCodeVersion,
            configHash: ContentHash.hex(cfg.keys.sorted().map { "\($0)=\(cfg[$0]!)" }.joined(separator: "\n")),
            contentHash: "", inputs: inputs.values.sorted { $0.path < $1.path }, datasets: [:], stages: stages,
            previous: nil, runId: context.runID,
            tzdataVersion: context.records.lazy.flatMap(\.inputs).first { $0.kind == "tzdata" }?.version)
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard table == "manifest" else { throw unknownTable(table) }
        try dumpFile(dir.appendingPathComponent("manifest.json"), to: sink)
    }
}
