import TonightRanking
import Foundation
import Testing
import TonightAffinity
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo
@testable import TonightPipeline
import TonightGenerator
import TonightSnapshot

/// Users whose radius reaches across the continent or the globe (a plausible "anywhere"
/// setting): lists agree with the slow reference, and absurd radii are rejected rows, never a
/// crash or a hang.
@Suite(.serialized) struct RadiusTests {
    /// The generated `small` set with every user's radius replaced by one of `radii`.
    static func run(radii: [String]) throws -> (Snapshot, [TicketsUser], ReferenceRanking) {
        let inputs = temporaryDirectory("tonight-radius")
        _ = try DatasetGenerator(scale: .small, seed: 11).generate(into: inputs)
        let url = inputs.appendingPathComponent("tickets/users.csv")
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "user_id,home_zip,lat,lon,radius_km,max_price")
        for i in 1..<lines.count where !lines[i].isEmpty {
            var f = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[4] = radii[i % radii.count]
            lines[i] = f.joined(separator: ",")
        }
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        let work = temporaryDirectory()
        let record = try runner(inputs: inputs, work: work).run()
        let dir = RunStore(work: work).runDirectory(record.runId)
        func table<R: BinaryRecord>(_ t: R.Type, _ stage: String, _ name: String) throws -> [R] {
            try BinaryTable.read(t, table: name, from: dir.appendingPathComponent(stage).appendingPathComponent("\(name).bin"))
        }
        let venues = try table(GeocodedVenue.self, "geocode", "venues")
        let ref = ReferenceRanking(
            events: try table(LocatedEvent.self, "geocode", "events"),
            places: Dictionary(venues.map { ($0.venue.id, $0.placement) }, uniquingKeysWith: { a, _ in a }),
            edges: try table(AffinityEdge.self, "parse-affinity", "edges"), asOf: asOf, runDate: Int(asOf / 86_400))
        return (try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots")),
                try table(TicketsUser.self, "load-tickets", "users"), ref)
    }

    @Test func continentAndGlobeRadiiAgreeWithTheReference() throws {
        let (snapshot, users, ref) = try Self.run(radii: ["20000", "40075", "5000", "20015.087", "1500", ""])
        #expect(users.contains { $0.radiusKm == 40075 } && users.contains { $0.radiusKm == 5000 })
        var compared = 0
        for u in stride(from: 0, to: users.count, by: 5).map({ users[$0] }) {
            let (want, got) = (ref.explore(u), try snapshot.explore(user: u.id))
            #expect(want.map(\.event) == got.map(\.event), "explore of \(u.id) (radius \(u.radiusKm ?? -1))")
            #expect(want.count == got.count && zip(want, got).allSatisfy {
                RankingTests.scoreMatches($0.score, $1.score) && $0.artist == $1.artist && $0.reason == $1.reason
            }, "explore of \(u.id)")
            let (wt, gt) = (ref.tonight(u), try snapshot.tonight(user: u.id))
            #expect(wt.map(\.event) == gt.map(\.event), "tonight of \(u.id)")
            compared += 1
        }
        #expect(compared == (users.count + 4) / 5)
    }
}
