import TonightBase
import TonightRanking
import Foundation
import TonightAffinity
import TonightExports
import TonightFeed
import TonightGeo
import TonightSnapshot

/// A straightforward, slow re-implementation of recommendations.md written only for the
/// tests: dictionaries, full scans and full sorts, no indexes, no caches, no early stops.
/// The pipeline's fast path must agree with it.
struct ReferenceRanking {
    let events: [LocatedEvent]
    let places: [Int64: Placement]
    let edges: [AffinityEdge]
    let asOf: Int64
    let runDate: Int

    func upcoming(_ e: FeedEvent) -> Bool { e.startsAt >= asOf && e.startsAt < asOf + 60 * 86_400 }
    func days(_ e: FeedEvent) -> Double { Double(e.startsAt - asOf) / 86_400 }

    var meanStars: Double {
        let rated = events.compactMap(\.event.stars)
        return rated.reduce(0, +) / Double(rated.count)
    }

    func pop(_ e: FeedEvent, _ m: Double) -> Double {
        let n = Double(e.starReviews ?? 0)
        return (50 * m + n * (e.stars ?? m)) / (50 + n) / 5
    }

    func distance(_ u: TicketsUser, _ e: FeedEvent) -> Double? {
        guard let la = u.lat, let lo = u.lon, let p = places[e.venue], let vla = p.lat, let vlo = p.lon else { return nil }
        return GeoDistance.km(la, lo, vla, vlo)
    }

    func inReach(_ u: TicketsUser, _ e: FeedEvent) -> Bool {
        guard u.lat != nil else { return true }
        guard let d = distance(u, e) else { return false }
        return d <= (u.radiusKm ?? 80)
    }

    func affordable(_ u: TicketsUser, _ e: FeedEvent) -> Bool {
        guard let max = u.maxPrice, let p = e.priceMin else { return true }
        return p <= max
    }

    /// (score desc with near-ties, startsAt, id).
    static func ordered(_ a: (Double, FeedEvent), _ b: (Double, FeedEvent)) -> Bool {
        if abs(a.0 - b.0) > 1e-9 * max(abs(a.0), abs(b.0)) { return a.0 > b.0 }
        if a.1.startsAt != b.1.startsAt { return a.1.startsAt < b.1.startsAt }
        return a.1.idString < b.1.idString
    }

    func scores(_ u: TicketsUser) -> ([Int64: Double], [Int64: [(Int64, Double)]]) {
        var s: [Int64: Double] = [:]
        var why: [Int64: [(Int64, Double)]] = [:]
        for f in u.favorites { s[f] = 1 }
        for f in u.favorites {
            for edge in edges where edge.source == f && !u.favorites.contains(edge.target) {
                s[edge.target, default: 0] += edge.score
                why[edge.target, default: []].append((f, edge.score))
            }
        }
        return (s, why)
    }

    func best(_ e: FeedEvent, _ s: [Int64: Double]) -> Int64? {
        e.artists.filter { (s[$0] ?? 0) > 0 }.sorted { s[$0]! != s[$1]! ? s[$0]! > s[$1]! : $0 < $1 }.first
    }

    /// The explore candidates (unsorted): open events with a scored performer, with their
    /// score and a*(e).
    func exploreCandidates(_ u: TicketsUser) -> [(Double, FeedEvent, Int64)] {
        let (s, _) = scores(u)
        let located = u.lat != nil
        var ranked: [(Double, FeedEvent, Int64)] = []
        for l in events where isOpen(u, l.event) {
            guard let a = best(l.event, s) else { continue }
            let r = s[a]! * exp(-days(l.event) / 21) * (located ? exp(-(distance(u, l.event) ?? 0) / 40) : 1)
            ranked.append((r, l.event, a))
        }
        return ranked
    }

    /// Upcoming, in reach, affordable, neither followed nor dismissed.
    func isOpen(_ u: TicketsUser, _ e: FeedEvent) -> Bool {
        upcoming(e) && inReach(u, e) && affordable(u, e) && !u.follows.contains(e.id) && !u.dismissed.contains(e.id)
    }

