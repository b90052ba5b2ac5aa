import Foundation
import TonightBase
import TonightExports

extension TicketsRanker {
    /// Popular backfill up to `minItems`: upcoming, in reach, affordable, not followed or
    /// dismissed, not listed; by pop·timeFactor·distance factor; cap on the headliner.
    /// Without a location the global popularity order is final; a place shared by several
    /// users walks its cached order; any other place takes `exactBackfill`.
    mutating func backfill(_ u: TicketsUserView, _ o: Origin?, place: Int32) {
        let need = settings.minItems - lists.explore.count
        chosen.removeAll(keepingCapacity: true)
        if let o {
            // A place shared by several users: walk its order (computed once for all the
            // rankers) with this user's filters.
            let cached = place >= 0 ? places?.order(place) { placeOrder(o) } : nil
            if let cached {
                caps.copy(from: perArtist)
                for c in cached.events where chosen.count < need {
                    let e = index.events[Int(c.event)]
                    guard !isListed(c.event), !u.follows.contains(e.id), !u.dismissed.contains(e.id) else { continue }
                    if let max = u.maxPrice, let p = e.priceMin, p > max { continue }
                    if let h = e.headliner {
                        guard caps[h] < settings.perArtist else { continue }
                        caps.add(h)
                    }
                    chosen.append(c)
                }
                if chosen.count < need && !cached.complete { exactBackfill(u, o, need: need) }
            } else {
                exactBackfill(u, o, need: need)
            }
        } else {
            // popularOrder is the final order here (no distance factor): take greedily.
            caps.copy(from: perArtist)
            for i in index.popularOrder where chosen.count < need {
                guard eligible(u, nil, i).ok else { continue }
                let e = index.events[Int(i)]
                if let h = e.headliner {
                    guard caps[h] < settings.perArtist else { continue }
                    caps.add(h)
                }
                chosen.append(Popular(event: i, score: e.pop * e.timeFactor, distance: nil))
            }
        }
        // The chosen popular items (the headliner is the item's artist).
        for c in chosen {
            let e = index.events[Int(c.event)]
            if let h = e.headliner { perArtist.add(h) }
            lists.explore.append(ExploreEntry(
                event: c.event, id: e.id, score: c.score, artist: e.headliner, because: Because(), reason: .popular, distanceKm: c.distance))
        }
    }

    /// Already a card of the deck (at most `minItems` cards: a scan beats a set).
    @inline(__always)
    func isListed(_ i: Int32) -> Bool { lists.explore.contains { $0.event == i } }

    /// A popular candidate for this user: not listed, followed or dismissed, in reach and
    /// affordable (with the distance when known).
    @inline(__always)
    func eligible(_ u: TicketsUserView, _ o: Origin?, _ i: Int32) -> (ok: Bool, distance: Double?) {
        let e = index.events[Int(i)]
        guard !isListed(i), !u.follows.contains(e.id), !u.dismissed.contains(e.id) else { return (false, nil) }
        return reachable(u, o, e)
    }

    /// Greedy selection with the headliner cap over `pool` (in rank order) into `chosen`.
    mutating func selectFromPool(need: Int) {
        caps.copy(from: perArtist)
        chosen.removeAll(keepingCapacity: true)
        for c in pool where chosen.count < need {
            if let h = index.events[Int(c.event)].headliner {
                guard caps[h] < settings.perArtist else { continue }
                caps.add(h)
            }
            chosen.append(c)
        }
    }

    mutating func sortPool() {
        pool.sort { Self.ranksBefore($0.event, $0.score, $1.event, $1.score) }
    }

