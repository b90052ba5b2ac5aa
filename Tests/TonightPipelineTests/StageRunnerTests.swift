import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightGenerator
import TonightGeo
import TonightRanking

@Suite struct StageRunnerTests {
    @Test func firstRunRunsThenReuses() throws {
        let work = temporaryDirectory()
        let first = try runner(inputs: tinyInputs, work: work).run()
        #expect(first.status == "completed")
        #expect(first.stages.map(\.action) == Array(repeating: "run", count: 11))
        let plan = try runner(inputs: tinyInputs, work: work).plan()
        // Everything is reused but publish, which runs on every run: its own publish does not
        // make tickets or alerts stale (the alerts baseline is an earlier night's snapshot).
        #expect(plan.map(\.action) == [.reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .run])
        #expect(plan.last?.stage == "publish" && plan.last?.reason == "runs on every run")
        #expect(plan[0].reason.contains("matches the output of run \(first.runId)"))
        // A run that reuses still has a complete stage directory.
        let second = try runner(inputs: tinyInputs, work: work).run()
        let dir = RunStore(work: work).runDirectory(second.runId).appendingPathComponent("parse-feed")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("events.bin").path))
        let record = try StageRecord.read(dir.appendingPathComponent("stage.json"))
        #expect(record.reusedFrom == first.runId)
    }

    @Test func changingTheFeedRecomputes() throws {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        try runner(inputs: inputs, work: work).run()
        let feed = inputs.appendingPathComponent("feed.xml")
        var text = try String(contentsOf: feed, encoding: .utf8)
        text = text.replacingOccurrences(of: "<VenueName>", with: "<VenueName>New ")
        try text.write(to: feed, atomically: true, encoding: .utf8)
        let plan = try runner(inputs: inputs, work: work).plan()
        #expect(plan[0].action == .run)
        #expect(plan[0].reason.contains("input feed changed"))
        // Downstream of the feed: parse-affinity too (its upstream fingerprint changed).
        #expect(plan[1].action == .run && plan[1].reason.contains("upstream parse-feed changed"))
    }

    @Test func changingASettingRecomputes() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        var config = TonightConfig()
        try config.set(ConfigKeys.Feed.camefrom, "nightly")
        let plan = try runner(inputs: tinyInputs, work: work, config: config).plan()
        #expect(plan[0].action == .run)
        #expect(plan[0].reason.contains("setting feed.camefrom"))
        // A setting only publish reads changes nothing upstream.
        var other = TonightConfig()
        try other.set(ConfigKeys.Snapshot.retain, 3)
        #expect(try runner(inputs: tinyInputs, work: work, config: other).plan().map(\.action) == [.reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .run])
        // A setting only parse-affinity reads recomputes parse-affinity, planner and tickets (its readers).
        var aff = TonightConfig()
        try aff.set(ConfigKeys.Affinity.maxRejectShare, 0.2)
        #expect(try runner(inputs: tinyInputs, work: work, config: aff).plan().map(\.action) == [.reuse, .run, .reuse, .reuse, .reuse, .reuse, .run, .run, .reuse, .reuse, .run])
        // A catalog setting recomputes the catalog (and publishes).
        var cat = TonightConfig()
        try cat.set(ConfigKeys.Catalog.suggestSize, 3)
        #expect(try runner(inputs: tinyInputs, work: work, config: cat).plan().map(\.action) == [.reuse, .reuse, .reuse, .reuse, .reuse, .run, .reuse, .reuse, .reuse, .reuse, .run])
        // A Playmate weight recomputes playmate only (and publishes).
        var pm = TonightConfig()
        try pm.set(ConfigKeys.Recommendations.Sessions.weightAge, 2)
        #expect(try runner(inputs: tinyInputs, work: work, config: pm).plan().map(\.action) == [.reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .reuse, .run, .run])
    }

    @Test func forceRecomputes() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let plan = try runner(inputs: tinyInputs, work: work) { $0.force = true }.plan()
        #expect(plan[0].action == .run && plan[0].reason.contains("forced"))
    }

    @Test func secondConcurrentRunIsRefused() throws {
        let work = temporaryDirectory()
        do {
            let held = try WorkLock(work: work)
            #expect {
                try runner(inputs: tinyInputs, work: work).run()
            } throws: { error in
                let e = error as? TonightError
                return e?.exitCode == 75 && e?.message.contains("pid \(getpid())") == true
            }
            withExtendedLifetime(held) {}
        }
        // Released: the next run takes the lock.
        _ = try runner(inputs: tinyInputs, work: work).run()
    }

    @Test func badFeedFailsAndPublishesNoStageOutput() throws {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        try Data("<Ticketmaster><Artists>".utf8).write(to: inputs.appendingPathComponent("feed.xml"))
        #expect {
            try runner(inputs: inputs, work: work).run()
        } throws: { error in
            let e = error as? TonightError
            return e?.exitCode == 65 && e?.stage == "parse-feed" && e?.file?.hasSuffix("feed.xml") == true && e?.line != nil
        }
        let store = RunStore(work: work)
        let run = try #require(store.runIDs().first)
        #expect(!FileManager.default.fileExists(atPath: store.runDirectory(run).appendingPathComponent("parse-feed").path))
        let record = try RunRecord.read(store.runDirectory(run).appendingPathComponent("run.json"))
        #expect(record.status == "failed" && record.exitCode == 65)
    }

    @Test func unknownStageIsAUsageError() throws {
        let work = temporaryDirectory()
        let e = #expect(throws: TonightError.self) {
            try runner(inputs: tinyInputs, work: work) { $0.only = ["no-such-stage"] }.plan()
        }
        #expect(e?.exitCode == 2 && e?.description.contains("no-such-stage") == true, "\(String(describing: e))")
    }

    /// `--only` runs the named stages on their upstream's recorded outputs: refused (exit 2,
    /// naming the missing upstream) before any run, accepted once they exist.
    @Test func onlyNeedsUpToDateUpstream() throws {
        let work = temporaryDirectory()
        let e = #expect(throws: TonightError.self) {
            try runner(inputs: tinyInputs, work: work) { $0.only = ["geocode"] }.plan()
        }
        #expect(e?.exitCode == 2 && e?.description.contains("parse-feed") == true, "\(String(describing: e))")
        try runner(inputs: tinyInputs, work: work) { $0.only = ["parse-feed"] }.run()
        let plan = try runner(inputs: tinyInputs, work: work) { $0.only = ["geocode"] }.plan()
        #expect(plan.map(\.stage) == ["parse-feed", "geocode"] && plan.map(\.action) == [.reuse, .run])
    }

    @Test func reportAndMetricsAreWritten() throws {
        let work = temporaryDirectory()
        let r = try runner(inputs: tinyInputs, work: work).run()
        let dir = RunStore(work: work).runDirectory(r.runId)
        let report = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("| parse-feed | run |"))
        let prom = try String(contentsOf: work.appendingPathComponent("metrics/tonight.prom"), encoding: .utf8)
        #expect(prom.contains("tonight_stage_rows{stage=\"parse-feed\",table=\"events\"} 12"))
        #expect(prom.contains("tonight_run_success 1"))
        // Every computed stage's CPU, in the report's table and as a gauge.
        let cpuLines = prom.split(separator: "\n").filter { $0.hasPrefix("tonight_stage_cpu_seconds{") }
        #expect(cpuLines.count == r.stages.count, "\(cpuLines)")
        #expect(cpuLines.allSatisfy { Double($0.split(separator: " ").last ?? "").map { $0 >= 0 } == true }, "\(cpuLines)")
        #expect(report.contains("| stage | action | seconds | CPU s |"))

        // A re-run reuses every stage but publish (which finds the datasets unchanged): only
        // publish has CPU of its own to report.
        let again = try runner(inputs: tinyInputs, work: work).run()
        let reused = try String(contentsOf: RunStore(work: work).runDirectory(again.runId).appendingPathComponent("report.md"), encoding: .utf8)
        #expect(reused.contains("| parse-feed | reuse | "))
        #expect(reused.split(separator: "\n").filter { $0.hasPrefix("| parse-feed | reuse |") }.allSatisfy { $0.split(separator: "|")[3].trimmingCharacters(in: .whitespaces) == "-" })
        let reusedProm = try String(contentsOf: work.appendingPathComponent("metrics/tonight.prom"), encoding: .utf8)
        #expect(reusedProm.split(separator: "\n").filter { $0.hasPrefix("tonight_stage_cpu_seconds{") }.map { $0.split(separator: " ")[0] }
                == ["tonight_stage_cpu_seconds{stage=\"publish\"}"])
    }
}

