import Foundation
import Testing
import TonightCore
import TonightExports
import TonightGeo
@testable import TonightPipeline
@testable import TonightRanking

/// The popular backfill's cap per headliner (recommendations.md: at most `perArtist` items
/// of one artist in a deck; a popular item counts for its headliner, beside the ranked items
/// of that artist) in each of the ranker's three ways to backfill: the global popularity
/// order (users without a place), a place's order shared by its users (`SharedPlaces`), and
/// the exact scan of a place of one user. Generated worlds never make the cap bind (no
/// headliner holds three of a user's best popular dates in reach), so this world is made to:
/// `PerArtistCutTests`' world with its busiest headliner's dates all moved to one venue and
/// made the best rated of the feed, and users around that venue.
@Suite struct BackfillCapTests {
    struct World {
        let events: [LocatedEvent]
        let venues: [GeocodedVenue]
        let edges: [(Int64, Int64, Double)]
        /// The headliner whose dates top every popular order.
        let star: Int64
        let reference: ReferenceRanking
    }

    static let world: World = {
        let w = PerArtistCutTests.world
        let horizon = asOf + 60 * 86_400
        var dates: [Int64: Int] = [:]
        for e in w.events where e.event.startsAt >= asOf && e.event.startsAt < horizon {
            if let h = e.event.headliner { dates[h, default: 0] += 1 }
        }
        let star = dates.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
        let venue = w.venues.first { $0.placement.lat != nil }!
        let events = w.events.map { located -> LocatedEvent in
            guard located.event.headliner == star else { return located }
            var e = located
            e.event.venue = venue.venue.id
            (e.lat, e.lon) = (venue.placement.lat, venue.placement.lon)
            (e.event.stars, e.event.starReviews, e.event.priceMinCents) = (5, 1_000_000, nil)
            return e
        }
        let places = Dictionary(w.venues.map { ($0.venue.id, $0.placement) }, uniquingKeysWith: { a, _ in a })
        return World(
            events: events, venues: w.venues, edges: w.edges.map { ($0.source, $0.target, $0.score) }, star: star,
            reference: ReferenceRanking(events: events, places: places, edges: w.edges, asOf: asOf, runDate: Int(asOf / 86_400)))
    }()

    enum Way: String, CaseIterable, Sendable {
        /// Users without a place: the global popularity order.
        case unplaced
        /// Users at one point with one radius: the place's order, computed once for all.
        case sharedPlace
        /// Each user at a point of their own: the exact scan of the cells around it.
        case lonePlace
    }

    /// The world's users moved for `way`: all at the star's venue, or each at a point of
    /// their own within a few kilometres of it, or without a place.
    static func users(_ way: Way) -> [TicketsUser] {
        let venue = world.venues.first { $0.venue.id == world.events.first { $0.event.headliner == world.star }!.event.venue }!
        let (lat, lon) = (venue.placement.lat!, venue.placement.lon!)
        return PerArtistCutTests.world.users.prefix(600).enumerated().map { k, u in
            var moved = u
            moved.maxPrice = nil
            switch way {
            case .unplaced: (moved.lat, moved.lon, moved.radiusKm) = (nil, nil, nil)
            case .sharedPlace: (moved.lat, moved.lon, moved.radiusKm) = (lat, lon, 60)
            case .lonePlace: (moved.lat, moved.lon, moved.radiusKm) = (lat + Double(k) * 1e-4, lon - Double(k) * 1e-4, 60)
            }
            return moved
        }
    }

    /// Every user's deck equals the reference's, which takes the popular items greedily
    /// under the cap; the cap binds for many of them (their deck would differ without it),
    /// and no deck holds more than `perArtist` items of the star.
    @Test(arguments: Way.allCases)
    func backfillKeepsTheCapPerHeadliner(_ way: Way) throws {
        let w = Self.world, users = Self.users(way)
        let settings = try RankingConfig.settings(TonightConfig(), asOf: asOf, runDate: Int(asOf / 86_400))
        let index = EventIndex(events: w.events, venues: w.venues, edges: w.edges, settings: settings)
        let places = SharedPlaces(users, settings: settings)
        if way == .sharedPlace { #expect(places.count == 1) } else { #expect(places.count == 0) }
        var ranker = TicketsRanker(index: index, settings: settings, places: places)
        var bound = 0, backfilled = 0
        for (k, u) in users.enumerated() {
            ranker.rank(u, place: places.placeOf[k])
            let got = ranker.lists.explore, want = w.reference.explore(u)
            #expect(got.map { EventID.format($0.id) } == want.map(\.event), "explore of \(u.id)")
            let gotReasons: [String] = got.map(\.reason.name), wantReasons: [String] = want.map(\.reason.rawValue)
            let gotArtists: [Int64?] = got.map(\.artist), wantArtists: [Int64?] = want.map(\.artist)
            #expect(gotArtists == wantArtists && gotReasons == wantReasons, "explore of \(u.id)")
            #expect(got.filter { $0.artist == w.star }.count <= settings.perArtist, "explore of \(u.id)")
            if got.contains(where: { $0.reason == .popular }) { backfilled += 1 }
            if want.map(\.event) != w.reference.explore(u, backfillCap: .max).map(\.event) { bound += 1 }
        }
        // The comparison means something: many decks are filled up from the popular dates,
        // and the cap changes many of them (located: nearly all 600; without a place, where
        // every tour date of a liked artist is a candidate, 126 decks are filled up and the
        // cap changes 95).
        #expect(backfilled > 100 && bound > 80, "\(way): \(backfilled) backfilled, the cap bound for \(bound)")
        if way == .sharedPlace { #expect(places.computed == 1) }
    }
}
