import Foundation
import TonightExports
import TonightGeo

/// The Tickets Tonight lists of one user (recommendations.md): explore deck, favourites
/// feed, tonight's picks. Artist scores live in flat per-thread arrays indexed by dense
/// artist index, so a user costs a few microseconds; make one ranker per thread.
package struct TicketsRanker {
    package let index: EventIndex
    package let settings: RankingSettings
    /// s(a) per dense artist (only `touched` entries are non-zero).
    private var score: [Double]
    private var favoriteStamp: [UInt32]
    private var touched: [Int32] = []
    /// Stamps per event to collect candidates without a set.
    private var seen: [UInt32]
    private var stamp: UInt32 = 0
    /// Per place (most users share their home ZIP's point): the in-reach upcoming events by
    /// popular score, before any user's own filters; `complete` when nothing was cut.
    private var placeCache: [Place: (events: [(Int32, Double, Double?)], complete: Bool)] = [:]
    /// How many events a place keeps (enough to fill the backfill after a user's filters).
    static let placeDepth = 96

    /// Where a located user ranks from: the point and the radius.
    package struct Place: Hashable, Sendable {
        var lat: UInt64
        var lon: UInt64
        var radius: UInt64
    }

    /// Places shared by at least two users (home ZIP points, mostly): only these are cached;
    /// a place of its own takes the exact early-stopping scan, which is cheaper than the
    /// full in-reach sort a cache entry needs.
    package let sharedPlaces: Set<Place>

    func place(_ u: TicketsUser) -> Place? {
        guard let la = u.lat, let lo = u.lon else { return nil }
        return Place(lat: la.bitPattern, lon: lo.bitPattern, radius: (u.radiusKm ?? settings.radiusKm).bitPattern)
    }

    /// The places of two users or more.
    package static func sharedPlaces(_ users: [TicketsUser], settings: RankingSettings) -> Set<Place> {
        var count: [Place: Int] = [:]
        for u in users {
            guard let la = u.lat, let lo = u.lon else { continue }
            count[Place(lat: la.bitPattern, lon: lo.bitPattern, radius: (u.radiusKm ?? settings.radiusKm).bitPattern), default: 0] += 1
        }
        return Set(count.filter { $0.value > 1 }.keys)
    }

    package init(index: EventIndex, settings: RankingSettings, sharedPlaces: Set<Place> = []) {
        self.index = index
        self.settings = settings
        self.sharedPlaces = sharedPlaces
        score = [Double](repeating: 0, count: index.artistIDs.count)
        favoriteStamp = [UInt32](repeating: 0, count: index.artistIDs.count)
        seen = [UInt32](repeating: 0, count: index.events.count)
    }

    private mutating func nextStamp() {
        stamp &+= 1
        if stamp == 0 {
            for i in seen.indices { seen[i] = 0 }
            for i in favoriteStamp.indices { favoriteStamp[i] = 0 }
            stamp = 1
        }
    }

    /// Fills `score` with s(a) for the user's favourites and their affinity targets.
    private mutating func scoreArtists(_ favorites: [Int32]) {
        for a in touched { score[Int(a)] = 0 }
        touched.removeAll(keepingCapacity: true)
        for f in favorites { favoriteStamp[Int(f)] = stamp }
        if settings.includeFavorites {
            for f in favorites {
                score[Int(f)] = 1.0
                touched.append(f)
            }
        }
        for f in favorites {
            for (a, w) in index.edges[Int(f)] where favoriteStamp[Int(a)] != stamp {
                if score[Int(a)] == 0 { touched.append(a) }
                score[Int(a)] += w
            }
        }
    }

    /// because(a) for a non-favourite: the favourites with an edge to it, by weight desc then
    /// id, at most 3.
    private func because(_ a: Int32, favorites: [Int32]) -> [Int64] {
        var list: [(Int64, Double)] = []
        for f in favorites {
            for (t, w) in index.edges[Int(f)] where t == a { list.append((index.artistIDs[Int(f)], w)) }
        }
        return list.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(3).map(\.0)
    }

    @inline(__always)
    func distance(_ u: TicketsUser, _ e: EventIndex.Event) -> Double? {
        guard let la = u.lat, let lo = u.lon, let el = e.lat, let eo = e.lon else { return nil }
        return GeoDistance.km(la, lo, el, eo)
    }

    /// In reach and affordable, with the distance when known.
    @inline(__always)
    func reachable(_ u: TicketsUser, _ e: EventIndex.Event) -> (ok: Bool, distance: Double?) {
        if let max = u.maxPrice, let p = e.priceMin, p > max { return (false, nil) }
        guard u.lat != nil, u.lon != nil else { return (true, nil) }
        guard let d = distance(u, e) else { return (false, nil) }
        return (d <= (u.radiusKm ?? settings.radiusKm), d)
    }

    /// a*(e): the performer with the highest s (ties: lower artist id), with s > 0.
    @inline(__always)
    func bestArtist(_ i: Int32) -> (Int32, Double)? {
        var best: (Int32, Double)?
        for a in index.dense[Int(i)] {
            let v = score[Int(a)]
            guard v > 0 else { continue }
            if let b = best, v < b.1 || (v == b.1 && index.artistIDs[Int(a)] >= index.artistIDs[Int(b.0)]) { continue }
            best = (a, v)
        }
        return best
    }

    /// Score desc (near-ties equal), then startsAt, then event id.
    @inline(__always)
    func ranksBefore(_ a: Int32, _ sa: Double, _ b: Int32, _ sb: Double) -> Bool {
        switch ScoreOrder.compare(sa, sb) {
        case -1: return true
        case 1: return false
        default: return EventIndex.before(index.events[Int(a)], index.events[Int(b)])
        }
    }

    /// All three lists for one user.
    package mutating func lists(for u: TicketsUser) -> TicketsLists {
        nextStamp()
        let favorites = u.favorites.compactMap { index.denseIndex[$0] }
        scoreArtists(favorites)
        var out = TicketsLists()
        let located = u.lat != nil && u.lon != nil
        var explore: [(event: Int32, score: Double, artist: Int32, distance: Double?)] = []
        var tonight: [(event: Int32, score: Double, artist: Int32, distance: Double?)] = []
        for a in touched where score[Int(a)] > 0 {
            for i in index.eventsOfArtist[Int(a)] where seen[Int(i)] != stamp {
                seen[Int(i)] = stamp
                let e = index.events[Int(i)]
                let (ok, d) = reachable(u, e)
                guard ok, let (best, sv) = bestArtist(i) else { continue }
                let dismissed = u.dismissed.contains(e.id)
                if !dismissed && !u.follows.contains(e.id) {
                    explore.append((i, sv * e.timeFactor * (located ? exp(-(d ?? 0) / settings.distanceDecayKm) : 1), best, d))
                }
                if e.tonight, located, let d, !dismissed {
                    tonight.append((i, sv * exp(-d / settings.distanceDecayKm), best, d))
                }
            }
        }
        explore.sort { ranksBefore($0.event, $0.score, $1.event, $1.score) }
        var perArtist = ArtistCounts()
        for x in explore where out.explore.count < settings.exploreSize {
            let a = index.artistIDs[Int(x.artist)]
            guard perArtist[a] < settings.perArtist else { continue }
            perArtist.add(a)
            let favorite = favoriteStamp[Int(x.artist)] == stamp
            out.explore.append(ExploreEntry(
                event: x.event, score: x.score, artist: a, because: favorite ? [a] : because(x.artist, favorites: favorites),
                reason: favorite ? "favorite" : "affinity", distanceKm: x.distance))
        }
        if out.explore.count < settings.minItems { backfill(u, &out.explore, perArtist: &perArtist) }
        tonight.sort { ranksBefore($0.event, $0.score, $1.event, $1.score) }
        out.tonight = tonight.prefix(settings.tonightSize).map {
            TonightEntry(event: $0.event, score: $0.score, artist: index.artistIDs[Int($0.artist)], distanceKm: $0.distance)
        }
        out.feed = feed(u, favorites: favorites)
        return out
    }

    /// Popular backfill up to `minItems`: upcoming, in reach, affordable, not followed or
    /// dismissed, not listed; by pop·timeFactor·distance factor; cap on the headliner.
    /// Without a location the global popularity order is final; a place shared by several
    /// users walks its cached order; any other place takes `exactBackfill`.
    mutating func backfill(_ u: TicketsUser, _ list: inout [ExploreEntry], perArtist: inout ArtistCounts) {
        let need = settings.minItems - list.count
        let listed = list.map(\.event)  // at most minItems: a scan beats a set
        func eligible(_ i: Int32) -> (ok: Bool, distance: Double?) {
            let e = index.events[Int(i)]
            guard !listed.contains(i), !u.follows.contains(e.id), !u.dismissed.contains(e.id) else { return (false, nil) }
            return reachable(u, e)
        }
        /// Greedy selection with the headliner cap over candidates in rank order.
        func select(_ pool: [(Int32, Double, Double?)]) -> [(Int32, Double, Double?)] {
            var caps = perArtist
            var out: [(Int32, Double, Double?)] = []
            for c in pool where out.count < need {
                if let h = index.events[Int(c.0)].headliner {
                    guard caps[h] < settings.perArtist else { continue }
                    caps.add(h)
                }
                out.append(c)
            }
            return out
        }
        var chosen: [(Int32, Double, Double?)] = []
        if u.lat == nil || u.lon == nil {
            // popularOrder is the final order here (no distance factor): take greedily.
            var pool: [(Int32, Double, Double?)] = []
            var caps = perArtist
            for i in index.popularOrder where pool.count < need {
                guard eligible(i).ok else { continue }
                let e = index.events[Int(i)]
                if let h = e.headliner {
                    guard caps[h] < settings.perArtist else { continue }
                    caps.add(h)
                }
                pool.append((i, e.pop * e.timeFactor, nil))
            }
            chosen = pool
        } else {
            // A place shared by several users: walk its cached order with this user's filters.
            let place = place(u)!
            guard sharedPlaces.contains(place) else {
                chosen = exactBackfill(u, need: need, eligible: eligible, select: select)
                return append(chosen, to: &list, perArtist: &perArtist)
            }
            if placeCache[place] == nil { placeCache[place] = placeOrder(u) }
            let cached = placeCache[place]!
            var caps = perArtist
            var taken: [(Int32, Double, Double?)] = []
            for c in cached.events where taken.count < need {
                let e = index.events[Int(c.0)]
                guard !listed.contains(c.0), !u.follows.contains(e.id), !u.dismissed.contains(e.id) else { continue }
                if let max = u.maxPrice, let p = e.priceMin, p > max { continue }
                if let h = e.headliner {
                    guard caps[h] < settings.perArtist else { continue }
                    caps.add(h)
                }
                taken.append(c)
            }
            if taken.count == need || cached.complete {
                chosen = taken
            } else {
                chosen = exactBackfill(u, need: need, eligible: eligible, select: select)
            }
        }
        append(chosen, to: &list, perArtist: &perArtist)
    }

    /// Appends the chosen popular items (the headliner is the item's artist).
    private func append(_ chosen: [(Int32, Double, Double?)], to list: inout [ExploreEntry], perArtist: inout ArtistCounts) {
        for (i, s, d) in chosen {
            let e = index.events[Int(i)]
            if let h = e.headliner { perArtist.add(h) }
            list.append(ExploreEntry(event: i, score: s, artist: e.headliner, because: [], reason: "popular", distanceKm: d))
        }
    }

    /// Every in-reach upcoming event of the user's place by popular score (cut at
    /// `placeDepth`), without the user's own filters.
    func placeOrder(_ u: TicketsUser) -> (events: [(Int32, Double, Double?)], complete: Bool) {
        let radius = u.radiusKm ?? settings.radiusKm
        var pool: [(Int32, Double, Double?)] = []
        for cell in index.popularCells(lat: u.lat!, lon: u.lon!, radiusKm: radius) {
            for i in cell {
                let e = index.events[Int(i)]
                guard let d = distance(u, e), d <= radius else { continue }
                pool.append((i, e.pop * e.timeFactor * exp(-d / settings.distanceDecayKm), d))
            }
        }
        pool.sort { ranksBefore($0.0, $0.1, $1.0, $1.1) }
        let complete = pool.count <= Self.placeDepth
        return (Array(pool.prefix(Self.placeDepth)), complete)
    }

    /// The exact backfill for a located user: events in decreasing pop·timeFactor (an upper
    /// bound of their score), stopping once no unseen event could still be selected.
    func exactBackfill(
        _ u: TicketsUser, need: Int, eligible: (Int32) -> (ok: Bool, distance: Double?),
        select: ([(Int32, Double, Double?)]) -> [(Int32, Double, Double?)]
    ) -> [(Int32, Double, Double?)] {
        do {
            let cells = index.popularCells(lat: u.lat!, lon: u.lon!, radiusKm: u.radiusKm ?? settings.radiusKm)
            var heads = [Int](repeating: 0, count: cells.count)
            var pool: [(Int32, Double, Double?)] = []
            var nextCheck = need
            while true {
                // The cell whose next event has the highest bound.
                var bestCell = -1
                var bound = -1.0
                for (c, list) in cells.enumerated() where heads[c] < list.count {
                    let e = index.events[Int(list[heads[c]])]
                    if e.pop * e.timeFactor > bound { bound = e.pop * e.timeFactor; bestCell = c }
                }
                if bestCell < 0 { break }
                // Stopping later is always correct; check only as the pool grows by half.
                if pool.count >= nextCheck {
                    pool.sort { ranksBefore($0.0, $0.1, $1.0, $1.1) }
                    let current = select(pool)
                    if current.count == need, let last = current.last, bound < last.1 * (1 - 1e-8) { break }
                    nextCheck = pool.count + max(2, pool.count / 2)
                }
                let i = cells[bestCell][heads[bestCell]]
                heads[bestCell] += 1
                let (ok, d) = eligible(i)
                guard ok, let d else { continue }
                let e = index.events[Int(i)]
                pool.append((i, e.pop * e.timeFactor * exp(-d / settings.distanceDecayKm), d))
            }
            pool.sort { ranksBefore($0.0, $0.1, $1.0, $1.1) }
            return select(pool)
        }
    }

    /// Upcoming events with a favourite performing, anywhere, by startsAt then id.
    mutating func feed(_ u: TicketsUser, favorites: [Int32]) -> [FeedEntry] {
        nextStamp()
        var events: [Int32] = []
        for f in favorites {
            for i in index.eventsOfArtist[Int(f)] where seen[Int(i)] != stamp {
                seen[Int(i)] = stamp
                events.append(i)
            }
        }
        for f in favorites { favoriteStamp[Int(f)] = stamp }
        events.sort { EventIndex.before(index.events[Int($0)], index.events[Int($1)]) }
        return events.prefix(settings.feedSize).map { i in
            let e = index.events[Int(i)]
            var performing: [Int64] = []
            let ids = index.performers[Int(i)]
            for (k, a) in index.dense[Int(i)].enumerated() where favoriteStamp[Int(a)] == stamp && !performing.contains(ids[k]) {
                performing.append(ids[k])
            }
            return FeedEntry(event: i, artists: performing, distanceKm: distance(u, e), following: u.follows.contains(e.id))
        }
    }
}

/// Items per artist in a list of at most a few dozen: a linear scan beats hashing.
struct ArtistCounts {
    private var artists: [Int64] = []
    private var counts: [Int] = []

    subscript(_ a: Int64) -> Int {
        guard let i = artists.firstIndex(of: a) else { return 0 }
        return counts[i]
    }

    mutating func add(_ a: Int64) {
        if let i = artists.firstIndex(of: a) {
            counts[i] += 1
        } else {
            artists.append(a)
            counts.append(1)
        }
    }
}
