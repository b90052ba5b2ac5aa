import TonightExports

extension TicketsRanker {
    /// The explore candidates of a user without a place: every date of every touched artist,
    /// in reach whatever its place.
    mutating func collectUnplaced(_ u: TicketsUserView) {
        // Every date of every touched artist, from the artists' compact lists: a user
        // without a place reads no event record (most of this loop's time was the miss
        // on each date's record for its price).
        let listed = index.listedEventsOfArtist
        // Each artist's list start and first date are misses: asked for first, so that they
        // overlap (as in `scoreArtists`).
        listed.prefetchHeads(touched)
        for t in touched.indices {
            let a = Int(touched[t])
            guard artists[a].score > 0 else { continue }
            let r = listed.range(a)
            var k = r.lowerBound
            while k < r.upperBound {
                let l = listed.values[k]
                if l.performers == 1 && singlesAreDominated(a, from: l) { break }
                considerUnplaced(l, Int32(a), u)
                k += 1
            }
            // The artist's own dates left can no longer enter the deck: they are counted
            // as candidates (what `keep` would count), not kept.
            while k < r.upperBound {
                let l = listed.values[k]
                if l.performers == 1 {
                    if !(u.maxPrice.map { l.priceMin > $0 } ?? false), !u.dismissed.contains(l.id), !u.follows.contains(l.id) {
                        candidatesFound += 1
                    }
                } else {
                    considerUnplaced(l, Int32(a), u)
                }
                k += 1
            }
        }
    }

    /// Whether artist `a`'s own dates from `l` on (one performer, `a` itself) can no longer
    /// enter the deck of a user without a place: `a` has `perArtist` kept candidates and the
    /// last of them ranks before `l` by score alone (not a near-tie). An artist's dates are
    /// listed by start, so their time factors, and the scores `s(a)` times them, only fall:
    /// every later one-performer date of `a` ranks after it too. (The 390 listed dates per
    /// such user were read and kept or refused one by one.) The date's score is taken
    /// 1e-12 larger than computed: `exp` is within an ulp of the true value but not promised
    /// monotone, so a later date's time factor may exceed this one's by an ulp or two; with
    /// the slack, every later date is still below the last kept by more than a near-tie.
    @inline(__always)
    func singlesAreDominated(_ a: Int, from l: EventIndex.ListedEvent) -> Bool {
        let k = keptPerArtist
        guard k > 0, cutsPerArtist, Int(artists[a].kept) >= k else { return false }
        let base = a * k
        var worst = candidates[Int(keptSlots[base])].score
        for j in 1..<k { worst = min(worst, candidates[Int(keptSlots[base + j])].score) }
        return ScoreOrder.compare(worst, artists[a].score * l.timeFactor * (1 + 1e-12)) == -1
    }

    /// One upcoming event of a touched artist for a user without a place (each event once
    /// per user): `reachable` and `candidate` without a place (everything is in reach; no
    /// distance factor, which is 1; no tonight's picks, which need a place).
    @inline(__always)
    mutating func considerUnplaced(_ l: EventIndex.ListedEvent, _ a: Int32, _ u: TicketsUserView) {
        guard seen[Int(l.event)] != stamp else { return }
        seen[Int(l.event)] = stamp
        if let max = u.maxPrice, l.priceMin > max { return }
        guard let (best, sv) = bestArtist(l.event, only: l.performers == 1 ? a : nil) else { return }
        guard !u.dismissed.contains(l.id) && !u.follows.contains(l.id) else { return }
        keep(Candidate(event: l.event, score: sv * l.timeFactor, artist: best, distance: nil))
    }
}
