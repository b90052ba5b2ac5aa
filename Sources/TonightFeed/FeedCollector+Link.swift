import TonightCore

extension FeedCollector {
    /// Resolves references once every section is read (the parser must not depend on the
    /// order of sections): unknown venues reject the event, unknown artists and categories
    /// are dropped from the record and counted.
    mutating func link() {
        let categoryIDs = Set(categories.map(\.id))
        for i in categories.indices {
            // A parent that is not in this feed is kept (category ids are stable across
            // feeds and the roots are well known) but counted.
            if let p = categories[i].parent, !categoryIDs.contains(p) { warn("unknown-parent-category") }
        }
        for i in artists.indices {
            if let c = artists[i].category, !categoryIDs.contains(c) { warn("unknown-artist-category") }
        }
        let artistIDs = Set(artists.map(\.id))
        let venueIDs = Set(venues.map(\.id))
        var kept: [FeedEvent] = []
        kept.reserveCapacity(events.count)
        for (i, var e) in events.enumerated() {
            guard venueIDs.contains(e.venue) else {
                rejects.append(
                    FeedRejection(
                        section: "events", id: e.idString, line: e.line, reason: "unknown-venue",
                        detail: "VenueID \(e.venue) names no kept venue"))
                rejectCount[FeedSection.events.rawValue] += 1
                continue
            }
            if let c = e.category, !categoryIDs.contains(c) {
                e.category = nil
                warn("unknown-category")
            }
            let flags = primaryFlags[i]
            var artists: [Int64] = []
            artists.reserveCapacity(e.artists.count)
            var headliner: Int64?
            for (j, a) in e.artists.enumerated() {
                guard artistIDs.contains(a) else {
                    warn("unknown-artist")
                    continue
                }
                artists.append(a)
                if headliner == nil, j < flags.count, flags[j] { headliner = a }
            }
            e.artists = artists
            e.headliner = headliner
            kept.append(e)
        }
        events = kept
        primaryFlags = []
        rejects.sort { ($0.line, $0.section) < ($1.line, $1.section) }
    }
}
