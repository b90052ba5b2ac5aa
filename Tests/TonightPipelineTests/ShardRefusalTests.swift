import Foundation
import Testing
import TonightCore
import TonightSnapshot
@testable import TonightPipeline

/// A merge refuses every broken set of parts (exit 65, naming the shard) and publishes nothing.
@Suite struct ShardRefusalTests {
    /// The tiny inputs sharded in two, each shard run: (inputs, work).
    static func shardedTiny() throws -> (URL, URL) {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        for i in 0..<2 {
            try runner(inputs: inputs, work: work) { $0.shard = try! Shard(index: i, count: 2) }.run()
        }
        return (inputs, work)
    }

    static func merge(_ inputs: URL, _ work: URL, configure: (inout RunOptions) -> Void = { _ in }) -> StageRunner {
        runner(inputs: inputs, work: work) {
            $0.mergeShards = 2
            configure(&$0)
        }
    }

    /// Runs the merge, expects a refusal whose message has `text`, and that nothing was published.
    static func expectRefusal(_ inputs: URL, _ work: URL, _ text: String, configure: (inout RunOptions) -> Void = { _ in },
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: TonightError.self, sourceLocation: sourceLocation) {
            try merge(inputs, work, configure: configure).run()
        }
        #expect(error?.exitCode == 65, sourceLocation: sourceLocation)
        #expect(error?.message.contains(text) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
        let snapshots = SnapshotDirectory(root: work.appendingPathComponent("out/snapshots"))
        #expect((try? snapshots.currentIDIfAny()) ?? nil == nil, "published", sourceLocation: sourceLocation)
    }

    static func record(_ work: URL, _ i: Int) -> URL { work.appendingPathComponent("shards/2/\(i).json") }

    static func edit(_ work: URL, _ i: Int, _ body: (inout ShardRecord) -> Void) throws {
        var r = try ShardRecord.read(record(work, i))
        body(&r)
        try r.write(to: record(work, i))
    }

    static func part(_ work: URL, _ i: Int, _ stage: String) throws -> URL {
        let r = try ShardRecord.read(record(work, i))
        return work.appendingPathComponent(try #require(r.parts.first { $0.stage == stage }).directory)
    }

    @Test func aCompleteSetMerges() throws {
        let (inputs, work) = try Self.shardedTiny()
        try Self.merge(inputs, work).run()
        #expect(try publishedManifest(work: work).datasets["explore"]!.records > 0)
    }

    @Test func aMissingShard() throws {
        let (inputs, work) = try Self.shardedTiny()
        try FileIO.removeItem(Self.record(work, 1))
        Self.expectRefusal(inputs, work, "shard 1 of 2 has no success record")
    }

    @Test func aDuplicatedShard() throws {
        let (inputs, work) = try Self.shardedTiny()
        try FileIO.copyFile(Self.record(work, 0), to: work.appendingPathComponent("shards/2/0-copy.json"))
        Self.expectRefusal(inputs, work, "shard 0 of 2 has two success records")
    }

    @Test func anUnreadableRecord() throws {
        let (inputs, work) = try Self.shardedTiny()
        try FileIO.write("{\"shard\": 1, \"count\":".data(using: .utf8).map(Array.init)!, to: Self.record(work, 1))
        Self.expectRefusal(inputs, work, "the success record 1.json cannot be read")
    }

    @Test func aRecordOfAnotherCount() throws {
        let (inputs, work) = try Self.shardedTiny()
        try Self.edit(work, 1) { $0.count = 3 }
        Self.expectRefusal(inputs, work, "is for shard 1 of 3, not one of 2")
    }

    @Test func aShardOfAnotherNight() throws {
        let (inputs, work) = try Self.shardedTiny()
        Self.expectRefusal(inputs, work, "shard 0 of 2 is stale: it ranked as of 2026-01-15T06:00:00Z") {
            $0.asOf += 86_400
            $0.date += 1
        }
    }

    @Test func aShardOfOtherInputs() throws {
        let (inputs, work) = try Self.shardedTiny()
        // The feed changes after the shards ran (whitespace after the root element: valid).
        let feed = inputs.appendingPathComponent("feed.xml")
        try FileIO.write(Array(try FileIO.read(feed)) + Array("\n\n".utf8), to: feed)
        Self.expectRefusal(inputs, work, "shard 0 of 2 is stale: its input feed was")
    }

    @Test func aShardOfAnotherBuild() throws {
        let (inputs, work) = try Self.shardedTiny()
        try Self.edit(work, 1) { $0.codeVersion = "0.1.0 build 0123456789ab" }
        Self.expectRefusal(inputs, work, "shard 1 of 2 is stale: it was computed by 0.1.0 build 0123456789ab")
    }

    @Test func aShardWithOtherSettings() throws {
        let (inputs, work) = try Self.shardedTiny()
        try Self.edit(work, 0) { $0.config["recommendations.explore.size"] = "7" }
        Self.expectRefusal(inputs, work, "shard 0 of 2 ran with other settings: recommendations.explore.size is 7 there")
    }

    @Test func aStaleFingerprint() throws {
        let (inputs, work) = try Self.shardedTiny()
        try Self.edit(work, 1) { $0.parts[0].fingerprint = String(repeating: "0", count: 64) }
        Self.expectRefusal(inputs, work, "shard 1 of 2 is stale: its tickets fingerprint 000000000000")
    }

    @Test func aCorruptPart() throws {
        let (inputs, work) = try Self.shardedTiny()
        let file = try Self.part(work, 1, "tickets").appendingPathComponent("feed.ndjson.zst")
        var bytes = Array(try FileIO.read(file))
        bytes[bytes.count / 2] ^= 0x20
        try FileIO.write(bytes, to: file)
        Self.expectRefusal(inputs, work, "the tickets part of shard 1 of 2 is corrupt or gone: feed.ndjson.zst has SHA-256")
    }

    @Test func aRemovedPart() throws {
        let (inputs, work) = try Self.shardedTiny()
        try FileIO.removeItem(try Self.part(work, 0, "playmate").appendingPathComponent("sessions.ndjson.zst"))
        Self.expectRefusal(inputs, work, "the playmate part of shard 0 of 2 is corrupt or gone: sessions.ndjson.zst is missing")
    }

    /// Shard 1's explore replaced by shard 0's, with a record that vouches for it: the merge
    /// finds users that are not shard 1's.
    @Test func aMisplacedPart() throws {
        let (inputs, work) = try Self.shardedTiny()
        let from = try Self.part(work, 0, "tickets").appendingPathComponent("explore.ndjson.zst")
        let to = try Self.part(work, 1, "tickets").appendingPathComponent("explore.ndjson.zst")
        try FileIO.removeItem(to)
        try FileIO.copyFile(from, to: to)
        let sha = try ContentHash.file(to)
        try Self.edit(work, 1) { r in
            let k = r.parts[0].outputs.firstIndex { $0.file == "explore.ndjson.zst" }!
            r.parts[0].outputs[k].sha256 = sha
            r.parts[0].outputs[k].bytes = FileIO.size(to)
        }
        Self.expectRefusal(inputs, work, "the explore part of shard 1 of 2 holds")
        Self.expectRefusal(inputs, work, "which belongs to shard 0")
    }

    /// The command line: exit 65 for a refused merge, 2 for a flag that disagrees with the
    /// engine's index; an engine's index with the count from the config makes a shard.
    @Test func theCommandLine() throws {
        // Processes of one build throughout (the tests' own build identity is another).
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        let out = work.appendingPathComponent("out").path
        let base = ["--inputs", inputs.path, "--work", work.path, "--out", out, "--as-of", "2026-01-15T06:00:00Z"]
        let first = try runTonight(["run"] + base + ["--shard", "0/2"])
        #expect(first.status == 0, "\(first.stderr)")
        let refused = try runTonight(["merge"] + base + ["--shards", "2"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("shard 1 of 2 has no success record"))
        let disagree = try runTonight(["run"] + base + ["--shard", "0/2"], environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(disagree.status == 2)
        #expect(disagree.stderr.contains("--shard 0/2 disagrees with JOB_COMPLETION_INDEX=1"))
        let config = work.appendingPathComponent("sharded.yaml")
        try FileIO.write("sharding:\n  count: 2\n", to: config)
        let shard = try runTonight(["run", "--config", config.path] + base, environment: ["SLURM_ARRAY_TASK_ID": "1"])
        #expect(shard.status == 0, "\(shard.stderr)")
        #expect(shard.stdout.contains("shard 1/2 run"))
        let dry = try runTonight(["merge", "--dry-run", "--config", config.path] + base)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("merged from the parts of 2 shard(s)"))
        let merged = try runTonight(["merge", "--config", config.path] + base)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try publishedManifest(work: work).datasets["explore"]!.records > 0)
    }
}