    /// Puts the first `k` of `pool` in rank order at its front (the rest behind them in no
    /// order); the whole pool sorted when it holds `k` or fewer. A heap of the best `k` met so
    /// far, the last ranked on top, takes each later entry that ranks before its top; then the
    /// `k` are sorted. The same first `k` as a sort of the whole pool, since the rank order is
    /// total (event ids break ties), in about n comparisons instead of n log n: a place's
    /// in-reach events are often thousands, of which its order keeps `placeDepth`.
    static func sortHead(_ pool: inout [Popular], _ k: Int) {
        let n = pool.count
        guard k > 0, n > k else {
            pool.sort { ranksBefore($0.event, $0.score, $1.event, $1.score) }
            return
        }
        // The heap's top is the last ranked of the best `k` so far.
        let after = { (x: Popular, y: Popular) -> Bool in ranksBefore(y.event, y.score, x.event, x.score) }
        for i in stride(from: k / 2 - 1, through: 0, by: -1) { siftDown(&pool, i, k, after) }
        for i in k..<n where ranksBefore(pool[i].event, pool[i].score, pool[0].event, pool[0].score) {
            pool.swapAt(0, i)
            siftDown(&pool, 0, k, after)
        }
        pool[..<k].sort { ranksBefore($0.event, $0.score, $1.event, $1.score) }
    }

    /// Every in-reach upcoming event of a place by popular score (cut at `placeDepth`),
    /// without any user's own filters.
    mutating func placeOrder(_ o: Origin) -> PlaceOrder {
        index.popularCells(lat: o.lat, lon: o.lon, radiusKm: o.radius, into: &cells)
        pool.removeAll(keepingCapacity: true)
        for c in cells {
            for k in index.cellsByPopularity.range(Int(c)) {
                let p = index.cellsByPopularity.values[k]
                guard let d = distanceInReach(o, p.lat, p.lon, cosLat: p.cosLat) else { continue }
                pool.append(Popular(event: p.event, score: p.bound * exp(-d / settings.distanceDecayKm), distance: d))
            }
        }
        Self.sortHead(&pool, Self.placeDepth)
        // A copy of its own, sized to fit: `Array(pool.prefix(n))` shares `pool`'s buffer
        // when the prefix is the whole pool, so every cached order of a complete place kept
        // a buffer of the pool's full capacity alive, and the next `pool.removeAll(keepingCapacity:)`,
        // finding it shared, allocated a fresh one (on realistic `full`, 3.6 GB of such
        // buffers held at the peak, half a gigabyte of it resident: pages faulted in and zeroed).
        let kept = min(pool.count, Self.placeDepth)
        var events: [Popular] = []
        events.reserveCapacity(kept)
        events.append(contentsOf: pool[..<kept])
        return PlaceOrder(events: events, complete: pool.count <= Self.placeDepth)
    }

    /// The exact backfill for a located user into `chosen`: events in decreasing
    /// pop·timeFactor (an upper bound of their score), merged from the user's cells, stopping
    /// once no unseen event could still be selected.
    mutating func exactBackfill(_ u: TicketsUserView, _ o: Origin, need: Int) {
        index.popularCells(lat: o.lat, lon: o.lon, radiusKm: o.radius, into: &cells)
        heads.removeAll(keepingCapacity: true)
        heap.removeAll()
        for (k, c) in cells.enumerated() {
            let range = index.cellsByPopularity.range(Int(c))
            heads.append(range.lowerBound)
            if !range.isEmpty { heap.push(bound: index.cellsByPopularity.values[range.lowerBound].bound, cell: k) }
        }
        pool.removeAll(keepingCapacity: true)
        var nextCheck = need
        while let (bound, k) = heap.top {
            // Stopping later is always correct; check only as the pool grows by half.
            if pool.count >= nextCheck {
                sortPool()
                selectFromPool(need: need)
                if chosen.count == need, let last = chosen.last, bound < last.score * (1 - 1e-8) { break }
                nextCheck = pool.count + max(2, pool.count / 2)
            }
            let p = index.cellsByPopularity.values[heads[k]]
            heads[k] += 1
            let end = index.cellsByPopularity.range(Int(cells[k])).upperBound
            heap.replaceTop(heads[k] < end ? (index.cellsByPopularity.values[heads[k]].bound, k) : nil)
            // `eligible`'s tests, the place first, all from the cell's list.
            guard let d = distanceInReach(o, p.lat, p.lon, cosLat: p.cosLat) else { continue }
            guard !isListed(p.event), !u.follows.contains(p.id), !u.dismissed.contains(p.id) else { continue }
            if let max = u.maxPrice, p.priceMin > max { continue }
            pool.append(Popular(event: p.event, score: p.bound * exp(-d / settings.distanceDecayKm), distance: d))
        }
        sortPool()
        selectFromPool(need: need)
    }
}
