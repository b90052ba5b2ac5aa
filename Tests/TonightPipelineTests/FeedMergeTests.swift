import Foundation
import Testing
import TonightCore
import TonightExports
@testable import TonightPipeline
@testable import TonightRanking

/// The favourites feed's k-way merge (`TicketsRanker.feed`, `FeedMerge`) against the
/// definition: every upcoming date of every favourite, once, by startsAt then id, the first
/// `feed.size`; its favourites among the performers in feed order; the published distance.
/// On `PerArtistCutTests`' world of long tours, where feeds reach their cap.
@Suite struct FeedMergeTests {
    /// The feed of `u` as recommendations.md defines it, from the index's plain lists.
    static func expected(_ u: TicketsUser, _ index: EventIndex, size: Int) -> [(event: Int32, artists: [Int64], following: Bool)] {
        let favorites = Set(u.favorites)
        var events = Set<Int32>()
        for f in u.favorites {
            guard let d = index.dense(of: f) else { continue }
            events.formUnion(index.eventsOfArtist[Int(d)])
        }
        return events.sorted().prefix(size).map { i in
            var artists: [Int64] = []
            for a in index.performers[Int(i)] where favorites.contains(a) && !artists.contains(a) { artists.append(a) }
            return (i, artists, u.follows.contains(index.events[Int(i)].id))
        }
    }

    static func check(_ ranker: inout TicketsRanker, _ u: TicketsUser, size: Int) -> (items: Int, shared: Int) {
        ranker.rank(u)
        let want = expected(u, ranker.index, size: size), got = ranker.lists.feed
        #expect(got.map(\.event) == want.map(\.event), "feed events of \(u.id)")
        #expect(got.map { Array(ranker.lists.feedArtists[$0.artists]) } == want.map(\.artists), "feed artists of \(u.id)")
        #expect(got.map(\.following) == want.map(\.following), "following of \(u.id)")
        #expect(got.map(\.id) == want.map { ranker.index.events[Int($0.event)].id }, "ids of \(u.id)")
        let o = ranker.origin(u)
        for x in got {
            let exact = ranker.distance(o, ranker.index.events[Int(x.event)])
            #expect((exact == nil) == (x.distanceKm == nil) && abs((exact ?? 0) - (x.distanceKm ?? 0)) <= 0.005 + 1e-9, "distance in \(u.id)")
        }
        return (got.count, want.filter { $0.artists.count > 1 }.count)
    }

    /// Every user of the world, located and not, for caps of 1, 7 and 100 dates.
    @Test(arguments: [1, 7, 100])
    func mergeGivesTheDefinedFeed(_ size: Int) throws {
        let w = PerArtistCutTests.world
        var settings = try RankingConfig.settings(TonightConfig(), asOf: asOf, runDate: Int(asOf / 86_400))
        settings.feedSize = size
        let index = EventIndex(events: w.events, venues: w.venues, edges: w.edges.map { ($0.source, $0.target, $0.score) }, settings: settings)
        var ranker = TicketsRanker(index: index, settings: settings)
        var capped = 0, shared = 0
        for (n, located) in w.users.enumerated() {
            var u = located
            if n % 3 == 0 { (u.lat, u.lon) = (nil, nil) }
            // Some follows of dates the feed lists (the generator's are mostly elsewhere).
            if n % 5 == 0, let f = u.favorites.first, let d = index.dense(of: f), let i = index.eventsOfArtist[Int(d)].first {
                u.follows.append(index.events[Int(i)].id)
            }
            let r = Self.check(&ranker, u, size: size)
            if r.items == size { capped += 1 }
            shared += r.shared
        }
        // The comparison means something: many feeds cut at the cap, and dates that two
        // favourites perform at (one merge entry per list) among the items.
        #expect(capped > 100)
        if size == 100 { #expect(shared > 0) }
    }

    /// A user favouring every artist (hundreds of lists merged) and one whose favourites
    /// have no upcoming dates.
    @Test func manyListsAndEmptyLists() throws {
        let w = PerArtistCutTests.world
        let settings = try RankingConfig.settings(TonightConfig(), asOf: asOf, runDate: Int(asOf / 86_400))
        let index = EventIndex(events: w.events, venues: w.venues, edges: w.edges.map { ($0.source, $0.target, $0.score) }, settings: settings)
        var ranker = TicketsRanker(index: index, settings: settings)
        var everyone = w.users[0]
        everyone.favorites = index.artistIDs.reversed()
        #expect(Self.check(&ranker, everyone, size: settings.feedSize).items == settings.feedSize)
        everyone.favorites = index.artistIDs.filter { index.eventsOfArtist[Int(index.dense(of: $0)!)].isEmpty } + [-7]
        #expect(Self.check(&ranker, everyone, size: settings.feedSize).items == 0)
    }
}
