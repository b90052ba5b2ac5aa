import Foundation
import Testing
import TonightCore
import TonightGeo
import TonightSnapshot
@testable import TonightPipeline
import TonightBase

/// Local start times come from the system's IANA database: they agree with `date` under `TZ=`,
/// the database's version is recorded and enters the geocode stage's fingerprint, and a
/// missing database stops a run at its start.
@Suite(.serialized) struct LocalTimeTests {
        /// Every event in a Canadian zone from 2026-11-01 on, and every 7th other event of the
    /// generated `small` set: `localStart` equals what `date` prints with `TZ=` its zone.
    @Test(.enabled(if: ExternalTool.date.isAvailable))
    func localStartsAgreeWithDate() throws {
        let events = RankingTests.run.events
        let change = CivilTime.parseInstant("2026-11-01T00:00:00Z")!
        let canadian: Set<String> = ["America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Yellowknife",
                                     "America/Inuvik", "America/Whitehorse", "America/Dawson_Creek", "America/Fort_Nelson"]
        var sample = events.enumerated().filter { i, e in
            e.localStart != nil && ((canadian.contains(e.timeZone!) && e.event.startsAt >= change) || i % 7 == 0)
        }.map(\.element)
        sample = Array(sample.prefix(600))
        #expect(sample.contains { canadian.contains($0.timeZone!) && $0.event.startsAt >= change })
        let script = sample.map { "TZ=\($0.timeZone!) date -d @\($0.event.startsAt) +%Y-%m-%dT%H:%M:%S" }.joined(separator: "\n")
        let printed = try shell(script).output.split(separator: "\n").map(String.init)
        #expect(printed.count == sample.count)
        for (e, expected) in zip(sample, printed) {
            #expect(CivilTime.formatLocal(e.localStart!) == expected, "event \(e.event.idString) in \(e.timeZone!)")
        }
    }

    /// A copy of the zone files the geocoding table names, with `tzdata.zi` naming `version`.
    static func zoneinfoCopy(version: String) throws -> URL {
        let dir = temporaryDirectory("tonight-zoneinfo")
        let names = try GeoTable.zoneNames(GeoTable.bundledURL!) + ["UTC"]
        for name in names {
            let to = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name), to: to)
        }
        try FileIO.write("# version \(version)\n", to: dir.appendingPathComponent("tzdata.zi"))
        return dir
    }

    /// A new tzdata release recomputes geocode (and what reads it), and nothing upstream or
    /// beside it; the version is in stage.json and the manifest.
    @Test func tzdataVersionEntersTheGeocodeFingerprint() throws {
        let work = temporaryDirectory()
        let first = runner(inputs: tinyInputs, work: work)
        first.timeZoneDatabase = TimeZoneDatabase(directory: try Self.zoneinfoCopy(version: "2026f"))
        let run = try first.run()
        let geocode = try #require(RunStore(work: work).record(run: run.runId, stage: "geocode"))
        #expect(geocode.inputs.first { $0.kind == "tzdata" }?.version == "2026f")
        let manifest = try publishedManifest(work: work)
        #expect(manifest.tzdataVersion == "2026f")

        let second = runner(inputs: tinyInputs, work: work)
        second.timeZoneDatabase = TimeZoneDatabase(directory: try Self.zoneinfoCopy(version: "2099a"))
        let plan = try second.plan()
        let action = Dictionary(uniqueKeysWithValues: plan.map { ($0.stage, $0.action) })
        #expect(action["parse-feed"] == .reuse)
        #expect(action["load-tickets"] == .reuse)
        #expect(action["load-playmate"] == .reuse)
        #expect(action["geocode"] == .run)
        let why = plan.first { $0.stage == "geocode" }!.reason
        #expect(why.contains("2026f → 2099a"), "\(why)")

        // The same release with one zone file edited locally is a change too.
        let edited = try Self.zoneinfoCopy(version: "2026f")
        try FileManager.default.removeItem(at: edited.appendingPathComponent("America/Chicago"))
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "/usr/share/zoneinfo/America/New_York"),
                                         to: edited.appendingPathComponent("America/Chicago"))
        let third = runner(inputs: tinyInputs, work: work)
        third.timeZoneDatabase = TimeZoneDatabase(directory: edited)
        #expect(try third.plan().first { $0.stage == "geocode" }?.action == .run)
    }

    @Test func missingDatabaseStopsTheRunAtItsStart() throws {
        let work = temporaryDirectory()
        let r = try runTonight(["run", "--work", work.path, "--out", work.path + "/out"], environment: ["TZDIR": "/nonexistent"])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("tzdata"))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out/snapshots/CURRENT").path))
    }
}

/// The manifest of the snapshot published into `work/out`.
func publishedManifest(work: URL) throws -> SnapshotManifest {
    let dir = SnapshotDirectory(root: work.appendingPathComponent("out/snapshots"))
    return try dir.manifest(try dir.currentID())
}
