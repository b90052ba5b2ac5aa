extension TicketsRanker {
    /// The explore deck from `candidates`, in rank order, at most `perArtist` items per
    /// headliner and `exploreSize` in all.
    ///
    /// Users who favour popular artists have thousands of candidates and the deck takes a
    /// few dozen: sorting them all was a quarter of the ranking's instructions. A binary
    /// heap (built in O(n)) gives the same items in the same order, since the rank order
    /// is total (score, startsAt, then the unique event id), at O(log n) per item taken.
    mutating func fillExplore() {
        if candidates.count <= fullSortLimit {
            candidates.sort { Self.ranksBefore($0.event, $0.score, $1.event, $1.score) }
            for k in candidates.indices where !addToExplore(candidates[k]) { break }
            return
        }
        // The buffer leaves `self` while the heap works on it, so that taking an item
        // (which mutates the lists) does not overlap an access to `candidates`.
        var heap: [Candidate] = []
        swap(&heap, &candidates)
        defer { swap(&heap, &candidates) }
        let before = { (x: Candidate, y: Candidate) -> Bool in
            Self.ranksBefore(x.event, x.score, y.event, y.score)
        }
        var end = heap.count
        for i in stride(from: end / 2 - 1, through: 0, by: -1) { Self.siftDown(&heap, i, end, before) }
        while end > 0 {
            let top = heap[0]
            end -= 1
            heap.swapAt(0, end)
            Self.siftDown(&heap, 0, end, before)
            if !addToExplore(top) { break }
        }
    }

    /// Restores the heap property below `i` within `heap[..<end]`: what `before` puts first
    /// on top (the deck's heap, first ranked; a place order's, `sortHead`, last ranked).
    @inline(__always)
    static func siftDown<T>(_ heap: inout [T], _ i: Int, _ end: Int, _ before: (T, T) -> Bool) {
        var i = i
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < end && before(heap[l], heap[best]) { best = l }
            if r < end && before(heap[r], heap[best]) { best = r }
            if best == i { return }
            heap.swapAt(i, best)
            i = best
        }
    }

    /// Adds a candidate unless its headliner has `perArtist` items already; false once the
    /// deck is full (nothing was added).
    @inline(__always)
    mutating func addToExplore(_ x: Candidate) -> Bool {
        if lists.explore.count >= settings.exploreSize { return false }
        let a = index.artistIDs[Int(x.artist)]
        guard perArtist[a] < settings.perArtist else { return true }
        perArtist.add(a)
        let favorite = isFavorite(x.artist)
        lists.explore.append(ExploreEntry(
            event: x.event, id: index.events[Int(x.event)].id, score: x.score, artist: a, because: favorite ? Because(a) : because(x.artist),
            reason: favorite ? .favorite : .affinity, distanceKm: x.distance))
        return true
    }

    /// Adds an explore candidate unless its a* has `perArtist` better ones already; a
    /// better one replaces the a*'s last ranked (in place: the order of `candidates` does not
    /// matter). a* is a touched artist (s > 0), so its count was reset with the scores.
    /// Like the heap, this takes the rank order as total; scores within 1e-9 of each other
    /// compare equal (`ScoreOrder`), so a chain of three such near-ties is where two ways of
    /// ordering could part (none on realistic `full`: its lists are byte-identical).
    @inline(__always)
    mutating func keep(_ c: Candidate) {
        candidatesFound += 1
        let k = keptPerArtist
        guard k > 0, cutsPerArtist else {
            candidates.append(c)
            return
        }
        let a = Int(c.artist), base = a * k
        let n = Int(artists[a].kept)
        if n < k {
            keptSlots[base + n] = Int32(candidates.count)
            artists[a].kept += 1
            candidates.append(c)
            return
        }
        var last = Int(keptSlots[base])
        for j in 1..<k {
            let s = Int(keptSlots[base + j])
            if Self.ranksBefore(candidates[last].event, candidates[last].score, candidates[s].event, candidates[s].score) { last = s }
        }
        if Self.ranksBefore(c.event, c.score, candidates[last].event, candidates[last].score) { candidates[last] = c }
    }
}
