import Foundation
import TonightBase
import TonightCore
import TonightFeed
import TonightGeo

/// What ranking needs of every upcoming event, computed once per run, and the indexes users
/// are ranked against: upcoming events per artist, affinity edges, 1°×1° cells of venues by
/// popularity, and the global popularity order. Lists are flat (`FlatLists`), events plain
/// values, so the ranking loops do no reference counting.
package struct EventIndex: Sendable {
    /// Plain values only (no references), so reading one costs no retain.
    package struct Event: Sendable {
        package var id: UInt64
        package var startsAt: Int64
        package var venueID: Int64
        package var lat: Double?
        package var lon: Double?
        /// cos(lat) in radians, computed as `GeoDistance.km` does (0 without a place).
        package var cosLat: Double
        package var priceMin: Double?
        package var headliner: Int64?
        /// exp(−days/τt), days from asOf to the start.
        package var timeFactor: Double
        /// pop(e): the Bayesian star rating on [0, 1].
        package var pop: Double
        /// Qualifies for tonight's picks (window, time known, zone known, still on sale).
        package var tonight: Bool
    }

    /// An event and its place, side by side for the band search and the reach test (so that
    /// the event's own record is read only for the dates in reach).
    package struct PlacedEvent: Sendable {
        package var lat: Double
        package var lon: Double
        /// `GeoDistance.cosLatitude(lat)`, as in the event's record.
        package var cosLat: Double
        package var event: Int32
        /// How many artists perform (1: the artist whose list this is, which is then a*(e)).
        package var performers: Int32
    }

    /// An upcoming event with what makes it a candidate for a user without a place (price,
    /// time factor, id for the dismissed and followed tests), so that the scan of every date
    /// of a touched artist reads one sequential list instead of each event's 120-byte record.
    package struct ListedEvent: Sendable {
        package var id: UInt64
        /// The event's `priceMin`; NaN when it has none (no comparison with a NaN holds).
        package var priceMin: Double
        package var timeFactor: Double
        package var event: Int32
        /// How many artists perform (1: the artist whose list this is, which is then a*(e)).
        package var performers: Int32
    }

    /// What the favourites feed reads of an event, side by side, in each performer's list
    /// (`feedOfArtist`): the feed merges its favourites' lists in date order and reads each
    /// list from its start, so an item is the next 64 bytes of a list it is walking, where
    /// a table by event cost a cache miss per item (perf: a third of the feed's samples).
    package struct FeedEvent: Sendable {
        /// `GeoDistance.halfAngles` of the place (zero without one).
        package var half: SIMD4<Double>
        package var id: UInt64
        /// `cosLat` of the event's record; NaN without a place.
        package var cosLat: Double
        /// The event's index (`before` order).
        package var event: Int32
        /// The event's range in `performers` and `dense` (one performer: the artist whose
        /// list this is).
        package var performersStart: Int32
        package var performersCount: Int32

        package var isPlaced: Bool { !cosLat.isNaN }
        package var performers: Range<Int> { Int(performersStart)..<Int(performersStart + performersCount) }
    }

    /// An event of a cell's popularity list with its place, pop·timeFactor (which bounds its
    /// popular score: no distance factor exceeds 1), id and price, so that the backfill's
    /// merge and its tests read the cell's list in order and no event record (a 1° cell is
    /// much larger than most users' circles; 64 bytes a value).
    package struct PopularEvent: Sendable {
        package var lat: Double
        package var lon: Double
        /// `GeoDistance.cosLatitude(lat)`, as in the event's record.
        package var cosLat: Double
        /// pop·timeFactor.
        package var bound: Double
        package var id: UInt64
        /// The event's `priceMin`; NaN when it has none (no comparison with a NaN holds).
        package var priceMin: Double
        package var event: Int32
    }

    /// An affinity edge from a dense source: the dense target and its weight.
    package struct Edge: Sendable {
        package var target: Int32
        package var weight: Double
    }

    /// Upcoming events in `before` order (startsAt, then id): `i < j` iff event i is before j.
    package let events: [Event]
    /// Per event: its performers (artist ids, feed order) and the same as dense indexes.
    package let performers: FlatLists<Int64>
    package let dense: FlatLists<Int32>
    /// Dense artist indexes: every performer of an upcoming event and every artist of an
    /// affinity edge, so that per-user scores live in flat arrays.
    package let artistIDs: [Int64]
    /// Artist id → dense index (a table by id for Ticketmaster's ids: one load, no hash).
    let denseIndex: IDPositions
    /// Upcoming events per dense artist.
    package let eventsOfArtist: FlatLists<Int32>
    /// `eventsOfArtist` as `FeedEvent`s, in the same order (the favourites feed).
    package let feedOfArtist: FlatLists<FeedEvent>
    /// `eventsOfArtist` as `ListedEvent`s, in the same order (users without a place).
    package let listedEventsOfArtist: FlatLists<ListedEvent>
    /// Placed upcoming events per dense artist by latitude: a located user reads only the
    /// band of latitude in reach (a binary search) instead of every tour date.
    package let placedEventsOfArtist: FlatLists<PlacedEvent>
    /// Affinity edges per dense source, in file order, to artists with upcoming events.
    package let edges: FlatLists<Edge>
    /// Per 1°×1° cell with venues (`GeoGrid`), in key order: its upcoming events by
    /// pop·timeFactor desc (then startsAt, id), with their places and that bound;
    /// `cellKeys[i]` is the key of list i.
    let cellsByPopularity: FlatLists<PopularEvent>
    let cellKeys: [Int64]
    /// Upcoming events by pop·timeFactor desc, startsAt, id (users without location).
    package let popularOrder: [Int32]

    package init(events located: [LocatedEvent], venues: [GeocodedVenue], edges affinity: [(Int64, Int64, Double)] = [],
                 settings s: RankingSettings) {
        let places = Dictionary(venues.map { ($0.venue.id, $0.placement) }, uniquingKeysWith: { a, _ in a })
        let rated = located.compactMap(\.event.stars)
        let m = rated.isEmpty ? 0 : rated.reduce(0, +) / Double(rated.count)
        let c = s.popularityPrior
        let dayFrom = Int64(s.runDate) * 86_400 + Int64(s.tonightFrom)
        let dayUntil = Int64(s.runDate + 1) * 86_400 + Int64(s.tonightUntil)
        var events: [Event] = []
        var performers: [[Int64]] = []
        // Events in (startsAt, id) order, so that an event's index is its feed position:
        // the ranker orders feeds and breaks score ties by comparing indexes.
        for l in located.sorted(by: { ($0.event.startsAt, $0.event.id) < ($1.event.startsAt, $1.event.id) }) {
            let e = l.event
            guard e.startsAt >= s.asOf, Double(e.startsAt - s.asOf) < s.horizonDays * 86_400,
                  !(e.status.map(s.excludedStatuses.contains) ?? false) else { continue }
            let p = places[e.venue]
            let n = Double(e.starReviews ?? 0)
            let pop = (c * m + n * (e.stars ?? m)) / (c + n) / 5
            let days = Double(e.startsAt - s.asOf) / 86_400
            let onSale = e.onsale.kind == .now || e.onsale.kind == .unknown || (e.onsale.at.map { $0 <= s.asOf } ?? false)
            let tonight = !e.timeTBA && l.timeZone != nil && onSale
                && (l.localStart.map { $0 >= dayFrom && $0 < dayUntil } ?? false)
            events.append(Event(
                id: e.id, startsAt: e.startsAt, venueID: e.venue, lat: p?.lat, lon: p?.lon,
                cosLat: p?.lat.map(GeoDistance.cosLatitude) ?? 0,
                priceMin: e.priceMin, headliner: e.headliner,
                timeFactor: exp(-days / s.timeDecayDays), pop: pop, tonight: tonight))
            performers.append(e.artists)
        }
        var artistIDs: [Int64] = []
        var denseIndex: [Int64: Int32] = [:]
        func dense(_ a: Int64) -> Int32 {
            if let d = denseIndex[a] { return d }
            let d = Int32(artistIDs.count)
            artistIDs.append(a)
            denseIndex[a] = d
            return d
        }
        let denseLists = performers.map { $0.map(dense) }
        var edgeLists: [[Edge]] = []
        for (source, target, w) in affinity {
            let a = dense(source), b = dense(target)
            if edgeLists.count < artistIDs.count { edgeLists += Array(repeating: [], count: artistIDs.count - edgeLists.count) }
            edgeLists[Int(a)].append(Edge(target: b, weight: w))
        }
        edgeLists += Array(repeating: [], count: artistIDs.count - edgeLists.count)
        var eventsOfArtist = [[Int32]](repeating: [], count: artistIDs.count)
        for (i, list) in denseLists.enumerated() {
            var once: [Int32] = []
            for a in list where !once.contains(a) {
                once.append(a)
                eventsOfArtist[Int(a)].append(Int32(i))
            }
        }
        self.performers = FlatLists(performers)
        self.dense = FlatLists(denseLists)
        self.artistIDs = artistIDs
        self.denseIndex = IDPositions(artistIDs)
        self.eventsOfArtist = FlatLists(eventsOfArtist)
        // An edge whose target performs in no upcoming event can never matter: s(a) is read
        // only for performers of upcoming events (a*(e)), and `because` only for them. Most
        // of the affinity file points at such artists, so dropping those edges here removes
        // most of the per-user scoring work; the kept edges stay in file order, so every
        // score is summed in the same order, to the same bits.
        self.edges = FlatLists(edgeLists.map { $0.filter { !eventsOfArtist[Int($0.target)].isEmpty } })
        self.events = events
        let performerLists = self.performers
        let feedEvents = events.indices.map { i in
            let e = events[i], r = performerLists.range(i)
            let placed = e.lat != nil && e.lon != nil
            return FeedEvent(
                half: placed ? GeoDistance.halfAngles(e.lat!, e.lon!) : .zero, id: e.id, cosLat: placed ? e.cosLat : .nan,
                event: Int32(i), performersStart: Int32(r.lowerBound), performersCount: Int32(r.count))
        }
        feedOfArtist = FlatLists(eventsOfArtist.map { list in list.map { feedEvents[Int($0)] } })
        listedEventsOfArtist = FlatLists(eventsOfArtist.map { list in
            list.map { i in
                let e = events[Int(i)]
                return ListedEvent(id: e.id, priceMin: e.priceMin ?? .nan, timeFactor: e.timeFactor, event: i,
                                   performers: Int32(denseLists[Int(i)].count))
            }
        })
        placedEventsOfArtist = FlatLists(eventsOfArtist.map { list in
            list.compactMap { i in
                let e = events[Int(i)]
                guard let lat = e.lat, let lon = e.lon else { return nil }
                return PlacedEvent(lat: lat, lon: lon, cosLat: e.cosLat, event: i, performers: Int32(denseLists[Int(i)].count))
            }
                .sorted { ($0.lat, $0.event) < ($1.lat, $1.event) }
        })
        var grid: [Int64: [Int32]] = [:]
        for (i, e) in events.enumerated() {
            if let lat = e.lat, let lon = e.lon { grid[GeoGrid.cell(lat, lon), default: []].append(Int32(i)) }
        }
        let popular = { (a: Int32, b: Int32) -> Bool in
            let x = events[Int(a)], y = events[Int(b)]
            switch ScoreOrder.compare(x.pop * x.timeFactor, y.pop * y.timeFactor) {
            case -1: return true
            case 1: return false
            default: return Self.before(x, y)
            }
        }
        popularOrder = (0..<events.count).map(Int32.init).sorted(by: popular)
        var cells = FlatLists<PopularEvent>()
        let keys = grid.keys.sorted()
        for key in keys {
            cells.append(grid[key]!.sorted(by: popular).map { i in
                let e = events[Int(i)]
                return PopularEvent(lat: e.lat!, lon: e.lon!, cosLat: e.cosLat, bound: e.pop * e.timeFactor, id: e.id,
                                    priceMin: e.priceMin ?? .nan, event: i)
            })
        }
        cellsByPopularity = cells
        cellKeys = keys
    }

    /// The dense index of an artist id, if the artist performs or has affinity edges.
    @inline(__always)
    package func dense(of artist: Int64) -> Int32? {
        denseIndex[artist]
    }

    /// The cells that may hold venues within `radiusKm` of the point (each once, in key
    /// order), as indexes into `cellsByPopularity`, into `out` (emptied first). Bounded for
    /// any radius: at most the cells that hold venues.
    func popularCells(lat: Double, lon: Double, radiusKm: Double, into out: inout [Int32]) {
        out.removeAll(keepingCapacity: true)
        GeoGrid.span(lat: lat, lon: lon, radiusKm: radiusKm)?.forEachIndex(in: cellKeys) { out.append(Int32($0)) }
    }

    /// The tie-break after the score: startsAt, then event id (16 upper-case hex digits, so
    /// text order is numeric order).
    @inline(__always)
    package static func before(_ x: Event, _ y: Event) -> Bool {
        if x.startsAt != y.startsAt { return x.startsAt < y.startsAt }
        return x.id < y.id
    }
}
