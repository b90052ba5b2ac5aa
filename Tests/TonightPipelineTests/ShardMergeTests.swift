import Foundation
import Testing
import TonightBase
import TonightCore
import TonightGenerator
import TonightSnapshot
@testable import TonightPipeline

/// Sharded nights on the generated `small` set merge into exactly what one machine publishes:
/// the same dataset files, indexes and content hash, and the same stage counts. Night 2 edits
/// the feed, so that `alerts` (against night 1's snapshot) is not empty.
@Suite(.serialized) struct ShardMergeTests {
    struct Night: Sendable {
        /// Night 2's inputs.
        var inputs: URL
        /// `out/` as night 1 left it (the alerts baseline), to copy into each sharded work.
        var night1Out: URL
        var manifest: SnapshotManifest
        /// Rows of the per-user stages in the single run.
        var rows: [String: [String: Int]]
        var details: [String: [String: String]]
    }

    static let night: Night = {
        let base = temporaryDirectory("tonight-shards")
        let inputs = base.appendingPathComponent("input")
        _ = try! DatasetGenerator(scale: .small, seed: 11).generate(into: inputs)
        let work = base.appendingPathComponent("single")
        try! runner(inputs: inputs, work: work).run()
        let night1Out = base.appendingPathComponent("night1-out")
        try! FileManager.default.copyItem(at: work.appendingPathComponent("out"), to: night1Out)
        try! editNight2(inputs)
        let run = try! night2(inputs, work).run()
        let store = RunStore(work: work)
        var rows: [String: [String: Int]] = [:], details: [String: [String: String]] = [:]
        for stage in ["tickets", "alerts", "playmate"] {
            let r = store.record(run: run.runId, stage: stage)!
            rows[stage] = r.rows
            details[stage] = r.details.filter { !$0.key.hasPrefix("seconds.") }
        }
        return Night(inputs: inputs, night1Out: night1Out, manifest: try! publishedManifest(work: work), rows: rows, details: details)
    }()

