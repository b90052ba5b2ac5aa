import TonightBase
import TonightExports

extension TicketsRanker {
    /// Upcoming events with a favourite performing, anywhere, by startsAt then id: the first
    /// `feed.size` of the favourites' lists merged (each list is in index order, which is
    /// that order), so a user reads only the dates they get, each list from its start, where
    /// collecting every date of every favourite and sorting them read 3.6 times as many
    /// (realistic `full`: 243 M dates collected for at most 68 M items).
    mutating func feed(_ u: TicketsUserView, _ o: Origin?) {
        let dates = index.feedOfArtist
        feedMerge.removeAll()
        // Each favourite's list start and first date are misses: asked for first, so that
        // they overlap (as in `scoreArtists`).
        dates.prefetchHeads(favorites)
        for f in favorites {
            let r = dates.range(Int(f))
            guard !r.isEmpty else { continue }
            feedMerge.push(FeedMerge.Cursor(event: dates.values[r.lowerBound].event, at: Int32(r.lowerBound), end: Int32(r.upperBound), artist: f))
        }
        // The favourites' stamps (`isFavorite`) are this user's since `scoreArtists`.
        var last: Int32 = -1
        while lists.feed.count < settings.feedSize, var top = feedMerge.top {
            let f = dates.values[Int(top.at)]
            top.at += 1
            if top.at < top.end {
                top.event = dates.values[Int(top.at)].event
                feedMerge.replaceTop(top)
            } else {
                feedMerge.popTop()
            }
            // An event with several favourites performing comes once from each of their
            // lists, one after the other (the merge is in index order).
            guard f.event != last else { continue }
            last = f.event
            let start = lists.feedArtists.count
            if f.performersCount == 1 {
                // The event was reached through this favourite: its only performer.
                lists.feedArtists.append(index.artistIDs[Int(top.artist)])
            } else {
                for k in f.performers where isFavorite(index.dense.values[k]) {
                    let id = index.performers.values[k]
                    if !lists.feedArtists[start...].contains(id) { lists.feedArtists.append(id) }
                }
            }
            lists.feed.append(FeedEntry(
                event: f.event, id: f.id, artists: start..<lists.feedArtists.count, distanceKm: publishedDistance(o, f),
                following: u.follows.contains(f.id)))
        }
    }

    /// The distance to an event as published (the same hundredths as `distance`, which
    /// ranking uses: `GeoDistance.publishedKm`), for lists that only print it: from the
    /// feed's compact value, the event's record read only where the hundredth is in doubt.
    @inline(__always)
    func publishedDistance(_ o: Origin?, _ f: EventIndex.FeedEvent) -> Double? {
        guard let o, f.isPlaced else { return nil }
        if let d = GeoDistance.publishedKmWhenClear(cosLat1: o.cosLat, half1: o.half, cosLat2: f.cosLat, half2: f.half) { return d }
        return distance(o, index.events[Int(f.event)])
    }
}
