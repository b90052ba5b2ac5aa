import Foundation
import TonightCore
import TonightFeed
import TonightGeo

/// What ranking needs of every event, computed once per run, and the indexes users are
/// ranked against: upcoming events per artist, a grid of venues for "in reach", and the
/// global popularity order.
package struct EventIndex: Sendable {
    package struct Event: Sendable {
        package var id: UInt64
        package var idString: String
        package var startsAt: Int64
        package var venueID: Int64
        package var lat: Double?
        package var lon: Double?
        package var priceMin: Double?
        package var performers: [Int64]
        package var headliner: Int64?
        /// exp(−days/τt), days from asOf to the start.
        package var timeFactor: Double
        /// pop(e): the Bayesian star rating on [0, 1].
        package var pop: Double
        /// Qualifies for tonight's picks (window, time known, zone known, still on sale).
        package var tonight: Bool
    }

    package let events: [Event]
    /// Upcoming events (indexes into `events`) per performing artist.
    package let byArtist: [Int64: [Int32]]
    /// Upcoming events by pop·timeFactor desc, startsAt, id (users without location).
    package let popularOrder: [Int32]
    /// Upcoming events per 1°×1° cell of their venue.
    let grid: [Int64: [Int32]]

    package init(events located: [LocatedEvent], venues: [GeocodedVenue], settings s: RankingSettings) {
        let places = Dictionary(venues.map { ($0.venue.id, $0.placement) }, uniquingKeysWith: { a, _ in a })
        let rated = located.compactMap(\.event.stars)
        let m = rated.isEmpty ? 0 : rated.reduce(0, +) / Double(rated.count)
        let c = s.popularityPrior
        let dayFrom = Int64(s.runDate) * 86_400 + Int64(s.tonightFrom)
        let dayUntil = Int64(s.runDate + 1) * 86_400 + Int64(s.tonightUntil)
        var events: [Event] = []
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
                id: e.id, idString: e.idString, startsAt: e.startsAt, venueID: e.venue, lat: p?.lat, lon: p?.lon,
                priceMin: e.priceMin, performers: e.artists, headliner: e.headliner,
                timeFactor: exp(-days / s.timeDecayDays), pop: pop, tonight: tonight))
        }
        self.events = events
        var byArtist: [Int64: [Int32]] = [:]
        var grid: [Int64: [Int32]] = [:]
        for (i, e) in events.enumerated() {
            for a in Set(e.performers) { byArtist[a, default: []].append(Int32(i)) }
            if let lat = e.lat, let lon = e.lon { grid[Self.cell(lat, lon), default: []].append(Int32(i)) }
        }
        self.byArtist = byArtist
        self.grid = grid
        popularOrder = (0..<events.count).map(Int32.init).sorted { a, b in
            let x = events[Int(a)], y = events[Int(b)]
            switch ScoreOrder.compare(x.pop * x.timeFactor, y.pop * y.timeFactor) {
            case -1: return true
            case 1: return false
            default: return Self.before(x, y)
            }
        }
    }

    /// The tie-break after the score: startsAt, then event id.
    @inline(__always)
    package static func before(_ x: Event, _ y: Event) -> Bool {
        if x.startsAt != y.startsAt { return x.startsAt < y.startsAt }
        return x.idString.utf8.lexicographicallyPrecedes(y.idString.utf8)
    }

    static func cell(_ lat: Double, _ lon: Double) -> Int64 {
        Int64(floor(lat) + 90) * 1000 + Int64(floor(lon) + 180)
    }

    /// Upcoming events whose venue may lie within `radiusKm` of the point (the grid cells of
    /// the bounding box; callers check the exact distance).
    package func near(lat: Double, lon: Double, radiusKm: Double) -> [Int32] {
        let dLat = radiusKm / 110.5
        let widest = min(89.0, abs(lat) + dLat)
        let dLon = min(180, radiusKm / (111.32 * max(0.01, cos(widest * .pi / 180))))
        var out: [Int32] = []
        var y = floor(lat - dLat)
        while y <= floor(lat + dLat) {
            var x = floor(lon - dLon)
            while x <= floor(lon + dLon) {
                let wrapped = x < -180 ? x + 360 : (x >= 180 ? x - 360 : x)
                if let list = grid[Self.cell(y, wrapped)] { out += list }
                x += 1
            }
            y += 1
        }
        return out
    }
}
