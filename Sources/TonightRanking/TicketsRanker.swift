import Foundation
import TonightExports
import TonightGeo

/// The Tickets Tonight lists of one user (recommendations.md): explore deck, favourites
/// feed, tonight's picks. A ranker holds per-thread scratch space; share the index, not it.
package struct TicketsRanker {
    package let index: EventIndex
    package let settings: RankingSettings
    /// Affinity edges by source artist: (target, weight).
    package let edges: [Int64: [(Int64, Double)]]
    /// Stamps per event to collect candidates without a set.
    private var seen: [UInt32]
    private var stamp: UInt32 = 0

    package init(index: EventIndex, edges: [Int64: [(Int64, Double)]], settings: RankingSettings) {
        self.index = index
        self.edges = edges
        self.settings = settings
        seen = [UInt32](repeating: 0, count: index.events.count)
    }

    /// Artist scores s(a) and the favourites behind each (because, unsorted).
    func artistScores(_ u: TicketsUser) -> (s: [Int64: Double], contributions: [Int64: [(Int64, Double)]]) {
        var s: [Int64: Double] = [:]
        var contributions: [Int64: [(Int64, Double)]] = [:]
        let favorites = Set(u.favorites)
        if settings.includeFavorites { for f in u.favorites { s[f] = 1.0 } }
        for f in u.favorites {
            for (a, w) in edges[f] ?? [] where !favorites.contains(a) {
                s[a, default: 0] += w
                contributions[a, default: []].append((f, w))
            }
        }
        return (s, contributions)
    }

    /// Distance from the user to the event's venue, when both are known.
    @inline(__always)
    func distance(_ u: TicketsUser, _ e: EventIndex.Event) -> Double? {
        guard let la = u.lat, let lo = u.lon, let el = e.lat, let eo = e.lon else { return nil }
        return GeoDistance.km(la, lo, el, eo)
    }

    /// In reach and affordable; returns the distance (nil when unknown) or false.
    @inline(__always)
    func reachable(_ u: TicketsUser, _ e: EventIndex.Event) -> (ok: Bool, distance: Double?) {
        if let max = u.maxPrice, let p = e.priceMin, p > max { return (false, nil) }
        guard u.lat != nil, u.lon != nil else { return (true, nil) }
        guard let d = distance(u, e) else { return (false, nil) }
        return (d <= (u.radiusKm ?? settings.radiusKm), d)
    }

    /// a*(e): the performer with the highest s (ties: lower id).
    @inline(__always)
    func bestArtist(_ e: EventIndex.Event, _ s: [Int64: Double]) -> (Int64, Double)? {
        var best: (Int64, Double)?
        for a in e.performers {
            guard let v = s[a], v > 0 else { continue }
            if let b = best, v < b.1 || (v == b.1 && a >= b.0) { continue }
            best = (a, v)
        }
        return best
    }

    /// Orders (score desc with near-ties, startsAt, event id).
    func ranksBefore(_ a: (Int32, Double), _ b: (Int32, Double)) -> Bool {
        switch ScoreOrder.compare(a.1, b.1) {
        case -1: return true
        case 1: return false
        default: return EventIndex.before(index.events[Int(a.0)], index.events[Int(b.0)])
        }
    }

    /// All three lists for one user.
    package mutating func lists(for u: TicketsUser) -> TicketsLists {
        let (s, contributions) = artistScores(u)
        var out = TicketsLists()
        let excluded = Set(u.follows).union(u.dismissed)
        let dismissed = Set(u.dismissed)
        // Candidates: upcoming events of artists with s > 0 (each once).
        stamp &+= 1
        if stamp == 0 {
            for i in seen.indices { seen[i] = 0 }
            stamp = 1
        }
        var explore: [(Int32, Double, Int64, Double?)] = []
        var tonight: [(Int32, Double, Int64, Double?)] = []
        for (a, v) in s.sorted(by: { $0.key < $1.key }) where v > 0 {  // sorted: input order never matters
            for i in index.byArtist[a] ?? [] where seen[Int(i)] != stamp {
                seen[Int(i)] = stamp
                let e = index.events[Int(i)]
                let (ok, d) = reachable(u, e)
                guard ok, let (best, sv) = bestArtist(e, s) else { continue }
                if !excluded.contains(e.id) {
                    let r = sv * e.timeFactor * (u.lat != nil && u.lon != nil ? exp(-(d ?? 0) / settings.distanceDecayKm) : 1)
                    explore.append((i, r, best, d))
                }
                if e.tonight, u.lat != nil, u.lon != nil, let d, !dismissed.contains(e.id) {
                    tonight.append((i, sv * exp(-d / settings.distanceDecayKm), best, d))
                }
            }
        }
        explore.sort { ranksBefore(($0.0, $0.1), ($1.0, $1.1)) }
        var perArtist: [Int64: Int] = [:]
        var listed = Set<Int32>()
        let favorites = Set(u.favorites)
        for (i, r, a, d) in explore where out.explore.count < settings.exploreSize {
            guard perArtist[a, default: 0] < settings.perArtist else { continue }
            perArtist[a, default: 0] += 1
            listed.insert(i)
            let because: [Int64]
            if favorites.contains(a) {
                because = [a]
            } else {
                because = (contributions[a] ?? []).sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(3).map(\.0)
            }
            out.explore.append(ExploreEntry(event: i, score: r, artist: a, because: because,
                                            reason: favorites.contains(a) ? "favorite" : "affinity", distanceKm: d))
        }
        if out.explore.count < settings.minItems { backfill(u, &out.explore, perArtist: &perArtist, listed: listed, excluded: excluded) }
        tonight.sort { ranksBefore(($0.0, $0.1), ($1.0, $1.1)) }
        out.tonight = tonight.prefix(settings.tonightSize).map { TonightEntry(event: $0.0, score: $0.1, artist: $0.2, distanceKm: $0.3) }
        out.feed = feed(u, favorites: favorites)
        return out
    }

    /// Popular backfill up to `minItems`: upcoming, in reach, affordable, not followed or
    /// dismissed, not listed; by pop·timeFactor·distance factor; cap on the headliner.
    func backfill(_ u: TicketsUser, _ list: inout [ExploreEntry], perArtist: inout [Int64: Int], listed: Set<Int32>,
                  excluded: Set<UInt64>) {
        let located = u.lat != nil && u.lon != nil
        func take(_ i: Int32, score: Double, distance: Double?) -> Bool {
            let e = index.events[Int(i)]
            if let h = e.headliner {
                guard perArtist[h, default: 0] < settings.perArtist else { return false }
                perArtist[h, default: 0] += 1
            }
            list.append(ExploreEntry(event: i, score: score, artist: e.headliner, because: [], reason: "popular", distanceKm: distance))
            return list.count >= settings.minItems
        }
        if !located {
            for i in index.popularOrder {
                let e = index.events[Int(i)]
                guard !listed.contains(i), !excluded.contains(e.id), reachable(u, e).ok else { continue }
                if take(i, score: e.pop * e.timeFactor, distance: nil) { return }
            }
            return
        }
        var pool: [(Int32, Double, Double)] = []
        var unique = Set<Int32>()
        for i in index.near(lat: u.lat!, lon: u.lon!, radiusKm: u.radiusKm ?? settings.radiusKm) where unique.insert(i).inserted {
            let e = index.events[Int(i)]
            guard !listed.contains(i), !excluded.contains(e.id) else { continue }
            let (ok, d) = reachable(u, e)
            guard ok, let d else { continue }
            pool.append((i, e.pop * e.timeFactor * exp(-d / settings.distanceDecayKm), d))
        }
        pool.sort { ranksBefore(($0.0, $0.1), ($1.0, $1.1)) }
        for (i, score, d) in pool where take(i, score: score, distance: d) { return }
    }

    /// Upcoming events with a favourite performing, anywhere, by startsAt then id.
    func feed(_ u: TicketsUser, favorites: Set<Int64>) -> [FeedEntry] {
        var events = Set<Int32>()
        for f in u.favorites { events.formUnion(index.byArtist[f] ?? []) }
        let follows = Set(u.follows)
        return events.sorted { EventIndex.before(index.events[Int($0)], index.events[Int($1)]) }
            .prefix(settings.feedSize).map { i in
                let e = index.events[Int(i)]
                var performing: [Int64] = []
                for a in e.performers where favorites.contains(a) && !performing.contains(a) { performing.append(a) }
                return FeedEntry(event: i, artists: performing, distanceKm: distance(u, e), following: follows.contains(e.id))
            }
    }
}
