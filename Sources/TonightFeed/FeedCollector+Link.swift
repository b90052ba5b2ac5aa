import TonightCore

extension FeedCollector {
    /// Resolves references once every section is read (the parser must not depend on the
    /// order of sections): unknown venues reject the event, unknown artists and categories
    /// (of events and of artists) are dropped from the record and counted.
    /// The artists' and categories' own references (parents, artist categories): run
    /// before those tables are handed out, since they are final once this is done.
    mutating func linkReferenceTables() {
        let categoryIDs = keptIDs(.categories)
        for i in categories.indices {
            // A parent that is not in this feed is dropped and counted: no published record
            // points at a category the snapshot does not hold.
            if let p = categories[i].parent, !categoryIDs.contains(p) {
                categories[i].parent = nil
                warn("unknown-parent-category")
            }
        }
        for i in artists.indices {
            // Dropped, as for events: no published record may point at a missing category.
            if let c = artists[i].category, !categoryIDs.contains(c) {
                artists[i].category = nil
                warn("unknown-artist-category")
            }
        }
    }

    /// The events' references: run after `linkReferenceTables`.
    mutating func link() {
        let categoryIDs = keptIDs(.categories)
        let artistIDs = keptIDs(.artists)
        let venueIDs = keptIDs(.venues)
        // Compacted in place: kept events move down over rejected ones.
        var k = 0
        for i in events.indices {
            guard venueIDs.contains(events[i].venue) else {
                rejects.append(
                    FeedRejection(
                        section: "events", id: events[i].idString, line: events[i].line, reason: "unknown-venue",
                        detail: "VenueID \(events[i].venue) names no kept venue"))
                rejectCount[FeedSection.events.rawValue] += 1
                continue
            }
            if let c = events[i].category, !categoryIDs.contains(c) {
                events[i].category = nil
                warn("unknown-category")
            }
            let flags = primaryFlags[i]
            var headliner: Int64?
            var known = true
            for (j, a) in events[i].artists.enumerated() {
                if !artistIDs.contains(a) { known = false; continue }
                if headliner == nil, j < flags.count, flags[j] { headliner = a }
            }
            if !known {
                let before = events[i].artists.count
                events[i].artists.removeAll { !artistIDs.contains($0) }
                warn("unknown-artist", before - events[i].artists.count)
            }
            events[i].headliner = headliner
            if k != i { events.swapAt(k, i) }
            k += 1
        }
        events.removeLast(events.count - k)
        primaryFlags = []
        rejects.sort { ($0.line, $0.section) < ($1.line, $1.section) }
    }
}
