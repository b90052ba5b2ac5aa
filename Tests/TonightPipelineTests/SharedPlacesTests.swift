import Foundation
import Testing
import TonightCore
import TonightExports
@testable import TonightPipeline
@testable import TonightRanking

/// The places several users rank from (`SharedPlaces`): numbered once, their orders of
/// popular events computed once for every ranker, and the lists the same as the exact scan
/// gives each user alone. On `PerArtistCutTests`' world.
@Suite struct SharedPlacesTests {
    static func settings() throws -> RankingSettings {
        try RankingConfig.settings(TonightConfig(), asOf: asOf, runDate: Int(asOf / 86_400))
    }

    /// A place is numbered when two users or more rank from it (same point, same radius), and
    /// only then; users without a place have none.
    @Test func placesAreThoseOfTwoUsersOrMore() throws {
        let settings = try Self.settings()
        var users = Array(PerArtistCutTests.world.users.prefix(300))
        users[1].lat = nil  // unlocated: no place, whatever its neighbours
        users[2] = users[3]  // a second user at users[3]'s place …
        users[4] = users[5]
        users[4].radiusKm = (users[5].radiusKm ?? settings.radiusKm) + 1  // … but not with another radius
        let places = SharedPlaces(users, settings: settings)
        func key(_ u: TicketsUser) -> [UInt64]? {
            guard let la = u.lat, let lo = u.lon else { return nil }
            return [la.bitPattern, lo.bitPattern, (u.radiusKm ?? settings.radiusKm).bitPattern]
        }
        var users1: [[UInt64]: Int] = [:]
        for u in users { if let k = key(u) { users1[k, default: 0] += 1 } }
        var numbers: [[UInt64]: Int32] = [:]
        for (k, u) in users.enumerated() {
            guard let key = key(u), users1[key]! > 1 else {
                #expect(places.placeOf[k] == -1, "user \(k) alone at their place")
                continue
            }
            #expect(places.placeOf[k] >= 0 && places.placeOf[k] < places.count)
            if let n = numbers[key] { #expect(places.placeOf[k] == n, "user \(k): one number per place") } else { numbers[key] = places.placeOf[k] }
        }
        #expect(Set(numbers.values).count == numbers.count && numbers.count == places.count)
        #expect(places.placeOf[2] == places.placeOf[3] && places.placeOf[2] >= 0)
        #expect(places.placeOf[1] == -1)
    }

    /// Every user ranked by two rankers sharing the places' orders (alternately, as the
    /// stage's workers do) gets the lists a ranker without shared places gives, located or
    /// not, and each shared place's order is computed at most once.
    @Test func sharedOrdersGiveTheExactLists() throws {
        let w = PerArtistCutTests.world, settings = try Self.settings()
        let index = EventIndex(events: w.events, venues: w.venues, edges: w.edges.map { ($0.source, $0.target, $0.score) }, settings: settings)
        // The world's users at 40 homes (a city's ZIP points), every seventh one unlocated.
        let users = w.users.enumerated().map { k, u in
            var moved = u
            let home = w.users[k % 40]
            (moved.lat, moved.lon, moved.radiusKm) = k % 7 == 0 ? (nil, nil, nil) : (home.lat, home.lon, home.radiusKm)
            return moved
        }
        let places = SharedPlaces(users, settings: settings)
        var shared = [TicketsRanker(index: index, settings: settings, places: places), TicketsRanker(index: index, settings: settings, places: places)]
        var alone = TicketsRanker(index: index, settings: settings)
        var cachedBackfills = 0
        for (k, u) in users.enumerated() {
            shared[k % 2].rank(u, place: places.placeOf[k])
            alone.rank(u)
            let same = shared[k % 2].lists == alone.lists
            #expect(same, "lists of \(u.id)")
            if places.placeOf[k] >= 0 && shared[k % 2].lists.explore.contains(where: { $0.reason == .popular }) { cachedBackfills += 1 }
        }
        // The comparison means something: many backfills from shared places, and fewer
        // orders computed than users served by them.
        #expect(places.count > 20 && cachedBackfills > 100, "\(places.count) places, \(cachedBackfills) backfills")
        #expect(places.computed > 0 && places.computed <= places.count && places.computed < cachedBackfills)
    }

    /// A cached order owns a buffer sized to it, never the ranker's scratch pool: an order
    /// that shared the pool's buffer (`Array(pool.prefix(n))` of the whole pool) kept the
    /// pool's full capacity alive in the cache and made the next ranking allocate a fresh pool
    /// (3.6 GB of such buffers held at the peak, +0.5 GB resident on realistic `full`).
    @Test func placeOrdersOwnTheirMemory() throws {
        let w = PerArtistCutTests.world, settings = try Self.settings()
        let index = EventIndex(events: w.events, venues: w.venues, edges: w.edges.map { ($0.source, $0.target, $0.score) }, settings: settings)
        var ranker = TicketsRanker(index: index, settings: settings)
        var far = try #require(w.users.first { $0.lat != nil })
        far.radiusKm = 20_000  // every event in reach: the pool grows past placeDepth
        let wide = ranker.placeOrder(try #require(ranker.origin(far)))
        #expect(!wide.complete && wide.events.count == TicketsRanker.placeDepth)
        let grown = ranker.pool.capacity
        #expect(grown > 4 * TicketsRanker.placeDepth, "pool capacity \(grown)")
        var near = far
        near.radiusKm = 30  // a few events: the order is the whole pool
        let small = ranker.placeOrder(try #require(ranker.origin(near)))
        #expect(small.complete && small.events.count == ranker.pool.count && !small.events.isEmpty)
        let shared = small.events.withUnsafeBufferPointer { e in ranker.pool.withUnsafeBufferPointer { $0.baseAddress == e.baseAddress } }
        #expect(!shared, "the cached order shares the pool's buffer")
        #expect(small.events.capacity < 2 * TicketsRanker.placeDepth, "order capacity \(small.events.capacity)")
        #expect(ranker.pool.capacity == grown, "the pool keeps its capacity")
    }
}
