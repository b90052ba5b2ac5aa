import Foundation
import Testing
import TonightAffinity
import TonightCore
import TonightExports
import TonightGenerator
import TonightGeo
@testable import TonightPipeline
@testable import TonightRanking

/// The explore deck's per-artist cut (`TicketsRanker.keep`: an a*'s candidates beyond its
/// best `perArtist` are dropped as they come) on a generated world of long tours, where
/// popular artists have dozens of dates in reach of a user: `small`'s tours are too short
/// in any one radius for the cut to bite.
@Suite struct PerArtistCutTests {
    struct World {
        let users: [TicketsUser]
        let events: [LocatedEvent]
        let venues: [GeocodedVenue]
        let edges: [AffinityEdge]
    }

    /// 1,500 users, 200 artists and 4,000 events: 20 dates per artist on average, most of
    /// them for the few popular ones (the realistic shape).
    static let world: World = {
        var tours = GeneratorScale.small
        (tours.name, tours.artists, tours.venues, tours.events, tours.users) = ("tours", 200, 300, 4_000, 1_500)
        (tours.affinityBlocks, tours.affinityPerBlock, tours.players, tours.sessions) = (40, 10, 20, 20)
        let inputs = temporaryDirectory("tonight-tours")
        _ = try! DatasetGenerator(scale: tours, seed: 5).generate(into: inputs)
        let work = temporaryDirectory()
        let record = try! runner(inputs: inputs, work: work).run()
        let dir = RunStore(work: work).runDirectory(record.runId)
        func table<R: BinaryRecord>(_ t: R.Type, _ stage: String, _ name: String) -> [R] {
            try! BinaryTable.read(t, table: name, from: dir.appendingPathComponent(stage).appendingPathComponent("\(name).bin"))
        }
        return World(
            users: table(TicketsUser.self, "load-tickets", "users"), events: table(LocatedEvent.self, "geocode", "events"),
            venues: table(GeocodedVenue.self, "geocode", "venues"), edges: table(AffinityEdge.self, "parse-affinity", "edges"))
    }()

    /// Every user ranked with and without the cut has the same lists and candidate count,
    /// for caps of 1 to 4 (the cut's range) and 5 (no cut), decks sorted and from the heap,
    /// located or not.
    @Test(arguments: [1, 2, 3, 4, 5])
    func cutKeepsEveryList(_ perArtist: Int) throws {
        let w = Self.world
        var settings = try RankingConfig.settings(TonightConfig(), asOf: asOf, runDate: Int(asOf / 86_400))
        settings.perArtist = perArtist
        let index = EventIndex(events: w.events, venues: w.venues, edges: w.edges.map { ($0.source, $0.target, $0.score) },
                               settings: settings)
        var cut = TicketsRanker(index: index, settings: settings), all = cut
        all.cutsPerArtist = false
        var dropped = 0, decks = 0
        for (n, located) in w.users.enumerated() {
            // Every third user without a location: every tour date of the artists they like
            // is then a candidate.
            var u = located
            if n % 3 == 0 { (u.lat, u.lon) = (nil, nil) }
            // Half the users through the heap, half through the full sort.
            cut.fullSortLimit = n % 2 == 0 ? 0 : .max
            all.fullSortLimit = cut.fullSortLimit
            cut.rank(u)
            all.rank(u)
            let same = cut.lists == all.lists  // (a Bool: the lists are long to print)
            #expect(same, "lists of \(u.id)")
            #expect(cut.candidateCount == all.candidateCount, "candidates of \(u.id)")
            if cut.candidates.count < all.candidates.count { dropped += 1 }
            if all.lists.explore.count >= 5 { decks += 1 }
        }
        #expect(decks > 100)
        // Enough users whose candidates were cut for the comparison to mean something (none
        // past the cut's range).
        if perArtist <= TicketsRanker.maxKept { #expect(dropped > 100) } else { #expect(dropped == 0) }
    }

    /// The latitude span beside each artist's score is rounded outward, so that the skip of an
    /// artist with every date out of the band never drops a date in it.
    @Test func latitudeSpanIsRoundedOutward() {
        var rng = SystemRandomNumberGenerator()
        let edges: [Double] = [-90, 90, 0, -0.0, 1e-300, 45.1, Double(Float(45.1)), 89.99999999999999]
        for x in edges + (0..<100_000).map({ _ in Double.random(in: -90...90, using: &rng) }) {
            let below = TicketsRanker.floatBelow(x), above = TicketsRanker.floatAbove(x)
            #expect(Double(below) <= x && x <= Double(above), "\(x)")
            #expect(Double(below) == x || Double(below.nextUp) > x, "\(x): \(below) is not the largest float below")
            #expect(Double(above) == x || Double(above.nextDown) < x, "\(x): \(above) is not the smallest float above")
        }
    }
}
