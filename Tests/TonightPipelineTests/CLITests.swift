import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

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

    @Test func dumpMatchesTheCheckedFixtures() throws {
        let work = temporaryDirectory()
        #expect(try runTonight(["run", "--work", work.path]).status == 0)
        let tables = [("parse-feed", ["artists", "categories", "venues", "events", "rejects"]),
                      ("parse-affinity", ["edges", "rejects"])]
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

    @Test func stagesAndRuns() throws {
        let stages = try runTonight(["stages"])
        #expect(stages.status == 0 && stages.stdout.contains("parse-feed"))
        let work = temporaryDirectory()
        _ = try runTonight(["run", "--work", work.path])
        let runs = try runTonight(["runs", "--work", work.path])
        #expect(runs.stdout.contains("completed"))
        let show = try runTonight(["runs", "show", "--work", work.path])
        #expect(show.stdout.contains("\"fingerprint\""))
    }
}
