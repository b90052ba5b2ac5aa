import Foundation
import Testing
import TonightBase
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// A sharded night without `--as-of` (the engine files in `Pipelines/` pass none): every
/// shard and the merge rank as of the first shard's instant. Each took the clock before, so
/// the merge refused every such night ("shard 0 of 2 is stale: it ranked as of …").
@Suite(.serialized) struct NightInstantTests {
    /// `tiny` without its `generated.json`, so that the instant is the clock's, as on real inputs.
    static func clockInputs() throws -> URL {
        let inputs = copyOfTinyInputs()
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("generated.json"))
        return inputs
    }

    static func instant(_ url: URL) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return try #require(object?["asOf"] as? String)
    }

    @Test func theShardsAndTheMergeShareTheFirstShardsInstant() throws {
        let inputs = try Self.clockInputs()
        let work = temporaryDirectory()
        let common = ["--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"]
        let first = try runTonight(["run", "--shard", "0/2"] + common)
        #expect(first.status == 0, "\(first.stderr)")
        let night = work.appendingPathComponent("shards/2/.night.json")
        let asOf = try Self.instant(night)
        Thread.sleep(forTimeInterval: 1.2)  // the clock has moved on: the others must not take it
        let second = try runTonight(["run", "--shard", "1/2"] + common)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("as-of \(asOf)"), "\(second.stderr)")
        for i in 0..<2 { #expect(try Self.instant(work.appendingPathComponent("shards/2/\(i).json")) == asOf) }
        Thread.sleep(forTimeInterval: 1.2)
        let merge = try runTonight(["merge", "--shards", "2"] + common)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots")).manifest.asOf == asOf)
    }

    /// A record older than `sharding.nightHours` is an earlier night's: the first shard of a
    /// new night records its own; a merge finds no night and says so (then refuses the
    /// shards as stale, as before). An explicit `--as-of` is never overridden.
    @Test func anEarlierNightsInstantIsNotAdopted() throws {
        let inputs = try Self.clockInputs()
        let work = temporaryDirectory()
        let common = ["--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"]
        let dir = work.appendingPathComponent("shards/2")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let old = Int64(Date().timeIntervalSince1970) - 13 * 3600
        try #"{"asOf":"\#(CivilTime.formatUTC(old))","date":"\#(CivilTime.formatDate(days: Int(old / 86_400)))","createdAt":"\#(CivilTime.formatUTC(old))"}"#
            .write(to: dir.appendingPathComponent(".night.json"), atomically: true, encoding: .utf8)
        let merge = try runTonight(["merge", "--shards", "2", "--dry-run"] + common)
        #expect(merge.stderr.contains("no night record of 2 shards under 12 h old"), "\(merge.stderr)")
        let explicit = try runTonight(["run", "--shard", "0/2", "--as-of", "2026-01-15T06:00:00Z"] + common)
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(try Self.instant(dir.appendingPathComponent("0.json")) == "2026-01-15T06:00:00Z")
        #expect(try Self.instant(dir.appendingPathComponent(".night.json")) == CivilTime.formatUTC(old), "untouched")
        let fresh = try runTonight(["run", "--shard", "1/2"] + common)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stderr.contains("this shard begins the night of 2 shards"), "\(fresh.stderr)")
        let recorded = try Self.instant(dir.appendingPathComponent(".night.json"))
        #expect(recorded != CivilTime.formatUTC(old))
        #expect(try Self.instant(dir.appendingPathComponent("1.json")) == recorded)
    }

    /// Shards run on machines whose clocks differ by seconds: a record a faster clock wrote
    /// ("from the future") is adopted, not replaced by a night of the shard's own.
    @Test func aRecordFromAFasterClockIsAdopted() throws {
        let work = temporaryDirectory()
        let now: Int64 = 1_768_456_800
        var first = RunOptions(inputs: work, work: work, out: work, asOf: now + 90)
        try NightInstant.settle(&first, count: 3, shard: true, dateGiven: false, maxAgeHours: 12, logger: .init(label: "test"), now: now + 90)
        var second = RunOptions(inputs: work, work: work, out: work, asOf: now)
        try NightInstant.settle(&second, count: 3, shard: true, dateGiven: false, maxAgeHours: 12, logger: .init(label: "test"), now: now)
        #expect(second.asOf == now + 90)
        // A day later it is another night.
        var next = RunOptions(inputs: work, work: work, out: work, asOf: now + 86_400)
        try NightInstant.settle(&next, count: 3, shard: true, dateGiven: false, maxAgeHours: 12, logger: .init(label: "test"), now: now + 86_400)
        #expect(next.asOf == now + 86_400)
    }
}
