import Foundation
import TonightBase
import TonightExports
import TonightGeo

/// The Tickets Tonight lists of one user (recommendations.md): explore deck, favourites
/// feed, tonight's picks. Artist scores live in flat per-thread arrays indexed by dense
/// artist index and every per-user buffer is reused, so a user costs a few microseconds
/// and no allocation; make one ranker per thread.
package struct TicketsRanker {
    package let index: EventIndex
    package let settings: RankingSettings
    /// The lists of the user ranked last (`rank(_:)`).
    package internal(set) var lists = TicketsLists()

    /// Per dense artist: s(a) (only `touched` entries are non-zero), whether a favourite of
    /// this user (`favorite == stamp`), and the first of its affinity contributions (-1:
    /// none), side by side so that the edge loop touches one cache line per artist.
    var artists: [ArtistState]
    var touched: [Int32] = []
    /// The touched artists with dates in the user's band of latitude (`collectCandidates`).
    private var inBand: [Int32] = []
    /// This user's affinity contributions (favourite → artist), linked per artist: what
    /// `because` reads instead of searching every favourite's edges again.
    private var contributions: [Contribution] = []
    /// Stamps per event to collect candidates without a set.
    var seen: [UInt32]
    var stamp: UInt32 = 0
    /// The user's favourites known in the index, as dense indexes.
    var favorites: [Int32] = []
    var candidates: [Candidate] = []
    /// Explore candidates found for the user ranked last, before the per-artist cut.
    var candidatesFound = 0
    /// Per dense artist, `keptPerArtist` slots: the indexes in `candidates` of the artist's
    /// best candidates so far (its first `artists[a].kept` slots). The deck takes at most
    /// `perArtist` items per a*, the first in rank order, so an artist's other candidates can
    /// never be chosen: dropping them as they come leaves the deck as it was, and the sort or
    /// heap then orders a few dozen candidates instead of thousands.
    var keptSlots: [Int32] = []
    /// `settings.perArtist` when the cut applies (1…`maxKept`), else 0 (every candidate kept).
    let keptPerArtist: Int
    static let maxKept = 4
    /// Whether the per-artist cut applies (tests turn it off to compare the decks).
    package var cutsPerArtist = true
    /// Candidate lists up to this length are sorted whole; longer ones are read through a
    /// heap, which orders only the head the deck takes (tests set 0 and `Int.max`).
    package var fullSortLimit = 96
    private var tonightCandidates: [Candidate] = []
    /// Items per headliner of the explore deck so far.
    var perArtist = ArtistCounts()
    /// `perArtist` plus the backfill's picks so far (scratch, kept across users).
    var caps = ArtistCounts()
    /// Scratch of the popular backfill.
    var pool: [Popular] = []
    var chosen: [Popular] = []
    var cells: [Int32] = []
    var heads: [Int] = []
    var heap = CellHeap()
    /// The favourites feed's merge of the favourites' date lists.
    var feedMerge = FeedMerge()
    /// How many events a place keeps (enough to fill the backfill after a user's filters).
    static let placeDepth = 96

    struct ArtistState {
        var score = 0.0
        var favorite: UInt32 = 0
        var head: Int32 = -1
        /// Candidates of this artist (as a*) kept in `keptSlots`.
        var kept: Int32 = 0
        /// The latitudes of the artist's placed upcoming events lie in [south, north]
        /// (rounded outward to floats; none placed: south +∞, north −∞). Read with the
        /// score (the same cache line), they reject an artist with nothing in a user's band
        /// of latitude before its dates are searched: most touched artists (affinity
        /// targets) have a few dates, none near the user.
        var south = Float.infinity
        var north = -Float.infinity
    }

    struct Contribution {
        var favorite: Int32
        var weight: Double
        var next: Int32
    }

    /// A ranked candidate: event, score, a*(e) (dense), distance.
    struct Candidate {
        var event: Int32
        var score: Double
        var artist: Int32
        var distance: Double?
    }

    /// A popular candidate: event, score, distance.
    struct Popular {
        var event: Int32
        var score: Double
        var distance: Double?
    }

    struct PlaceOrder {
        var events: [Popular]
        var complete: Bool
    }

    /// Where a located user ranks from: the point, its cosine, the radius, and the band of
    /// latitude beyond which nothing is in reach.
    struct Origin {
        var lat: Double
        var lon: Double
        var cosLat: Double
        var radius: Double
        var bandKm: Double
        /// `GeoDistance.halfAngles` of the point (for the feed's published distances).
        var half: SIMD4<Double>
        /// `GeoDistance.reachLimit` of the radius: points whose haversine lower bound is above
        /// it are out of reach without a sine.
        var reachLimit: Double
    }

    /// The places several users rank from and their orders of popular events, shared by
    /// the stage's rankers (nil: every located user takes the exact scan).
    package let places: SharedPlaces?

    package init(index: EventIndex, settings: RankingSettings, places: SharedPlaces? = nil) {
        self.index = index
        self.settings = settings
        self.places = places
        artists = [ArtistState](repeating: ArtistState(), count: index.artistIDs.count)
        let placed = index.placedEventsOfArtist
        for a in artists.indices {
            let r = placed.range(a)
            guard let first = r.first, let last = r.last else { continue }  // sorted by latitude
            artists[a].south = Self.floatBelow(placed.values[first].lat)
            artists[a].north = Self.floatAbove(placed.values[last].lat)
        }
        seen = [UInt32](repeating: 0, count: index.events.count)
        keptPerArtist = (1...Self.maxKept).contains(settings.perArtist) ? settings.perArtist : 0
        keptSlots = [Int32](repeating: 0, count: index.artistIDs.count * keptPerArtist)
    }

    /// The largest float at most `x`, and the smallest at least `x`.
    static func floatBelow(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) > x ? f.nextDown : f
    }

    static func floatAbove(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
    }

    mutating func nextStamp() {
        stamp &+= 1
        if stamp == 0 {
            for i in seen.indices { seen[i] = 0 }
            for i in artists.indices { artists[i].favorite = 0 }
            stamp = 1
        }
    }

    /// Where user `u` ranks from (tests).
    func origin(_ u: TicketsUser) -> Origin? { u.withView { origin($0) } }

    func origin(_ u: TicketsUserView) -> Origin? {
        guard let la = u.lat, let lo = u.lon else { return nil }
        let radius = u.radiusKm ?? settings.radiusKm
        return Origin(lat: la, lon: lo, cosLat: GeoDistance.cosLatitude(la), radius: radius,
                      bandKm: radius * (1 + 1e-9) + 1e-9, half: GeoDistance.halfAngles(la, lo),
                      reachLimit: GeoDistance.reachLimit(radiusKm: radius))
    }

    /// Fills `artists` with s(a) for the user's favourites and their affinity targets, and
    /// links each target's contributions.
    private mutating func scoreArtists() {
        for a in touched {
            artists[Int(a)].score = 0
            artists[Int(a)].head = -1
            artists[Int(a)].kept = 0
        }
        touched.removeAll(keepingCapacity: true)
        contributions.removeAll(keepingCapacity: true)
        for f in favorites { artists[Int(f)].favorite = stamp }
        if settings.includeFavorites {
            for f in favorites {
                artists[Int(f)].score = 1.0
                touched.append(f)
            }
        }
        // Memory-bound: each favourite's list start and first edge are misses. Their lines
        // are asked for first (every start, then every first edge), so that the misses
        // overlap instead of following one another. (Asking for each edge's target state
        // too measured no better: ranking-log.md, "Misses asked for first".)
        let edges = index.edges
        edges.prefetchHeads(favorites)
        for f in favorites {
            for k in edges.range(Int(f)) {
                let edge = edges.values[k]
                let a = Int(edge.target)
                guard artists[a].favorite != stamp else { continue }
                if artists[a].score == 0 { touched.append(edge.target) }
                artists[a].score += edge.weight
                contributions.append(Contribution(favorite: f, weight: edge.weight, next: artists[a].head))
                artists[a].head = Int32(contributions.count - 1)
            }
        }
    }

    /// because(a) for a non-favourite: the favourites with an edge to it, by weight desc then
    /// id, at most 3.
    func because(_ a: Int32) -> Because {
        // Insertion into three inline slots, ordered by weight desc then id (pairs are unique,
        // so this is the order of sorting every match and keeping the first three).
        var ids = SIMD3<Int64>(), weights = SIMD3<Double>()
        var n = 0
        var c = artists[Int(a)].head
        while c >= 0 {
            let contribution = contributions[Int(c)]
            c = contribution.next
            let id = index.artistIDs[Int(contribution.favorite)], w = contribution.weight
            var at = n
            while at > 0 && (weights[at - 1] < w || (weights[at - 1] == w && ids[at - 1] > id)) { at -= 1 }
            guard at < 3 else { continue }
            var j = min(n, 2)
            while j > at {
                ids[j] = ids[j - 1]
                weights[j] = weights[j - 1]
                j -= 1
            }
            ids[at] = id
            weights[at] = w
            n = min(n + 1, 3)
        }
        var out = Because()
        for k in 0..<n { out.append(ids[k]) }
        return out
    }

    /// Whether dense artist `a` is a favourite of the user being ranked.
    @inline(__always)
    func isFavorite(_ a: Int32) -> Bool { artists[Int(a)].favorite == stamp }

    /// The distance from a located user to a placed event.
    @inline(__always)
    func distance(_ o: Origin?, _ e: EventIndex.Event) -> Double? {
        guard let o, let el = e.lat, let eo = e.lon else { return nil }
        return GeoDistance.km(o.lat, o.lon, cosLat1: o.cosLat, el, eo, cosLat2: e.cosLat)
    }

    /// In reach and affordable, with the distance when in reach. A point outside the band of
    /// latitude is out of reach without computing its distance: a great-circle distance is
    /// at least |Δlat| in arc for latitudes in [-90, 90], which the loaders and the
    /// geocoding table guarantee (tested in `UTF8OrderTests.precomputedCosinesGiveTheSameBits`).
    /// Inside the band, most points are far in longitude: a lower bound of the haversine
    /// term without libm (`GeoDistance.haversineLowerBound`) rejects them before the two
    /// sines and the arcsine of the exact distance (`GeoDistanceTests`: never a point `km`
    /// puts in reach).
    @inline(__always)
    func reachable(_ u: TicketsUserView, _ o: Origin?, _ e: EventIndex.Event) -> (ok: Bool, distance: Double?) {
        if let max = u.maxPrice, let p = e.priceMin, p > max { return (false, nil) }
        guard let o else { return (true, nil) }
        guard let el = e.lat, let eo = e.lon, let d = distanceInReach(o, el, eo, cosLat: e.cosLat) else { return (false, nil) }
        return (true, d)
    }

    /// The distance from a located user to a point when it is within their radius: the band
    /// of latitude, then `distanceInBand` (`reachable`'s place tests, on a place alone).
    @inline(__always)
    func distanceInReach(_ o: Origin, _ lat: Double, _ lon: Double, cosLat: Double) -> Double? {
        if abs(lat - o.lat) * GeoDistance.kmPerDegree > o.bandKm { return nil }
        return distanceInBand(o, lat, lon, cosLat: cosLat)
    }

    /// The distance to a point inside the user's band of latitude when it is within their
    /// radius: the haversine lower bound first (no libm), then the exact distance.
    @inline(__always)
    func distanceInBand(_ o: Origin, _ lat: Double, _ lon: Double, cosLat: Double) -> Double? {
        if GeoDistance.haversineLowerBound(o.lat, o.lon, cosLat1: o.cosLat, lat, lon, cosLat2: cosLat) > o.reachLimit { return nil }
        let d = GeoDistance.km(o.lat, o.lon, cosLat1: o.cosLat, lat, lon, cosLat2: cosLat)
        return d <= o.radius ? d : nil
    }

    /// a*(e): the performer with the highest s (ties: lower artist id), with s > 0.
    @inline(__always)
    func bestArtist(_ i: Int32) -> (Int32, Double)? {
        var best: (Int32, Double)?
        for k in index.dense.range(Int(i)) {
            let a = index.dense.values[k]
            let v = artists[Int(a)].score
            guard v > 0 else { continue }
            if let b = best, v < b.1 || (v == b.1 && index.artistIDs[Int(a)] >= index.artistIDs[Int(b.0)]) { continue }
            best = (a, v)
        }
        return best
    }

    /// Score desc (near-ties equal), then startsAt, then event id.
    @inline(__always)
    static func ranksBefore(_ a: Int32, _ sa: Double, _ b: Int32, _ sb: Double) -> Bool {
        switch ScoreOrder.compare(sa, sb) {
        case -1: return true
        case 1: return false
        default: return a < b  // events are indexed in `EventIndex.before` order
        }
    }

    /// Ranks one user: afterwards `lists` holds their explore deck, feed and tonight's picks.
    /// `place`: the number of the user's place in `places` (`SharedPlaces.placeOf`), -1 when
    /// no other user shares it.
    package mutating func rank(_ u: TicketsUser, place: Int32 = -1) {
        u.withView { rank($0, place: place) }
    }

    /// Ranks one user read through a view (the stage's path: nothing retained per user).
    package mutating func rank(_ u: TicketsUserView, place: Int32 = -1) {
        lists.removeAll()
        nextStamp()
        favorites.removeAll(keepingCapacity: true)
        for f in u.favorites {
            if let d = index.dense(of: f) { favorites.append(d) }
        }
        scoreArtists()
        let o = origin(u)
        collectCandidates(u, o)
        perArtist.removeAll()
        fillExplore()
        if lists.explore.count < settings.minItems { backfill(u, o, place: place) }
        tonightCandidates.sort { Self.ranksBefore($0.event, $0.score, $1.event, $1.score) }
        for x in tonightCandidates.prefix(settings.tonightSize) {
            lists.tonight.append(TonightEntry(
                event: x.event, id: index.events[Int(x.event)].id, score: x.score, artist: index.artistIDs[Int(x.artist)], distanceKm: x.distance))
        }
        feed(u, o)
    }

    /// The explore and tonight candidates: upcoming events of artists with s > 0, in reach
    /// and affordable, scored with their a*(e), in the order of `touched` then of events
    /// (by latitude for a located user). The order does not matter: candidates are then
    /// sorted on a total order.
    private mutating func collectCandidates(_ u: TicketsUserView, _ o: Origin?) {
        candidates.removeAll(keepingCapacity: true)
        candidatesFound = 0
        tonightCandidates.removeAll(keepingCapacity: true)
        guard let o else {
            collectUnplaced(u)
            return
        }
        // Most tour dates are far away: only the artist's dates inside the band of latitude
        // in reach are read (`reachable` applies the same test, so nothing else changes).
        let placed = index.placedEventsOfArtist
        inBand.removeAll(keepingCapacity: true)
        for t in touched.indices {
            let a = Int(touched[t])
            let state = artists[a]
            guard state.score > 0 else { continue }
            // Every date south of the band, or every date north of it: the tests below on
            // the span's ends (latitude differences grow monotonically away from the user).
            let north = Double(state.north), south = Double(state.south)
            if north < o.lat && abs(north - o.lat) * GeoDistance.kmPerDegree > o.bandKm { continue }
            if south > o.lat && abs(south - o.lat) * GeoDistance.kmPerDegree > o.bandKm { continue }
            inBand.append(Int32(a))
            placed.starts.prefetch(a)
        }
        // The searches below start in the middle of each list: those lines asked for first.
        for t in inBand.indices {
            let r = placed.range(Int(inBand[t]))
            placed.values.prefetch((r.lowerBound + r.upperBound) / 2)
        }
        for t in inBand.indices {
            let a = Int(inBand[t])
            let r = placed.range(a)
            var lo = r.lowerBound, hi = r.upperBound
            // The first event at or north of the band's southern edge.
            while lo < hi {
                let mid = (lo + hi) / 2
                let lat = placed.values[mid].lat
                if lat < o.lat && abs(lat - o.lat) * GeoDistance.kmPerDegree > o.bandKm { lo = mid + 1 } else { hi = mid }
            }
            var k = lo
            while k < r.upperBound {
                let p = placed.values[k]
                if p.lat > o.lat && abs(p.lat - o.lat) * GeoDistance.kmPerDegree > o.bandKm { break }
                k += 1
                // `reachable`'s place tests, on the place beside the latitude: most dates in
                // the band are far in longitude, and their event records are never read.
                guard let d = distanceInBand(o, p.lat, p.lon, cosLat: p.cosLat) else { continue }
                considerInReach(p.event, p.performers == 1 ? Int32(a) : nil, u, d)
            }
        }
    }

    /// One upcoming event of a touched artist at `distance` from a located user, within the
    /// radius (each event once per user): its price, then `candidate`.
    @inline(__always)
    private mutating func considerInReach(_ i: Int32, _ only: Int32?, _ u: TicketsUserView, _ distance: Double) {
        guard seen[Int(i)] != stamp else { return }
        seen[Int(i)] = stamp
        let e = index.events[Int(i)]
        if let max = u.maxPrice, let p = e.priceMin, p > max { return }
        candidate(i, e, only, u, distance)
    }

    /// a*(e) and its s: the touched artist `only` when it is the event's one performer (the
    /// scans run only over artists with s > 0), else `bestArtist` over the performers.
    @inline(__always)
    func bestArtist(_ i: Int32, only: Int32?) -> (Int32, Double)? {
        if let only { return (only, artists[Int(only)].score) }
        return bestArtist(i)
    }

    /// An event in reach of a located user and affordable: its a*(e), then a card of the deck
    /// (unless dismissed or followed) and one of tonight's picks (when it qualifies).
    @inline(__always)
    private mutating func candidate(_ i: Int32, _ e: EventIndex.Event, _ only: Int32?, _ u: TicketsUserView, _ d: Double) {
        guard let (best, sv) = bestArtist(i, only: only) else { return }
        let dismissed = u.dismissed.contains(e.id)
        if !dismissed && !u.follows.contains(e.id) {
            let factor = exp(-d / settings.distanceDecayKm)
            keep(Candidate(event: i, score: sv * e.timeFactor * factor, artist: best, distance: d))
        }
        if e.tonight, !dismissed {
            tonightCandidates.append(Candidate(event: i, score: sv * exp(-d / settings.distanceDecayKm), artist: best, distance: d))
        }
    }
}
