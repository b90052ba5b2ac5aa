import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// The publish stage and the snapshot protocol: contents, determinism, validation, retention,
/// rollback and crash safety.
@Suite struct PublishTests {
    static func snapshots(_ work: URL) -> URL { work.appendingPathComponent("out/snapshots") }

    @Test func tinyRunPublishesEveryDataset() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let s = try Snapshot.openCurrent(in: Self.snapshots(work))
        #expect(s.datasets.keys.sorted() == (CatalogStage.datasetNames + PlannerStage.datasetNames + TicketsStage.datasetNames + AlertsStage.datasetNames
                                             + PlaymateStage.datasetNames).sorted())
        #expect(s.verify().isValid)
        #expect(s.manifest.asOf == "2026-01-15T06:00:00Z")
        #expect(s.manifest.previous == nil)
        #expect(s.manifest.stages.map(\.name) == ["parse-feed", "parse-affinity", "geocode", "load-tickets", "load-playmate", "catalog", "planner", "tickets", "alerts", "playmate"])
        #expect(s.manifest.inputs.contains { $0.role == "tickets/users.csv" && $0.sha256.count == 64 })
        #expect(s.manifest.inputs.contains { $0.role == "feed" })
        #expect(SnapshotDirectory.isSnapshotID(s.id) && s.id.hasSuffix(String(s.manifest.contentHash.prefix(8))))
        // Typed accessors over the real datasets (values hand-checked in Fixtures/tiny/expected/catalog).
        let msg = try #require(try s.venue(id: 58))
        #expect(msg.precision == .postal && msg.timeZone == "America/New_York")
        let event = try #require(try s.event(id: "1D446879A86F5DEA"))
        #expect(event.venue == 58 && event.localStart == "2026-01-15T21:00:00" && event.lat == msg.lat)
        #expect(try s.artist(id: 1061)?.favorites == 5)
        #expect(try s.artist(id: 1061)?.upcomingEvents == 3)
        #expect(try s.category(id: 1)?.name == "Rock and Pop")
        #expect(try s.suggestArtists(prefix: "  THE ").map(\.id) == [1087, 1054])
        #expect(try s.suggestArtists(prefix: "Renée D").map(\.id) == [1097])  // longer than 4: filtered by name
        #expect(try s.suggestArtists(prefix: "Rene").isEmpty)
        #expect(try s.categoryArtists(category: 207).map(\.id) == [1061])
        let near = try s.nearby(lat: 40.7505, lon: -73.9934, radiusKm: 10)
        #expect(near.map(\.event.event) == ["1D446879A86F5DEA", "897592F97A8DDB0D", "1AF6280B4C830302", "CDC1A83E02DD07CB"])
        #expect(near.allSatisfy { $0.distanceKm < 10 })
    }

    /// The manifest records how the config shaped the keys (`keyForm`), and the reader's
    /// searches and map lookups follow it without being told: with `suggestMaxPrefix: 3` and
    /// `geohashPrecision: 5` they found nothing (or refused) with the old defaults of 4.
    @Test func theManifestRecordsTheKeysForm() throws {
        let work = temporaryDirectory()
        var config = TonightConfig()
        try config.set(ConfigKeys.Catalog.suggestMaxPrefix, 3)
        try config.set(ConfigKeys.Catalog.geohashPrecision, 5)
        try runner(inputs: tinyInputs, work: work, config: config).run()
        let s = try Snapshot.openCurrent(in: Self.snapshots(work))
        let forms = s.manifest.datasets.compactMapValues(\.keyForm)
        #expect(forms == [
            "artist_suggest": .init(maxPrefixScalars: 3), "event_search": .init(maxPrefixScalars: 3),
            "nearby": .init(geohashLength: 5), "open_sessions": .init(geohashLength: 5), "planner": .init(geohashLength: 5),
        ])
        #expect(s.verify(references: true).isValid)
        #expect(try s.suggestArtists(prefix: "  THE ").map(\.id) == [1087, 1054])
        #expect(try s.suggestArtists(prefix: "Renée D").map(\.id) == [1097])
        #expect { try s.suggestArtists(prefix: "Renée D", maxPrefix: 4) } throws: { ($0 as? SnapshotError)?.code == .invalidArgument }
        let near = try s.nearby(lat: 40.7505, lon: -73.9934, radiusKm: 10)
        #expect(near.map(\.event.event) == ["1D446879A86F5DEA", "897592F97A8DDB0D", "1AF6280B4C830302", "CDC1A83E02DD07CB"])
    }

    /// Every published dataset (and index) reads whole with `zstd -dc` and by byte range with
    /// Python's `pyzstd.SeekableZstdFile` (both installed by .ci/run).
    @Test(.enabled(if: ExternalTool.zstd.isAvailable && ExternalTool.pyzstd.isAvailable))
    func publishedFilesReadWithStockTools() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let s = try Snapshot.openCurrent(in: Self.snapshots(work))
        for (name, entry) in s.manifest.datasets {
            for (file, lines) in [(entry.file, entry.records), (entry.index, entry.frames)] {
                let path = s.directory.appendingPathComponent(file).path
                let whole = try unpack(shell("zstd -dc '\(path)'"))
                #expect(whole.0 == 0 && whole.1.split(separator: "\n").count == lines, "\(name): zstd -dc \(file)")
                let script = "import sys\nfrom pyzstd import SeekableZstdFile\nf = SeekableZstdFile(sys.argv[1], 'r')\nf.seek(int(sys.argv[2])); sys.stdout.buffer.write(f.read(int(sys.argv[3])))"
                let text = Array(whole.1.utf8)
                let start = text.count / 3, length = max(1, text.count / 3)
                let ranged = try unpack(shell("python3 -c \"\(script)\" '\(path)' \(start) \(length)"))
                #expect(ranged.0 == 0, "pyzstd: \(ranged.1)")
                #expect(Array(ranged.1.utf8) == Array(text[start..<min(text.count, start + length)]), "\(name): pyzstd range of \(file)")
            }
        }
    }

        @Test func sameInputsGiveByteIdenticalFiles() throws {
        let a = temporaryDirectory(), b = temporaryDirectory()
        try runner(inputs: tinyInputs, work: a).run()
        try runner(inputs: tinyInputs, work: b).run()
        let sa = try Snapshot.openCurrent(in: Self.snapshots(a)), sb = try Snapshot.openCurrent(in: Self.snapshots(b))
        #expect(sa.manifest.contentHash == sb.manifest.contentHash)
        for (name, entry) in sa.manifest.datasets {
            for file in [entry.file, entry.index] {
                let x = try Data(contentsOf: sa.directory.appendingPathComponent(file))
                let y = try Data(contentsOf: sb.directory.appendingPathComponent(file))
                #expect(x == y, "\(name): \(file) differs")
            }
        }
    }

    @Test func shrinkGuardRefusesUnlessAllowed() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let before = try SnapshotDirectory(root: Self.snapshots(work)).currentID()
        var small = TonightConfig()
        try small.set(ConfigKeys.Catalog.suggestMaxPrefix, 1)  // artist_suggest: 34 → 7 records (g h k m p r t)
        #expect {
            try runner(inputs: tinyInputs, work: work, config: small).run()
        } throws: { error in
            let e = error as? TonightError
            return e?.exitCode == 65 && e?.description.contains("artist_suggest 34 → 7") == true
                && e?.description.contains("--allow-shrink") == true
        }
        #expect(try SnapshotDirectory(root: Self.snapshots(work)).currentID() == before)
        #expect(SnapshotDirectory(root: Self.snapshots(work)).snapshotIDs() == [before])
        try runner(inputs: tinyInputs, work: work, config: small) { $0.allowShrink = true }.run()
        let after = try Snapshot.openCurrent(in: Self.snapshots(work))
        #expect(after.id != before && after.manifest.previous == before)
        #expect(after.manifest.datasets["artist_suggest"]?.records == 7)
    }

    /// A damaged CURRENT is an input error naming the file: nothing is computed against it,
    /// nothing is published, and no snapshot is touched.
    /// An error after this run switched CURRENT says the snapshot is published; an error of a
    /// run that published nothing is left as it is.
    @Test func anErrorAfterThePublishSaysTheSnapshotIsPublished() throws {
        let work = temporaryDirectory()
        let r = runner(inputs: tinyInputs, work: work)
        let record = try r.run()
        let failure = TonightError(.io, "write failed: No space left on device")
        let noted = r.noting(publishedBy: record.runId, in: failure)
        #expect(noted.message.contains("was published and is CURRENT") && noted.message.contains("No space left"), "\(noted.message)")
        #expect(r.noting(publishedBy: "some-other-run", in: failure).message == failure.message)
    }

    /// CURRENT that cannot be read, that names a snapshot removed by hand, or one whose
    /// manifest is damaged: the run stops (an operator must see why a published snapshot
    /// broke) naming the file, and says how to repair it. Until 2026-11-28 a removed or
    /// damaged snapshot said only "verify it with `tonight snapshot verify ID`", which cannot
    /// repair anything.
    @Test(arguments: ["garbage", "removed", "manifest"])
    func damagedCurrentStopsTheRunWithItsPath(_ damage: String) throws {
        let work = temporaryDirectory()
        let out = work.appendingPathComponent("out")
        #expect(try runTonight(["run", "--work", work.path, "--out", out.path]).status == 0)
        let root = Self.snapshots(work)
        var before = SnapshotDirectory(root: root).snapshotIDs()
        let current = try SnapshotDirectory(root: root).currentID()
        var file = root.appendingPathComponent("CURRENT")
        if damage == "garbage" {
            try "garbage\n".write(to: file, atomically: true, encoding: .utf8)
        } else {
            // An earlier complete snapshot to roll back to.
            var config = TonightConfig()
            try config.set(ConfigKeys.Recommendations.Explore.timeDecayDays, 9.0)
            try runner(inputs: tinyInputs, work: work, config: config).run()
            before = SnapshotDirectory(root: root).snapshotIDs()
            let broken = try SnapshotDirectory(root: root).currentID()
            file = root.appendingPathComponent(broken).appendingPathComponent("manifest.json")
            if damage == "removed" {
                try FileManager.default.removeItem(at: root.appendingPathComponent(broken))
                before.removeAll { $0 == broken }
            } else {
                try "{\"formatVersion\": 2, \"id\": ".write(to: file, atomically: true, encoding: .utf8)
            }
        }
        let run = try runTonight(["run", "--work", work.path, "--out", out.path])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains(file.path) && run.stderr.contains("tonight snapshot rollback"), "\(run.stderr)")
        #expect(damage == "garbage" || run.stderr.contains("--only publish"), "\(run.stderr)")
        #expect(SnapshotDirectory(root: root).snapshotIDs() == before)
        #expect(before.contains(current))
        // Repaired by a rollback to the snapshot that was there, the next run completes.
        #expect(try runTonight(["snapshot", "rollback", before[0], "--out", out.path]).status == 0)
        #expect(try runTonight(["run", "--work", work.path, "--out", out.path]).status == 0)
    }

    /// Many re-runs of one night, each publishing something new, never push out the previous
    /// night's snapshot: it is the alerts baseline of the next re-run.
    @Test func retentionKeepsTheAlertsBaselineOfTheCurrentNight() throws {
        let work = temporaryDirectory()
        var config = TonightConfig()
        try config.set(ConfigKeys.Snapshot.retain, 2)
        try runner(inputs: tinyInputs, work: work, config: config).run()
        let lastNight = try SnapshotDirectory(root: Self.snapshots(work)).currentID()
        for days in [10.0, 11, 12, 13] {
            // Tonight, re-run with another setting each time: every run publishes.
            try config.set(ConfigKeys.Recommendations.Explore.timeDecayDays, days)
            try runner(inputs: tinyInputs, work: work, config: config) {
                $0.asOf += 86_400
                $0.date += 1
                $0.allowShrink = true
            }.run()
        }
        let ids = SnapshotDirectory(root: Self.snapshots(work)).snapshotIDs()
        #expect(ids.count == 3, "\(ids)")
        #expect(ids.contains(lastNight), "\(ids)")
    }

    @Test func retentionKeepsTheNewestAndRollbackGoesBack() throws {
        let work = temporaryDirectory()
        var config = TonightConfig()
        try config.set(ConfigKeys.Snapshot.retain, 3)
        var ids: [String] = []
        for night in 0..<5 {
            // Five nights: the same inputs, lists computed for another instant each time.
            try runner(inputs: tinyInputs, work: work, config: config) {
                $0.asOf += Int64(night) * 86_400
                $0.date += night
                $0.allowShrink = true
            }.run()
            ids.append(try SnapshotDirectory(root: Self.snapshots(work)).currentID())
        }
        #expect(Set(ids).count == 5)
        let dir = SnapshotDirectory(root: Self.snapshots(work))
        #expect(dir.snapshotIDs() == Array(ids.suffix(3)))
        // Roll back: to the one before, then to an explicit id; the chain stays protected.
        let publisher = SnapshotPublisher(root: Self.snapshots(work))
        #expect(try publisher.rollback() == ids[3])
        #expect(try dir.currentID() == ids[3])
        #expect(try publisher.rollback(to: ids[2]) == ids[2])
        #expect(throws: TonightError.self) { try publisher.rollback(to: ids[0]) }  // removed by retention
        // A corrupt target is refused and CURRENT stays.
        let target = dir.root.appendingPathComponent(ids[4]).appendingPathComponent("events.ndjson.zst")
        var bytes = [UInt8](try Data(contentsOf: target))
        bytes[bytes.count / 2] ^= 0xFF
        try FileManager.default.removeItem(at: target)  // a hard link: do not damage the run store's copy
        try Data(bytes).write(to: target)
        #expect(throws: TonightError.self) { try publisher.rollback(to: ids[4]) }
        #expect(try dir.currentID() == ids[2])
        // The CLI shows the same.
        let list = try runTonight(["snapshot", "list", "--out", work.appendingPathComponent("out").path])
        #expect(list.status == 0)
        #expect(list.stdout.contains("* \(ids[2])"))
        let verify = try runTonight(["snapshot", "verify", ids[4], "--out", work.appendingPathComponent("out").path])
        #expect(verify.status == 65 && verify.stdout.contains("problem"))
    }

    @Test func cliGetShowVerifyRollback() throws {
        let work = temporaryDirectory()
        let out = work.appendingPathComponent("out").path
        #expect(try runTonight(["run", "--work", work.path, "--out", out]).status == 0)
        #expect(try runTonight(["run", "--work", work.path, "--out", out, "--as-of", "2026-01-16T06:00:00Z"]).status == 0)
        let get = try runTonight(["snapshot", "get", "venues", "58", "--out", out])
        #expect(get.status == 0 && get.stdout.hasPrefix(#"{"key":"58","id":58,"name":"New York City Playhouse""#))
        let missing = try runTonight(["snapshot", "get", "venues", "999", "--out", out])
        #expect(missing.status == 1 && missing.stderr.contains("no record '999'"))
        let noDataset = try runTonight(["snapshot", "get", "nope", "1", "--out", out])
        #expect(noDataset.status == 65 && noDataset.stderr.contains("no dataset 'nope'"))
        let show = try runTonight(["snapshot", "show", "--out", out])
        #expect(show.status == 0 && show.stdout.contains("\"contentHash\""))
        #expect(try runTonight(["snapshot", "verify", "--out", out]).stdout.contains(": OK"))
        let refs = try runTonight(["snapshot", "verify", "--references", "--out", out])
        #expect(refs.status == 0 && refs.stdout.contains(" references: OK"), "\(refs.stdout)")
        let ids = SnapshotDirectory(root: URL(fileURLWithPath: out).appendingPathComponent("snapshots")).snapshotIDs()
        let back = try runTonight(["snapshot", "rollback", "--out", out])
        #expect(back.status == 0 && back.stdout.contains(ids[0]))
    }

    /// A record pointing at an id its dataset lacks refuses the publish (exit 65), naming the
    /// dataset, key and field; nothing is published.
    @Test func danglingReferenceRefusesThePublish() throws {
        let work = temporaryDirectory()
        let dir = work.appendingPathComponent("stage")
        try FileIO.createDirectory(dir)
        var files = DatasetFiles(directory: dir, config: TonightConfig())
        try files.write("events") { try $0.append(key: "00000000000000AA", json: Array(#"{"key":"00000000000000AA","artists":[],"venue":3}"#.utf8)) }
        try files.write("nearby") {
            try $0.append(key: "9q8y", json: Array(#"{"key":"9q8y","items":[{"event":"00000000000000AA","venue":3},{"event":"00000000000000AA","venue":4}]}"#.utf8))
        }
        try files.write("venues") { try $0.append(key: "3", json: Array(#"{"key":"3","id":3}"#.utf8)) }
        try files.write("artists") { try $0.append(key: "1", json: Array(#"{"key":"1","id":1}"#.utf8)) }
        try files.write("categories") { try $0.append(key: "5", json: Array(#"{"key":"5","id":5}"#.utf8)) }
        try files.finish()
        let sources = try DatasetFiles.read(dir).map { e in
            var s = SnapshotPublisher.Source(entry: e, directory: dir, sha256: try ContentHash.file(dir.appendingPathComponent(e.file)),
                                             indexSha256: try ContentHash.file(dir.appendingPathComponent(e.index)))
            for f in [e.dictionary, e.keyTable].compactMap({ $0 }) { s.otherSha256[f] = try ContentHash.file(dir.appendingPathComponent(f)) }
            return s
        }
        let root = work.appendingPathComponent("out/snapshots")
        let template = SnapshotManifest(id: "", asOf: "2026-01-15T06:00:00Z", date: "2026-01-15", createdAt: "", codeVersion: "test",
                                        configHash: "", contentHash: "", inputs: [], datasets: [:], stages: [], previous: nil, runId: "r")
        let e = #expect(throws: TonightError.self) {
            try SnapshotPublisher(root: root).publish(sources, template: template, now: 1_768_456_800)
        }
        #expect(e?.exitCode == 65)
        #expect(e?.message.contains("dataset nearby, key '9q8y', field items[].venue: '4' is not a key of venues") == true, "\(String(describing: e))")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("CURRENT").path))
        #expect(SnapshotDirectory(root: root).snapshotIDs().isEmpty)
    }

    /// A publish killed with SIGKILL at every point of the protocol leaves CURRENT naming a
    /// snapshot that verifies, and the next run completes.
    @Test(arguments: CrashPoint.publishPoints)
    func crashAnywhereLeavesAValidCurrent(point: String) throws {
        let work = temporaryDirectory()
        let out = work.appendingPathComponent("out").path
        let config = "snapshot:\n  retain: 1\n"  // so that retention deletes during the crashing run
        let configURL = work.appendingPathComponent("tonight.yaml")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let args = ["run", "--work", work.path, "--out", out, "--config", configURL.path]
        // Three nights, so that each publishes something new (the same content would not be).
        #expect(try runTonight(args + ["--as-of", "2026-01-15T06:00:00Z"]).status == 0)
        #expect(try runTonight(args + ["--as-of", "2026-01-16T06:00:00Z"]).status == 0)
        let crashed = try runTonight(args + ["--as-of", "2026-01-17T06:00:00Z"], environment: ["TONIGHT_CRASH_AT": point])
        #expect(crashed.status == 128 + 9, "\(point): \(crashed.stderr)")
        let verify = try runTonight(["snapshot", "verify", "--out", out])
        #expect(verify.status == 0 && verify.stdout.contains(": OK"), "\(point): \(verify.stdout)")
        let next = try runTonight(args + ["--as-of", "2026-01-17T06:00:00Z"])
        #expect(next.status == 0, "\(point): \(next.stderr)")
        #expect(try runTonight(["snapshot", "verify", "--out", out]).status == 0)
        // No leftovers of the crashed publish.
        let names = try FileManager.default.contentsOfDirectory(atPath: out + "/snapshots")
        #expect(!names.contains { $0.hasPrefix(".tmp-") || $0 == "CURRENT.tmp" }, "\(point): \(names)")
    }
}

/// Alerts compare this run's events with the previous night's snapshot (the newest published
/// one whose run date is earlier), whatever was published tonight.
@Suite struct AlertsTests {
    /// The tiny feed as night 2 delivers it: 1AF6280B4C830302 (followed by zJQPQbkMAA) moves a
    /// day and to venue 62; 641CFA83A06E71A8 (followed by gsDYBAAAAA) changes status;
    /// 0CE2322D168D9114 (followed by zJQPQbkMAA) leaves the feed.
    static func editNight2(_ inputs: URL) throws {
        let feedURL = inputs.appendingPathComponent("feed.xml")
        var feed = try String(contentsOf: feedURL, encoding: .utf8)
        func edit(_ id: String, _ body: (String) -> String) throws {
            let start = try #require(feed.range(of: "<Event ID=\"\(id)\" >"))
            let end = try #require(feed.range(of: "</Event>", range: start.upperBound..<feed.endIndex))
            feed.replaceSubrange(start.lowerBound..<end.upperBound, with: body(String(feed[start.lowerBound..<end.upperBound])))
        }
        try edit("1AF6280B4C830302") {
            $0.replacingOccurrences(of: "2026-01-25", with: "2026-01-26").replacingOccurrences(of: "<VenueID ID=\"58\" />", with: "<VenueID ID=\"62\" />")
        }
        try edit("641CFA83A06E71A8") { $0.replacingOccurrences(of: "<EventStatus>3</EventStatus>", with: "<EventStatus>2</EventStatus>") }
        try edit("0CE2322D168D9114") { _ in "" }
        try feed.write(to: feedURL, atomically: true, encoding: .utf8)
    }

    static func night2(_ inputs: URL, _ work: URL) throws -> RunRecord {
        try runner(inputs: inputs, work: work) {
            $0.asOf += 86_400
            $0.date += 1
        }.run()
    }

    static func alertsSHA(_ work: URL) throws -> String {
        try publishedManifest(work: work).datasets["alerts"]!.sha256
    }

    @Test func alertsAgainstThePreviousNight() throws {
        let night1 = copyOfTinyInputs()
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        try runner(inputs: inputs, work: work).run()
        // The first night has no earlier night: no alerts, whatever is published.
        #expect(try publishedManifest(work: work).datasets["alerts"]?.records == 0)
        try Self.editNight2(inputs)
        _ = try Self.night2(inputs, work)
        let s = try Snapshot.openCurrent(in: PublishTests.snapshots(work))
        #expect(try s.alerts(user: "zJQPQbkMAA") == [
            AlertItem(event: "1AF6280B4C830302", kind: .timeChanged, old: .startsAt("2026-01-25T00:30:00Z"),
                      new: .startsAt("2026-01-26T00:30:00Z")),
            AlertItem(event: "1AF6280B4C830302", kind: .venueChanged, old: .venue(58), new: .venue(62)),
            AlertItem(event: "0CE2322D168D9114", kind: .removed, old: nil, new: nil),
        ])
        #expect(try s.alerts(user: "gsDYBAAAAA") == [AlertItem(event: "641CFA83A06E71A8", kind: .statusChanged, old: .status(3), new: .status(2))])
        #expect(try s.alerts(user: "h4dCf2KZAA").isEmpty)  // follows unchanged events
        // The following tab: 0CE2 left the feed; 1AF6 moved a day and venue (marked); CE85 did not change.
        #expect(try s.following(user: "zJQPQbkMAA") == [
            FollowingItem(event: "CE8541CB598CA9B6", venue: 83, startsAt: "2026-01-21T00:30:00Z", status: 3, alert: nil),
            FollowingItem(event: "1AF6280B4C830302", venue: 62, startsAt: "2026-01-26T00:30:00Z", status: 2, alert: true),
        ])
        #expect(try s.following(user: "gsDYBAAAAA").map(\.alert) == [true])
        #expect(try s.following(user: "h4dCf2KZAA").allSatisfy { $0.alert == nil })
        #expect(s.manifest.datasets["alerts"]?.records == 2)
        // Typed as in `events`: venue ids and statuses are JSON numbers, starts ISO strings.
        let raw = String(decoding: try #require(try s.json("alerts", key: "zJQPQbkMAA")), as: UTF8.self)
        #expect(raw.contains(#""kind":"venue-changed","old":58,"new":62"#), "\(raw)")
        #expect(raw.contains(#""old":"2026-01-25T00:30:00Z","new":"2026-01-26T00:30:00Z""#), "\(raw)")
        let status = String(decoding: try #require(try s.json("alerts", key: "gsDYBAAAAA")), as: UTF8.self)
        #expect(status.contains(#""old":3,"new":2"#), "\(status)")
        let first = try Self.alertsSHA(work)

        // Night 2 again, twice: every stage reused, nothing new published, the same alerts.
        for _ in 0..<2 {
            let again = try Self.night2(inputs, work)
            #expect(again.stages.filter { $0.stage != "publish" }.allSatisfy { $0.action == "reuse" }, "\(again.stages)")
            #expect(try Self.alertsSHA(work) == first)
        }
        let snapshots = SnapshotDirectory(root: PublishTests.snapshots(work)).snapshotIDs().count
        #expect(snapshots == 2)

        // Night 1 re-published in between (asked for: a rollback of sorts, which withdraws
        // night 2's snapshot), then night 2 again: refused as withdrawn until night 2's
        // snapshot is rolled forward to; then the baseline is still the newest snapshot of an
        // earlier night (night 1's copy), the alerts the same.
        let night2ID = try SnapshotDirectory(root: PublishTests.snapshots(work)).currentID()
        try runner(inputs: night1, work: work) { $0.allowShrink = true; $0.allowEarlier = true }.run()
        #expect(try publishedManifest(work: work).date == "2026-01-15")
        #expect(throws: TonightError.self) { try Self.night2(inputs, work) }
        #expect(try SnapshotPublisher(root: PublishTests.snapshots(work)).rollback(to: night2ID) == night2ID)
        _ = try Self.night2(inputs, work)
        #expect(try Self.alertsSHA(work) == first)
    }

    /// `--only publish`, `--only playmate publish` and `--from catalog` work after any publish.
    @Test func partialRunsAfterAPublish() throws {
        let work = temporaryDirectory()
        let out = work.path + "/out"
        #expect(try runTonight(["run", "--work", work.path, "--out", out]).status == 0)
        for args in [["--only", "publish"], ["--only", "playmate", "publish"], ["--from", "catalog"]] {
            let r = try runTonight(["run", "--work", work.path, "--out", out] + args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("datasets unchanged, CURRENT stays"), "\(args): \(r.stderr)")
        }
        #expect(SnapshotDirectory(root: URL(fileURLWithPath: out).appendingPathComponent("snapshots")).snapshotIDs().count == 1)
    }

    /// The publish stage times its phases (`seconds.*` in stage.json): every phase of a
    /// publish, only the first of an unchanged one.
    @Test func publishRecordsTheTimeOfEachPhase() throws {
        let work = temporaryDirectory()
        func phases(_ runId: String) throws -> [String] {
            let dir = RunStore(work: work).runDirectory(runId).appendingPathComponent("publish")
            let record = try StageRecord.read(dir.appendingPathComponent("stage.json"))
            #expect(record.details.filter { $0.key.hasPrefix("seconds.") }.values.allSatisfy { Double($0).map { $0 >= 0 } ?? false })
            return record.details.keys.filter { $0.hasPrefix("seconds.") }.sorted()
        }
        let first = try runner(inputs: tinyInputs, work: work).run()
        #expect(try phases(first.runId) == ["seconds.copy", "seconds.prepare", "seconds.retention", "seconds.switch", "seconds.validate"])
        let second = try runner(inputs: tinyInputs, work: work).run()
        #expect(try phases(second.runId) == ["seconds.prepare"])
    }

    /// Nine runs on the same inputs publish one snapshot; a changed dataset publishes again.
    @Test func publishIsIdempotent() throws {
        let work = temporaryDirectory()
        for _ in 0..<9 { try runner(inputs: tinyInputs, work: work).run() }
        #expect(SnapshotDirectory(root: PublishTests.snapshots(work)).snapshotIDs().count == 1)
        let forced = try runner(inputs: tinyInputs, work: work) {
            $0.only = ["publish"]
            $0.force = true
        }.run()
        #expect(forced.status == "completed")
        #expect(SnapshotDirectory(root: PublishTests.snapshots(work)).snapshotIDs().count == 1)
        var config = TonightConfig()
        try config.set(ConfigKeys.Catalog.suggestMaxPrefix, 2)
        try runner(inputs: tinyInputs, work: work, config: config) { $0.allowShrink = true }.run()
        #expect(SnapshotDirectory(root: PublishTests.snapshots(work)).snapshotIDs().count == 2)
    }

    /// CURRENT's files damaged while its datasets equal tonight's: a fresh copy is published.
    @Test func aDamagedCurrentIsReplacedByAFreshCopy() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let root = PublishTests.snapshots(work)
        let id = try SnapshotDirectory(root: root).currentID()
        try DamagedStoreTests.flipByte(root.appendingPathComponent(id).appendingPathComponent("venues.ndjson.zst"))
        try runner(inputs: tinyInputs, work: work).run()
        let now = try SnapshotDirectory(root: root).currentID()
        #expect(now != id)
        #expect(try Snapshot.openCurrent(in: root).verify(references: true).isValid)
    }

    /// A damaged previous-night snapshot is a warning: the next older valid one is the baseline.
    @Test func aDamagedBaselineFallsBackToAnOlderOne() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let older = try SnapshotDirectory(root: PublishTests.snapshots(work)).currentID()
        try runner(inputs: tinyInputs, work: work) { $0.asOf += 86_400; $0.date += 1 }.run()
        let newer = try SnapshotDirectory(root: PublishTests.snapshots(work)).currentID()
        #expect(newer != older)
        try DamagedStoreTests.flipByte(PublishTests.snapshots(work).appendingPathComponent(newer).appendingPathComponent("events.ndjson.zst"))
        let plan = try runner(inputs: tinyInputs, work: work) { $0.asOf += 2 * 86_400; $0.date += 2 }.plan()
        let alerts = try #require(plan.first { $0.stage == "alerts" })
        #expect(alerts.record.inputs.first { $0.kind == "snapshot" }?.hash.hasPrefix(older) == true, "\(alerts.record.inputs)")
        // And a run completes even with --force (the damaged snapshot is never read).
        let run = try runner(inputs: tinyInputs, work: work) { $0.asOf += 2 * 86_400; $0.date += 2; $0.force = true; $0.allowShrink = true }.run()
        #expect(run.status == "completed")
    }
}