    /// Upcoming events within a located user's radius, whatever they cost (nil: not located).
    func eventsInReach(_ u: TicketsUser) -> Int? {
        guard u.lat != nil else { return nil }
        return events.filter { upcoming($0.event) && inReach(u, $0.event) }.count
    }

    /// The deck; `backfillCap` is the popular backfill's cap per headliner (recommendations.md:
    /// `perArtist`, 2; a test passes `.max` to see where the cap binds).
    func explore(_ u: TicketsUser, backfillCap: Int = 2) -> [ExploreItem] {
        let (_, why) = scores(u)
        let located = u.lat != nil
        var ranked = exploreCandidates(u)
        ranked.sort { Self.ordered(($0.0, $0.1), ($1.0, $1.1)) }
        var out: [ExploreItem] = []
        var count: [Int64: Int] = [:]
        for (r, e, a) in ranked where out.count < 50 && count[a, default: 0] < 2 {
            count[a, default: 0] += 1
            let favorite = u.favorites.contains(a)
            let because = favorite ? [a] : why[a]!.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(3).map(\.0)
            out.append(ExploreItem(event: e.idString, score: r, artist: a, because: because,
                                   reason: favorite ? .favorite : .affinity, distanceKm: distance(u, e)))
        }
        guard out.count < 10 else { return out }
        let m = meanStars
        var popular: [(Double, FeedEvent)] = []
        for l in events where isOpen(u, l.event) && !out.contains(where: { $0.event == l.event.idString }) {
            let score = pop(l.event, m) * exp(-days(l.event) / 21) * (located ? exp(-(distance(u, l.event) ?? 0) / 40) : 1)
            popular.append((score, l.event))
        }
        popular.sort(by: Self.ordered)
        for (score, e) in popular where out.count < 10 {
            if let h = e.headliner {
                guard out.filter({ $0.artist == h }).count < backfillCap else { continue }
            }
            out.append(ExploreItem(event: e.idString, score: score, artist: e.headliner, because: nil, reason: .popular,
                                   distanceKm: distance(u, e)))
        }
        return out
    }

    func feed(_ u: TicketsUser) -> [FeedItem] {
        var list: [FeedEvent] = events.map(\.event).filter { e in upcoming(e) && e.artists.contains(where: u.favorites.contains) }
        list.sort { a, b in a.startsAt != b.startsAt ? a.startsAt < b.startsAt : a.idString < b.idString }
        var out: [FeedItem] = []
        for e in list.prefix(100) {
            var artists: [Int64] = []
            for a in e.artists where u.favorites.contains(a) && !artists.contains(a) { artists.append(a) }
            out.append(FeedItem(event: e.idString, artists: artists, distanceKm: distance(u, e), following: u.follows.contains(e.id)))
        }
        return out
    }

    func tonight(_ u: TicketsUser) -> [TonightItem] {
        guard u.lat != nil else { return [] }
        let (s, _) = scores(u)
        let from = Int64(runDate) * 86_400 + 17 * 3600, until = Int64(runDate + 1) * 86_400 + 4 * 3600
        var list: [(Double, FeedEvent, Int64, Double)] = []
        for l in events {
            let e = l.event
            guard let local = l.localStart, !e.timeTBA, l.timeZone != nil, local >= from, local < until, e.startsAt >= asOf,
                  e.onsale.kind != .date || e.onsale.at! <= asOf, inReach(u, e), affordable(u, e), !u.dismissed.contains(e.id),
                  let a = best(e, s), let d = distance(u, e) else { continue }
            list.append((s[a]! * exp(-d / 40), e, a, d))
        }
        list.sort { Self.ordered(($0.0, $0.1), ($1.0, $1.1)) }
        return list.prefix(3).map { TonightItem(event: $0.1.idString, score: $0.0, artist: $0.2, distanceKm: $0.3) }
    }
}