    /// Every 4th cancelled-or-not status flips and every 5th start moves an hour: followed
    /// events change, so users get alerts.
    static func editNight2(_ inputs: URL) throws {
        let url = inputs.appendingPathComponent("feed.xml")
        var out = ""
        var n = 0
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            var l = String(line)
            if l.contains("<EventStatus>3</EventStatus>") {
                n += 1
                if n % 4 == 0 { l = l.replacingOccurrences(of: ">3<", with: ">2<") }
            } else if l.contains("<EventTime>") {
                n += 1
                if n % 5 == 0 { l = l.replacingOccurrences(of: "<EventTime>0", with: "<EventTime>1") }
            }
            out += l + "\n"
        }
        try Data(out.dropLast().utf8).write(to: url)
    }

    static func night2(_ inputs: URL, _ work: URL, _ configure: (inout RunOptions) -> Void = { _ in }) -> StageRunner {
        runner(inputs: inputs, work: work) {
            $0.asOf += 86_400
            $0.date += 1
            configure(&$0)
        }
    }

    /// A fresh work directory whose `out/` holds night 1's snapshot.
    static func shardedWork() throws -> URL {
        let work = temporaryDirectory("tonight-sharded")
        try FileManager.default.copyItem(at: night.night1Out, to: work.appendingPathComponent("out"))
        return work
    }

    static func expectSamePublication(_ work: URL, merge run: RunRecord) throws {
        let single = night.manifest
        let merged = try publishedManifest(work: work)
        #expect(single.datasets["alerts"]!.records > 0, "the edit must give alerts")
        #expect(merged.contentHash == single.contentHash)
        #expect(merged.datasets.keys.sorted() == single.datasets.keys.sorted())
        for (name, d) in single.datasets {
            #expect(merged.datasets[name]?.sha256 == d.sha256, "\(name)")
            #expect(merged.datasets[name]?.indexSha256 == d.indexSha256, "\(name) index")
            #expect(merged.datasets[name]?.records == d.records, "\(name) records")
        }
        let store = RunStore(work: work)
        for stage in ["tickets", "alerts", "playmate"] {
            let r = try #require(store.record(run: run.runId, stage: stage))
            #expect(r.rows == night.rows[stage], "\(stage) rows")
            var details = r.details
            #expect(details.removeValue(forKey: "shards") != nil)
            #expect(details == night.details[stage], "\(stage) details")
        }
    }

    @Test(arguments: [1, 2, 7]) func shardsMergeIntoTheSingleRunsSnapshot(_ n: Int) throws {
        let work = try Self.shardedWork()
        for i in 0..<n {
            let run = try Self.night2(Self.night.inputs, work) { $0.shard = try! Shard(index: i, count: n) }.run()
            #expect(run.shard == "\(i)/\(n)")
            #expect(!run.stages.contains { $0.stage == "publish" || $0.stage == "catalog" })
            let record = try ShardRecord.read(work.appendingPathComponent("shards/\(n)/\(i).json"))
            #expect(record.parts.map(\.stage) == ["tickets", "alerts", "playmate"])
            // Parts are plain 64 KiB frames (the merge re-frames them): no dictionary, no key
            // table; a dataset shard 0 writes whole keeps the published layout.
            for part in record.parts {
                let stage = try StageGraph.standard.stage(part.stage)
                for entry in try DatasetFiles.read(work.appendingPathComponent(part.directory)) {
                    let isPart = stage.shardedDatasets.contains(entry.name)
                    #expect((entry.layout ?? 1) == (isPart ? 1 : 2), "\(part.stage) \(entry.name)")
                    #expect(isPart ? entry.dictionary == nil && entry.keyTable == nil : entry.keyTable != nil, "\(part.stage) \(entry.name)")
                }
            }
        }
        // Shards publish nothing: CURRENT is still night 1's.
        let night1 = SnapshotDirectory(root: Self.night.night1Out.appendingPathComponent("snapshots"))
        #expect(try publishedManifest(work: work).id == (try night1.currentID()))
        let merge = try Self.night2(Self.night.inputs, work) { $0.mergeShards = n }.run()
        #expect(merge.mergedShards == n)
        try Self.expectSamePublication(work, merge: merge)
        // A second merge of the same night reuses the merged outputs and publishes nothing new.
        let again = try Self.night2(Self.night.inputs, work) { $0.mergeShards = n }.run()
        #expect(again.stages.filter { ["tickets", "alerts", "playmate"].contains($0.stage) }.allSatisfy { $0.action == "reuse" })
    }

    /// Three shards as separate processes at the same time on one work directory (one runs
    /// the shared stages, the others wait and reuse them), then the merge as a process.
    @Test func concurrentShardProcessesMergeIntoTheSingleRunsSnapshot() throws {
        let work = try Self.shardedWork()
        let asOf = CivilTime.formatUTC(asOf + 86_400)
        let base = ["--inputs", Self.night.inputs.path, "--work", work.path, "--out", work.appendingPathComponent("out").path,
                    "--as-of", asOf]
        let results = Locked<[Int32]>([])
        let threads = (0..<3).map { i in
            Thread {
                let r = try? runTonight(["run"] + base + ["--shard", "\(i)/3"])
                results.withLock { $0.append(r?.status ?? -1) }
            }
        }
        threads.forEach { $0.start() }
        let deadline = Date().addingTimeInterval(600)
        while results.withLock({ $0.count }) < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(results.withLock { $0 } == [0, 0, 0])
        // The shared stages ran once: the other shards reused them.
        let runs = RunStore(work: work).runIDs()
        let computed = runs.compactMap { RunStore(work: work).record(run: $0, stage: "parse-feed") }.filter { $0.reusedFrom == nil }
        #expect(computed.count == 1)
        let merge = try runTonight(["merge"] + base + ["--shards", "3"])
        #expect(merge.status == 0, "\(merge.stderr)")
        let id = try #require(RunStore(work: work).runIDs().first)
        try Self.expectSamePublication(work, merge: try RunRecord.read(RunStore(work: work).runDirectory(id).appendingPathComponent("run.json")))
    }
}
