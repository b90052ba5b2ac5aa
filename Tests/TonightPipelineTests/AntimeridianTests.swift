import Foundation
import Testing
import TonightCore
import TonightExports
import TonightGeo
@testable import TonightPipeline
@testable import TonightRanking

/// The ranker's geometry across the antimeridian, where longitudes jump from 180 to −180:
/// its latitude bands, 1° cells, bounds and place orders must still find every date in
/// reach. Generated worlds are in North America, far from it, so `PerArtistCutTests`' world
/// is turned about the poles (every longitude shifted by the same angle, which keeps every
/// distance) until its middle sits on the antimeridian; each user's lists must then equal
/// the slow reference's (plain haversine, no indexes) and the unturned world's.
@Suite struct AntimeridianTests {
    /// `lon` turned by `degrees` east, in [−180, 180).
    static func turn(_ lon: Double?, by degrees: Double) -> Double? {
        guard let lon else { return nil }
        var l = lon + degrees
        while l >= 180 { l -= 360 }
        while l < -180 { l += 360 }
        return l
    }

    struct World {
        let events: [LocatedEvent]
        let venues: [GeocodedVenue]
        let users: [TicketsUser]
    }

    /// The world with every venue, date and user turned by `degrees`.
    static func world(turnedBy degrees: Double) -> World {
        let w = PerArtistCutTests.world
        let venues = w.venues.map { v -> GeocodedVenue in
            var t = v
            t.placement.lon = turn(v.placement.lon, by: degrees)
            return t
        }
        let events = w.events.map { e -> LocatedEvent in
            var t = e
            t.lon = turn(e.lon, by: degrees)
            return t
        }
        let users = w.users.prefix(900).map { u -> TicketsUser in
            var t = u
            t.lon = turn(u.lon, by: degrees)
            return t
        }
        return World(events: events, venues: venues, users: Array(users))
    }

    static func lists(_ w: World, shared: Bool) throws -> [TicketsLists] {
        let settings = try RankingConfig.settings(TonightConfig(), asOf: asOf, runDate: Int(asOf / 86_400))
        let edges = PerArtistCutTests.world.edges.map { ($0.source, $0.target, $0.score) }
        let index = EventIndex(events: w.events, venues: w.venues, edges: edges, settings: settings)
        let places = shared ? SharedPlaces(w.users, settings: settings) : nil
        var ranker = TicketsRanker(index: index, settings: settings, places: places)
        return w.users.enumerated().map { k, u in
            ranker.rank(u, place: places?.placeOf[k] ?? -1)
            return ranker.lists
        }
    }

    /// The turn that puts the antimeridian through the half degree of longitude where most
    /// of the users live (a metro area, with venues on both sides).
    static var straddle: Double {
        var bins: [Int: Int] = [:]
        for u in PerArtistCutTests.world.users.prefix(900) { if let lon = u.lon { bins[Int((lon * 2).rounded(.down)), default: 0] += 1 } }
        let densest = bins.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
        return 180 - (Double(densest) + 0.5) / 2
    }

    @Test(arguments: [false, true])
    func listsAcrossTheAntimeridianAreTheReferences(_ shared: Bool) throws {
        let turned = Self.world(turnedBy: Self.straddle)
        // The comparison means something: many users and venues on each side.
        let east = turned.venues.filter { ($0.placement.lon ?? 0) > 0 }.count, west = turned.venues.filter { ($0.placement.lon ?? 0) < 0 }.count
        #expect(east > 20 && west > 20, "\(east) venues east of the antimeridian, \(west) west")
        let places = Dictionary(turned.venues.map { ($0.venue.id, $0.placement) }, uniquingKeysWith: { a, _ in a })
        let reference = ReferenceRanking(events: turned.events, places: places, edges: PerArtistCutTests.world.edges, asOf: asOf,
                                         runDate: Int(asOf / 86_400))
        let got = try Self.lists(turned, shared: shared), plain = try Self.lists(Self.world(turnedBy: 0), shared: shared)
        var across = 0
        let lonOf = Dictionary(turned.events.map { ($0.event.id, $0.lon) }, uniquingKeysWith: { a, _ in a })
        for (k, u) in turned.users.enumerated() {
            let want = reference.explore(u)
            #expect(got[k].explore.map { EventID.format($0.id) } == want.map(\.event), "explore of \(u.id)")
            #expect(got[k].explore.map(\.id) == plain[k].explore.map(\.id), "explore of \(u.id), turned and not")
            #expect(got[k].feed.map(\.id) == plain[k].feed.map(\.id), "feed of \(u.id), turned and not")
            let wantTonight = reference.tonight(u)
            #expect(got[k].tonight.map { EventID.format($0.id) } == wantTonight.map(\.event), "tonight of \(u.id)")
            // Users whose deck holds a date on the other side of the antimeridian.
            if let lon = u.lon, got[k].explore.contains(where: { e in
                let l = (lonOf[e.id] ?? nil) ?? lon
                return (l > 0) != (lon > 0) && abs(l - lon) > 180
            }) { across += 1 }
        }
        #expect(across > 20, "\(across) users with a date across the antimeridian")
    }
}
