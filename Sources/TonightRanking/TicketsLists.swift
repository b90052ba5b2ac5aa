import TonightCore

/// A card of the explore deck.
package struct ExploreEntry: Sendable, Equatable {
    package var event: Int32
    package var score: Double
    package var artist: Int64?
    package var because: [Int64]
    /// `favorite`, `affinity` or `popular`.
    package var reason: String
    package var distanceKm: Double?
}

/// An event of the favourites feed.
package struct FeedEntry: Sendable, Equatable {
    package var event: Int32
    package var artists: [Int64]
    package var distanceKm: Double?
    package var following: Bool
}

/// One of tonight's picks.
package struct TonightEntry: Sendable, Equatable {
    package var event: Int32
    package var score: Double
    package var artist: Int64
    package var distanceKm: Double?
}

/// One user's three lists (alerts are computed apart, against the published snapshot).
package struct TicketsLists: Sendable, Equatable {
    package var explore: [ExploreEntry] = []
    package var feed: [FeedEntry] = []
    package var tonight: [TonightEntry] = []

    package init() {}
}

extension TicketsLists {
    /// The `explore` record of snapshots.md, or nil for an empty list.
    package func exploreJSON(user: String, _ index: EventIndex, _ w: inout JSONWriter) -> [UInt8]? {
        guard !explore.isEmpty else { return nil }
        w.beginKeyedList(user)
        for x in explore {
            w.beginObject()
            w.field("event", index.idStrings[Int(x.event)])
            w.field("score", x.score)
            w.field("artist", x.artist)
            if !x.because.isEmpty { w.field("because", ints: x.because) }
            w.field("reason", x.reason)
            w.field("distanceKm", x.distanceKm)
            w.endObject()
        }
        return w.endKeyedList()
    }

    package func feedJSON(user: String, _ index: EventIndex, _ w: inout JSONWriter) -> [UInt8]? {
        guard !feed.isEmpty else { return nil }
        w.beginKeyedList(user)
        for x in feed {
            w.beginObject()
            w.field("event", index.idStrings[Int(x.event)])
            w.field("artists", ints: x.artists)
            w.field("distanceKm", x.distanceKm)
            w.field("following", x.following)
            w.endObject()
        }
        return w.endKeyedList()
    }

    package func tonightJSON(user: String, _ index: EventIndex, _ w: inout JSONWriter) -> [UInt8]? {
        guard !tonight.isEmpty else { return nil }
        w.beginKeyedList(user)
        for x in tonight {
            w.beginObject()
            w.field("event", index.idStrings[Int(x.event)])
            w.field("score", x.score)
            w.field("artist", x.artist)
            w.field("distanceKm", x.distanceKm)
            w.endObject()
        }
        return w.endKeyedList()
    }
}
