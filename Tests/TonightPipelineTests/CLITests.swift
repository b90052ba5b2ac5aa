import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// The `tonight` executable as a user runs it: exit codes, dry run, dump, lock.
@Suite struct CLITests {
    @Test func runDryRunAndDump() throws {
        let work = temporaryDirectory()
        let run = try runTonight(["run", "--work", work.path, "--out", work.path + "/out"])
        #expect(run.status == 0, "\(run.stderr)")
        let dry = try runTonight(["run", "--work", work.path, "--dry-run"])
        #expect(dry.status == 0)
        let feedLine = dry.stdout.split(separator: "\n").first { $0.contains("parse-feed ") }
        #expect(feedLine?.contains(" reuse ") == true, "\(dry.stdout)")
        let dump = try runTonight(["runs", "dump", "--work", work.path, "parse-feed", "venues"])
        #expect(dump.status == 0)
        let lines = dump.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"key\":") })
    }

    /// Batch lookups: the reader's `records(keys:)` agrees with one `json(key:)` per key, in
    /// the keys' order, repeats and absent keys included; the CLI prints one line per key.
    @Test func batchGetAgreesWithSingleLookups() throws {
        let work = temporaryDirectory()
        let out = work.appendingPathComponent("out")
        #expect(try runTonight(["run", "--work", work.path, "--out", out.path]).status == 0)
        let snapshot = try Snapshot.openCurrent(in: out.appendingPathComponent("snapshots"), cacheBytes: 0)
        for name in ["explore", "events", "player_stats"] {
            let dataset = try snapshot.dataset(name)
            var keys: [String] = []
            try dataset.forEachRecord { line in
                let text = String(decoding: line, as: UTF8.self)
                keys.append(String(text.dropFirst(8).prefix { $0 != "\"" }))
            }
            #expect(keys.count == dataset.count)
            let asked = keys.reversed() + ["not-a-key", "", keys[0]] + keys
            let batch = try dataset.records(keys: asked)
            #expect(batch.count == asked.count)
            for (k, record) in zip(asked, batch) { #expect(record == (try dataset.json(key: k)), "\(name) \(k)") }
            #expect(batch.filter { $0 == nil }.count == 2)
        }
        let keysFile = work.appendingPathComponent("keys.txt")
        try "gsDYBAAAAA\nnobody\r\nHoeQLSYIAA\n".write(to: keysFile, atomically: true, encoding: .utf8)
        let r = try runTonight(["snapshot", "get", "explore", "--keys", keysFile.path, "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1] == #"{"key":"nobody","missing":true}"#)
        for (line, key) in [(lines[0], "gsDYBAAAAA"), (lines[2], "HoeQLSYIAA")] {
            let single = try runTonight(["snapshot", "get", "explore", key, "--out", out.path])
            #expect(single.stdout == line + "\n")
        }
        // '-' reads the keys from standard input, with the same output.
        let piped = try runTonight(["snapshot", "get", "explore", "--keys", "-", "--out", out.path],
                                   input: Data("gsDYBAAAAA\nnobody\r\nHoeQLSYIAA\n".utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == r.stdout)
        #expect(try runTonight(["snapshot", "get", "explore", "--out", out.path]).status != 0)  // neither KEY nor --keys
    }

    @Test func dumpMatchesTheCheckedFixtures() throws {
        let work = temporaryDirectory()
        #expect(try runTonight(["run", "--work", work.path, "--out", work.path + "/out"]).status == 0)
        let tables = [("parse-feed", ["artists", "categories", "venues", "events", "rejects"]),
                      ("parse-affinity", ["edges", "rejects"]), ("geocode", ["venues", "events"]),
                      ("load-tickets", ["users", "favorites", "rejects"]), ("load-playmate", ["players", "sessions", "rejects"]),
                      ("catalog", ["events", "venues", "artists", "categories", "artist_suggest", "category_artists", "nearby",
                                   "artist_events", "venue_events", "artist_years", "event_search"]),
                      ("planner", ["planner", "similar_dates"]),
                      // Worked out by hand from recommendations.md (see Fixtures/tiny/README.md).
                      ("tickets", ["explore", "feed", "tonight"]), ("alerts", ["alerts", "following"]),
                      ("playmate", ["sessions", "player_stats", "upcoming_sessions", "open_sessions"])]
        for (stage, names) in tables {
            for table in names {
                let dump = try runTonight(["runs", "dump", "--work", work.path, stage, table])
                let expected = try String(
                    contentsOf: packageRoot.appendingPathComponent("Fixtures/tiny/expected/\(stage)/\(table).ndjson"),
                    encoding: .utf8)
                #expect(dump.stdout == expected, "\(stage) \(table) differs from Fixtures/tiny/expected")
            }
        }
    }

    @Test func exitCodes() throws {
        let work = temporaryDirectory()
        // usage
        #expect(try runTonight(["run", "--only", "nope", "--work", work.path]).status == 2)
        #expect(try runTonight(["run", "--bogus"]).status == 2)
        for count in ["0", "-5"] {
            let out = work.appendingPathComponent("generated").path
            let refused = try runTonight(["generate", "--scale", "tiny", "--users", count, "--out", out])
            #expect(refused.status == 2, "--users \(count)")
            #expect(refused.stderr.contains("--users"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        // invalid input: a truncated feed
        let inputs = temporaryDirectory().appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try Data("<Ticketmaster>\n<Artists>\n".utf8).write(to: inputs.appendingPathComponent("feed.xml"))
        let bad = try runTonight(["run", "--only", "parse-feed", "--inputs", inputs.path, "--work", work.path])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains(inputs.appendingPathComponent("feed.xml").path + ":"))
        // lock held by another process
        let lock = try WorkLock(work: work)
        let locked = try runTonight(["run", "--work", work.path])
        #expect(locked.status == 75)
        #expect(locked.stderr.contains("pid \(getpid())"))
        withExtendedLifetime(lock) {}
    }

    /// `--date` alone when an earlier night is re-run (asOf defaults to now) would rank every
    /// tonight list empty: refused (usage), naming the fix. The last D whose window can still
    /// hold an event is allowed, and so is a D after asOf (a preview).
    @Test(arguments: [
        ("2026-01-15", "2026-02-01T00:00:00Z", false),
        ("2026-01-14", "2026-01-15T16:00:00Z", false),  // D+1 04:00 at UTC-12 is 16:00Z, exclusive
        ("2026-01-14", "2026-01-15T15:59:59Z", true),
        ("2026-01-15", "2026-01-15T06:00:00Z", true),
        ("2026-01-20", "2026-01-15T06:00:00Z", true),
    ])
    func aRunDateWhoseNightHasEndedIsRefused(_ date: String, _ asOf: String, _ allowed: Bool) throws {
        let work = temporaryDirectory()
        let r = try runTonight(["run", "--dry-run", "--date", date, "--as-of", asOf, "--work", work.path, "--out", work.path + "/out"])
        if allowed {
            #expect(r.status == 0, "\(r.stderr)")
        } else {
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("--date \(date) is before the run instant \(asOf)"), "\(r.stderr)")
            #expect(r.stderr.contains("--as-of \(date)T06:00:00Z"), "\(r.stderr)")
        }
    }

    /// `--as-of` takes what `date -Iseconds`, `--iso-8601=ns` and `--rfc-3339=seconds` print: the offset is
    /// taken off, a fraction rounds up (an event at the whole second before has started).
    @Test(arguments: [
        ("2026-01-15T06:00:00Z", "2026-01-15T06:00:00Z"), ("2026-01-15", "2026-01-15T00:00:00Z"),
        ("2026-01-15T07:00:00+01:00", "2026-01-15T06:00:00Z"), ("2026-01-15T01:00:00-0500", "2026-01-15T06:00:00Z"),
        ("2026-01-15T06:00:00+00", "2026-01-15T06:00:00Z"), ("2026-01-15T06:00:00.000000000+00:00", "2026-01-15T06:00:00Z"),
        ("2026-01-15 07:00:00+01:00", "2026-01-15T06:00:00Z"),  // date --rfc-3339=seconds
        ("2026-01-15 06:00:00", nil),  // no zone
        ("2026-01-15T06:00:00.5Z", "2026-01-15T06:00:01Z"), ("2026-01-14T23:30:00,25-06:30", "2026-01-15T06:00:01Z"),
        ("2026-01-15T06:00:00+1:00", nil), ("2026-01-15T06:00:00+15:00", nil), ("2026-01-15T06:00:00+01:60", nil),
        ("2026-01-15T06:00:00.Z", nil), ("2026-01-15T06:00:00+01:0", nil), ("2026-02-30T06:00:00+01:00", nil),
    ] as [(String, String?)])
    func asOfTakesTheShellsClock(_ text: String, _ utc: String?) throws {
        let out = temporaryDirectory().appendingPathComponent("generated")
        let r = try runTonight(["generate", "--scale", "tiny", "--as-of", text, "--out", out.path])
        if let utc {
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("as of \(utc))"), "\(r.stdout)")
        } else {
            #expect(r.status == 2 && r.stderr.contains("cannot read time"), "\(r.stderr)")
        }
    }

    @Test func stagesAndRuns() throws {
        let stages = try runTonight(["stages"])
        #expect(stages.status == 0 && stages.stdout.contains("parse-feed"))
        let work = temporaryDirectory()
        _ = try runTonight(["run", "--work", work.path, "--out", work.path + "/out"])
        let runs = try runTonight(["runs", "--work", work.path])
        #expect(runs.stdout.contains("completed"))
        let show = try runTonight(["runs", "show", "--work", work.path])
        #expect(show.stdout.contains("\"fingerprint\""))
    }
}

/// The real 2012 excerpt through the CLI, as an engineer would look at it.
@Suite struct RealExcerptCLITests {
    @Test func dumpShowsEveryFieldOfTheLinkedExcerpt() throws {
        let inputs = temporaryDirectory("tonight-real").appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let excerpt = packageRoot.appendingPathComponent("Tests/TonightFeedTests/Resources/feed_sample_2012_linked.xml")
        try FileManager.default.copyItem(at: excerpt, to: inputs.appendingPathComponent("feed.xml"))
        let work = temporaryDirectory()
        let run = try runTonight(["run", "--only", "parse-feed", "--inputs", inputs.path, "--work", work.path])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try runTonight(["runs", "dump", "--work", work.path, "parse-feed", "events"]).stdout
        #expect(events.contains(#"{"key":"07004753D77FA97E","id":"07004753D77FA97E","name":"Million Dollar Quartet","artists":[],"category":207,"venue":57346,"startsAt":"2012-09-30T01:00:00Z","status":3,"onsale":{"kind":"now"},"presale":{"kind":"date","at":"2012-06-11T15:00:00Z"},"priceMin":72.5,"priceMax":77.5,"promoter":494,"stars":4.6,"starReviews":2164,"url":"http://www.ticketmaster.com/event/07004753D77FA97E?camefrom=&brand=none"}"#))
        #expect(events.split(separator: "\n").count == 2)
        let artists = try runTonight(["runs", "dump", "--work", work.path, "parse-feed", "artists"]).stdout
        #expect(artists.contains(#""name":"Taffy","category":202"#))
        let venues = try runTonight(["runs", "dump", "--work", work.path, "parse-feed", "venues"]).stdout
        #expect(venues.split(separator: "\n").count == 3)
        let categories = try runTonight(["runs", "dump", "--work", work.path, "parse-feed", "categories"]).stdout
        // The roots are not in the excerpt: the parent references are dropped and counted.
        #expect(categories.contains(#"{"key":"202","id":202,"name":"R&B/Urban Soul"}"#))
        let show = try runTonight(["runs", "show", "--work", work.path]).stdout
        #expect(show.contains("\"unknown-artist\" : 2"))
        #expect(show.contains("\"unknown-parent-category\" : 4"))
    }
}