@Suite struct SelectionTests {
    @Test func onlyAndFrom() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let only = try runner(inputs: tinyInputs, work: work) { $0.only = ["parse-affinity"]; $0.force = true }.plan()
        #expect(only.map(\.action) == [.reuse, .run])
        let from = try runner(inputs: tinyInputs, work: work) { $0.from = "parse-feed"; $0.force = true }.plan()
        // load-playmate is not downstream of parse-feed (nor needed by catalog or publish).
        #expect(from.map(\.stage) == ["parse-feed", "parse-affinity", "geocode", "load-tickets", "load-playmate", "catalog",
                                       "planner", "tickets", "alerts", "playmate", "publish"])
        #expect(from.map(\.action) == [.run, .run, .run, .run, .reuse, .run, .run, .run, .run, .reuse, .run])
        // An unselected stage without an up-to-date output stops the plan.
        var cfg = TonightConfig()
        try cfg.set(ConfigKeys.Feed.camefrom, "zz")
        #expect(throws: TonightError.self) {
            try runner(inputs: tinyInputs, work: work, config: cfg) { $0.only = ["parse-affinity"] }.plan()
        }
    }
}

/// The generated `small` set with faults, through the stages.
@Suite struct GeneratedFaultsTests {
    static let dir: URL = {
        let d = temporaryDirectory("tonight-small-faults")
        try! TonightGenerator.DatasetGenerator(scale: .small, seed: 5, withFaults: true).generate(into: d)
        return d
    }()

