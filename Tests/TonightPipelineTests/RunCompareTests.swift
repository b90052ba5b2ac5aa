import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

/// `tonight runs compare`: two runs side by side, from their records.
@Suite struct RunCompareTests {
    @Test func lengthsParseTheStageDetail() throws {
        let l = try #require(RunComparison.Lengths("952105 of 1000000 users; length min 1 median 10 p90 50 max 50"))
        let values: [Int] = [l.users, l.of, l.min, l.median, l.p90, l.max]
        #expect(values == [952_105, 1_000_000, 1, 10, 50, 50])
        #expect(RunComparison.Lengths("0 of 5 users have a list") == nil)
        #expect(RunComparison.Lengths("952105 of 1000000 users; length min 1 median x p90 50 max 50") == nil)
    }

    @Test func changesAreWrittenWithTheirDelta() {
        #expect(RunComparison.change(3, 3) == "3")
        #expect(RunComparison.change(3, 5) == "3 → 5 (+2)")
        #expect(RunComparison.change(5, 3) == "5 → 3 (-2)")
        #expect(RunComparison.change(nil, 3) == "- → 3")
        #expect(RunComparison.counts("rows", [:], nil) == "")
    }

    @Test func comparesTheTwoNewestCompletedRunsByDefault() throws {
        let work = temporaryDirectory()
        let out = work.appendingPathComponent("out").path
        let lonely = try runTonight(["runs", "compare", "--work", work.path])
        #expect(lonely.status != 0)
        #expect(lonely.stderr.contains("needs two completed runs"), "\(lonely.stderr)")
        #expect(try runTonight(["run", "--work", work.path, "--out", out]).status == 0)
        // Run ids have a one-second resolution: the second run must sort after the first.
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try runTonight(["run", "--work", work.path, "--out", out, "--only", "tickets", "--force"]).status == 0)
        let ids = RunStore(work: work).runIDs()
        #expect(ids.count == 2)

        let text = try runTonight(["runs", "compare", "--work", work.path])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("A  \(ids[1])  completed") == true, "\(text.stdout)")
        #expect(lines.dropFirst().first?.hasPrefix("B  \(ids[0])  completed") == true)
        #expect(text.stdout.contains("forced (--force)"))
        #expect(text.stdout.contains("lengths    explore: users"), "\(text.stdout)")

        let json = try runTonight(["runs", "compare", "--work", work.path, "--json", ids[1], ids[0]])
        #expect(json.status == 0, "\(json.stderr)")
        let c = try JSONDecoder().decode(RunComparison.self, from: Data(json.stdout.utf8))
        #expect(c.a.runId == ids[1] && c.b.runId == ids[0])
        let feed = try #require(c.stages.first { $0.stage == "parse-feed" })
        #expect(feed.a?.action == "run")
        #expect(feed.b?.action == "reuse")
        #expect(feed.b?.reusedFrom == ids[1])
        #expect(feed.a?.rows == feed.b?.rows && feed.a?.rows.isEmpty == false)
        let tickets = try #require(c.stages.first { $0.stage == "tickets" })
        #expect(tickets.a?.action == "run" && tickets.b?.action == "run")
        #expect(tickets.a?.lengths["explore"] == tickets.b?.lengths["explore"] && tickets.b?.lengths["explore"] != nil)
        // Stages downstream of --only were not part of run B.
        #expect(c.stages.first { $0.stage == "publish" }?.b == nil)

        let missing = try runTonight(["runs", "compare", "--work", work.path, "nope", ids[0]])
        #expect(missing.status != 0 && missing.stderr.contains("no run nope"), "\(missing.stderr)")
    }
}
