import Foundation
import TonightCore
import TonightFeed
import TonightGeo

/// What ranking needs of every event, computed once per run, and the indexes users are
/// ranked against: upcoming events per artist, a grid of venues for "in reach", and the
/// global popularity order.
package struct EventIndex: Sendable {
    /// Plain values only (no references), so reading one costs no retain.
    package struct Event: Sendable {
        package var id: UInt64
        package var startsAt: Int64
        package var venueID: Int64
        package var lat: Double?
        package var lon: Double?
        package var priceMin: Double?
        package var headliner: Int64?
        /// exp(−days/τt), days from asOf to the start.
        package var timeFactor: Double
        /// pop(e): the Bayesian star rating on [0, 1].
        package var pop: Double
        /// Qualifies for tonight's picks (window, time known, zone known, still on sale).
        package var tonight: Bool
    }

    package let events: [Event]
    /// Per event: its id as text, its performers, and the performers as dense indexes.
    package let idStrings: [String]
    package let performers: [[Int64]]
    package let dense: [[Int32]]
    /// Upcoming events (indexes into `events`) per performing artist.
    package let byArtist: [Int64: [Int32]]
    /// Dense artist indexes: every performer of an upcoming event and every artist of an
    /// affinity edge, so that per-user scores live in flat arrays.
    package let artistIDs: [Int64]
    package let denseIndex: [Int64: Int32]
    /// Upcoming events per dense artist.
    package let eventsOfArtist: [[Int32]]
    /// Affinity edges per dense source: (dense target, weight).
    package let edges: [[(Int32, Double)]]
    /// Per 1°×1° cell: upcoming events by pop·timeFactor desc (then startsAt, id).
    let cellsByPopularity: [Int64: [Int32]]
    /// Upcoming events by pop·timeFactor desc, startsAt, id (users without location).
    package let popularOrder: [Int32]
    /// Upcoming events per 1°×1° cell of their venue.
    let grid: [Int64: [Int32]]

    package init(events located: [LocatedEvent], venues: [GeocodedVenue], edges affinity: [(Int64, Int64, Double)] = [],
                 settings s: RankingSettings) {
        let places = Dictionary(venues.map { ($0.venue.id, $0.placement) }, uniquingKeysWith: { a, _ in a })
        let rated = located.compactMap(\.event.stars)
        let m = rated.isEmpty ? 0 : rated.reduce(0, +) / Double(rated.count)
        let c = s.popularityPrior
        let dayFrom = Int64(s.runDate) * 86_400 + Int64(s.tonightFrom)
        let dayUntil = Int64(s.runDate + 1) * 86_400 + Int64(s.tonightUntil)
        var events: [Event] = []
        var idStrings: [String] = []
        var performers: [[Int64]] = []
        for l in located {
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
                priceMin: e.priceMin, headliner: e.headliner,
                timeFactor: exp(-days / s.timeDecayDays), pop: pop, tonight: tonight))
            idStrings.append(e.idString)
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
        var edgeLists: [[(Int32, Double)]] = []
        for (source, target, w) in affinity {
            let a = dense(source), b = dense(target)
            if edgeLists.count < artistIDs.count { edgeLists += Array(repeating: [], count: artistIDs.count - edgeLists.count) }
            edgeLists[Int(a)].append((b, w))
        }
        edgeLists += Array(repeating: [], count: artistIDs.count - edgeLists.count)
        var eventsOfArtist = [[Int32]](repeating: [], count: artistIDs.count)
        for (i, list) in denseLists.enumerated() {
            for a in Set(list) { eventsOfArtist[Int(a)].append(Int32(i)) }
        }
        self.idStrings = idStrings
        self.performers = performers
        self.dense = denseLists
        self.artistIDs = artistIDs
        self.denseIndex = denseIndex
        self.eventsOfArtist = eventsOfArtist
        self.edges = edgeLists
        self.events = events
        var byArtist: [Int64: [Int32]] = [:]
        var grid: [Int64: [Int32]] = [:]
        for (i, e) in events.enumerated() {
            for a in Set(performers[i]) { byArtist[a, default: []].append(Int32(i)) }
            if let lat = e.lat, let lon = e.lon { grid[Self.cell(lat, lon), default: []].append(Int32(i)) }
        }
        self.byArtist = byArtist
        self.grid = grid
        let popular = { (a: Int32, b: Int32) -> Bool in
            let x = events[Int(a)], y = events[Int(b)]
            switch ScoreOrder.compare(x.pop * x.timeFactor, y.pop * y.timeFactor) {
            case -1: return true
            case 1: return false
            default: return Self.before(x, y)
            }
        }
        popularOrder = (0..<events.count).map(Int32.init).sorted(by: popular)
        cellsByPopularity = grid.mapValues { $0.sorted(by: popular) }
    }

    /// The cells that may hold venues within `radiusKm` of the point, each with its upcoming
    /// events by pop·timeFactor (for the popular backfill's early stop).
    func popularCells(lat: Double, lon: Double, radiusKm: Double) -> [[Int32]] {
        var out: [[Int32]] = []
        var seen = Set<Int64>()
        forEachCell(lat: lat, lon: lon, radiusKm: radiusKm) { c in
            if seen.insert(c).inserted, let list = cellsByPopularity[c] { out.append(list) }
        }
        return out
    }

    func forEachCell(lat: Double, lon: Double, radiusKm: Double, _ body: (Int64) -> Void) {
        let dLat = radiusKm / 110.5
        let widest = min(89.0, abs(lat) + dLat)
        let dLon = min(180, radiusKm / (111.32 * max(0.01, cos(widest * .pi / 180))))
        var y = floor(lat - dLat)
        while y <= floor(lat + dLat) {
            var x = floor(lon - dLon)
            while x <= floor(lon + dLon) {
                body(Self.cell(y, x < -180 ? x + 360 : (x >= 180 ? x - 360 : x)))
                x += 1
            }
            y += 1
        }
    }

    /// The tie-break after the score: startsAt, then event id (16 upper-case hex digits, so
    /// text order is numeric order).
    @inline(__always)
    package static func before(_ x: Event, _ y: Event) -> Bool {
        if x.startsAt != y.startsAt { return x.startsAt < y.startsAt }
        return x.id < y.id
    }

    static func cell(_ lat: Double, _ lon: Double) -> Int64 {
        Int64(floor(lat) + 90) * 1000 + Int64(floor(lon) + 180)
    }
}
