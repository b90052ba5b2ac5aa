import Foundation
import Testing
import TonightCore
import TonightGenerator
@testable import TonightFeed

/// The generated `small` feed parses to exactly the generated counts; its faulty copy has
/// exactly the planted faults rejected (reason and line), and the truncated copy is refused.
@Suite struct GeneratedFeedTests {
    static let dir: URL = {
        let d = temporaryDirectory("tonight-small")
        try! DatasetGenerator(scale: .small, seed: 11, withFaults: true).generate(into: d)
        return d
    }()

    @Test func parsesToTheGeneratedCounts() throws {
        let info = try #require(GeneratedInfo.read(Self.dir))
        let r = try FeedParser.parse(Self.dir.appendingPathComponent("feed.xml"))
        #expect(r.artists.count == info.counts["artists"])
        #expect(r.venues.count == info.counts["venues"])
        #expect(r.events.count == info.counts["events"])
        #expect(r.categories.count == info.counts["categories"])
        #expect(r.rejects.isEmpty)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        // Stray spaces are trimmed everywhere; placeholders replaced.
        #expect(r.venues.allSatisfy { $0.name.first != " " && $0.name.last != " " && ($0.city?.last != " ") })
        #expect(r.artists.allSatisfy { $0.url?.contains("[=CAMEFROM=]") == false })
        #expect(r.venues.contains { $0.country == "CA" })
        #expect(r.events.contains { $0.timeTBA } || r.events.count < 100)
    }

    @Test func deterministic() throws {
        let other = temporaryDirectory("tonight-small-again")
        try DatasetGenerator(scale: .small, seed: 11, withFaults: false).generate(into: other)
        for f in ["feed.xml", "affinity.txt", "tickets/users.csv", "tickets/favorites.csv", "playmate/sessions.csv"] {
            let a = try Data(contentsOf: Self.dir.appendingPathComponent(f))
            let b = try Data(contentsOf: other.appendingPathComponent(f))
            #expect(a == b, "\(f) differs between two runs with the same seed")
        }
    }

    @Test func exactlyThePlantedFaultsAreRejected() throws {
        let planted = try JSONDecoder().decode(
            [PlantedFault].self, from: Data(contentsOf: Self.dir.appendingPathComponent("faults/faults.json")))
        let feedFaults = planted.filter { $0.file == "faults/feed.xml" }
        #expect(feedFaults.count == 4)
        let r = try FeedParser.parse(Self.dir.appendingPathComponent("faults/feed.xml"))
        let got = r.rejects.map { "\($0.reason)@\($0.line)#\($0.id ?? "")" }.sorted()
        let want = feedFaults.map { "\($0.reason)@\($0.line)#\($0.id ?? "")" }.sorted()
        #expect(got == want)
        let clean = try FeedParser.parse(Self.dir.appendingPathComponent("feed.xml"))
        #expect(r.events.count == clean.events.count && r.venues.count == clean.venues.count)
    }

    @Test func truncatedCopyIsRefusedWithItsLine() throws {
        let planted = try JSONDecoder().decode(
            [PlantedFault].self, from: Data(contentsOf: Self.dir.appendingPathComponent("faults/faults.json")))
        let t = try #require(planted.first { $0.reason == "not-well-formed" })
        #expect {
            try FeedParser.parse(Self.dir.appendingPathComponent(t.file))
        } throws: { error in
            guard let e = error as? TonightError else { return false }
            return e.exitCode == 65 && e.line.map { abs($0 - t.line) <= 1 } == true
        }
    }
}