    static func planted() throws -> [TonightGenerator.PlantedFault] {
        try JSONDecoder().decode([TonightGenerator.PlantedFault].self,
                                 from: Data(contentsOf: dir.appendingPathComponent("faults/faults.json")))
    }

    @Test func affinityFaultsAreRejectedWithTheirLines() throws {
        let work = temporaryDirectory()
        let r = try runner(inputs: Self.dir.appendingPathComponent("faults"), work: work) {
            $0.only = ["parse-feed", "parse-affinity"]
        }.run()
        let dir = RunStore(work: work).runDirectory(r.runId).appendingPathComponent("parse-affinity")
        let rejects = try String(contentsOf: dir.appendingPathComponent("rejects.ndjson"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let got = rejects.map { "\($0["reason"]!)@\($0["line"]!)" }.sorted()
        let want = try Self.planted().filter { $0.file == "faults/affinity.txt" }.map { "\($0.reason)@\($0.line)" }.sorted()
        #expect(got == want)
        #expect(want.count == 2)
    }
}

extension GeneratedFaultsTests {
    @Test func ticketsFaultsAreRejectedWithFileAndLine() throws {
        let work = temporaryDirectory()
        let r = try runner(inputs: Self.dir.appendingPathComponent("faults"), work: work) {
            $0.only = ["parse-feed", "load-tickets"]
        }.run()
        let dir = RunStore(work: work).runDirectory(r.runId).appendingPathComponent("load-tickets")
        let rejects = try String(contentsOf: dir.appendingPathComponent("rejects.ndjson"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let got = rejects.map { "tickets/\($0["file"]!):\($0["line"]!) \($0["reason"]!)" }.sorted()
        let want = try Self.planted().filter { $0.file.hasPrefix("faults/tickets/") }
            .map { "\($0.file.dropFirst("faults/".count)):\($0.line) \($0.reason)" }.sorted()
        #expect(got == want)
        #expect(want.count == 2)
        // The clean copy loads exactly the generated number of users.
        let cleanWork = temporaryDirectory()
        let clean = try runner(inputs: Self.dir, work: cleanWork) { $0.only = ["parse-feed", "load-tickets"] }.run()
        let record = try #require(RunStore(work: cleanWork).record(run: clean.runId, stage: "load-tickets"))
        let info = try #require(GeneratedInfo.read(Self.dir))
        #expect(record.rows["users"] == info.counts["users"])
        #expect(record.rejects.isEmpty)
    }
}

extension GeneratedFaultsTests {
    @Test func playmateFaultsAreRejectedWithFileAndLine() throws {
        let work = temporaryDirectory()
        let r = try runner(inputs: Self.dir.appendingPathComponent("faults"), work: work) { $0.only = ["load-playmate"] }.run()
        let dir = RunStore(work: work).runDirectory(r.runId).appendingPathComponent("load-playmate")
        let rejects = try String(contentsOf: dir.appendingPathComponent("rejects.ndjson"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let got = rejects.map { "playmate/\($0["file"]!):\($0["line"]!) \($0["reason"]!)" }.sorted()
        let want = try Self.planted().filter { $0.file.hasPrefix("faults/playmate/") }
            .map { "\($0.file.dropFirst("faults/".count)):\($0.line) \($0.reason)" }.sorted()
        #expect(got == want)
        #expect(want.count == 3)
        let cleanWork = temporaryDirectory()
        let clean = try runner(inputs: Self.dir, work: cleanWork) { $0.only = ["load-playmate"] }.run()
        let record = try #require(RunStore(work: cleanWork).record(run: clean.runId, stage: "load-playmate"))
        let info = try #require(GeneratedInfo.read(Self.dir))
        #expect(record.rows["players"] == info.counts["players"])
        #expect(record.rows["sessions"] == info.counts["sessions"])
        #expect(record.rejects.isEmpty)
    }
}

/// geocoding.md's expectations on generated data: real US ZIPs at `postal`, Canadian venues
/// at `city` (95 % or more), the planted unresolvable venues at `none`.
@Suite struct GeneratedGeocodingTests {
    @Test func precisionOnTheSmallFeed() throws {
        let work = temporaryDirectory()
        let r = try runner(inputs: GeneratedFaultsTests.dir, work: work) { $0.only = ["parse-feed", "geocode"] }.run()
        let dir = RunStore(work: work).runDirectory(r.runId).appendingPathComponent("geocode")
        let venues = try BinaryTable.read(TonightRanking.GeocodedVenue.self, table: "venues", from: dir.appendingPathComponent("venues.bin"))
        let table = TonightGeo.GeoTable.bundled
        let realZIPs = Set(table.zips.map(\.zip))
        var canadian = 0, canadianCity = 0
        for v in venues {
            let p = v.placement
            if v.venue.country == "US", let z = TonightGeo.Geocoder.zip5(v.venue.zip), realZIPs.contains(z) {
                #expect(p.precision == .postal, "\(v.venue.id) \(v.venue.zip ?? "")")
            }
            if v.venue.country == "CA" {
                canadian += 1
                if p.precision == .city { canadianCity += 1 }
            }
            if v.venue.city?.hasPrefix("Nowhere Flats") == true {
                #expect(p.precision == .none && p.timeZone == nil && p.lat == nil)
            }
            if p.precision != .none { #expect(p.timeZone != nil && p.lat != nil && p.lon != nil) }
        }
        #expect(canadian > 50)
        #expect(Double(canadianCity) >= 0.95 * Double(canadian))
        #expect(venues.filter { $0.placement.precision == .none }.count == 2)
    }
}
