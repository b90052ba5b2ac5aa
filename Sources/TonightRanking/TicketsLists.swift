import TonightCore

/// Why an explore card is there.
package enum ExploreReason: UInt8, Sendable {
    case favorite, affinity, popular

    /// The JSON string of snapshots.md.
    package var name: String {
        switch self {
        case .favorite: "favorite"
        case .affinity: "affinity"
        case .popular: "popular"
        }
    }
}

/// `because` of an explore card: at most three artist ids, kept inline (no array per card).
package struct Because: Sendable, Equatable {
    package private(set) var count = 0
    private var ids = SIMD3<Int64>()

    package init() {}

    package init(_ id: Int64) {
        append(id)
    }

    package mutating func append(_ id: Int64) {
        precondition(count < 3, "because holds at most 3 artists")
        ids[count] = id
        count += 1
    }

    package subscript(_ i: Int) -> Int64 { ids[i] }

    package var array: [Int64] { (0..<count).map { ids[$0] } }
}

/// A card of the explore deck.
package struct ExploreEntry: Sendable, Equatable {
    package var event: Int32
    package var score: Double
    package var artist: Int64?
    package var because: Because
    package var reason: ExploreReason
    package var distanceKm: Double?
}

/// An event of the favourites feed; its performing favourites are
/// `TicketsLists.feedArtists[artists]`.
package struct FeedEntry: Sendable, Equatable {
    package var event: Int32
    package var artists: Range<Int>
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

/// One user's three lists (alerts are computed apart, against the published snapshot). A
/// ranker reuses one value from user to user, so its storage is allocated once per thread.
package struct TicketsLists: Sendable, Equatable {
    package var explore: [ExploreEntry] = []
    package var feed: [FeedEntry] = []
    package var feedArtists: [Int64] = []
    package var tonight: [TonightEntry] = []

    package init() {}

    /// Empties the lists, keeping their storage.
    package mutating func removeAll() {
        explore.removeAll(keepingCapacity: true)
        feed.removeAll(keepingCapacity: true)
        feedArtists.removeAll(keepingCapacity: true)
        tonight.removeAll(keepingCapacity: true)
    }
}

extension TicketsLists {
    private enum Field {
        static let event = JSONWriter.FieldName("event")
        static let score = JSONWriter.FieldName("score")
        static let artist = JSONWriter.FieldName("artist")
        static let artists = JSONWriter.FieldName("artists")
        static let because = JSONWriter.FieldName("because")
        static let reason = JSONWriter.FieldName("reason")
        static let distanceKm = JSONWriter.FieldName("distanceKm")
        static let following = JSONWriter.FieldName("following")
        static let reasons: [[UInt8]] = [ExploreReason.favorite, .affinity, .popular].map { r in
            var w = JSONWriter()
            w.value(r.name)
            return w.bytes
        }
    }

    /// Appends the `explore` record of snapshots.md to `w` (no newline); false, writing
    /// nothing, for an empty list.
    package func writeExplore(user: String, _ index: EventIndex, to w: inout JSONWriter) -> Bool {
        guard !explore.isEmpty else { return false }
        w.beginKeyedList(user)
        for x in explore {
            w.beginObject()
            w.key(Field.event)
            w.raw(index.idJSON.values, index.idJSON.range(Int(x.event)))
            w.key(Field.score)
            w.value(x.score)
            if let a = x.artist {
                w.key(Field.artist)
                w.value(a)
            }
            if x.because.count > 0 {
                w.key(Field.because)
                w.beginArray()
                for k in 0..<x.because.count { w.value(x.because[k]) }
                w.endArray()
            }
            w.key(Field.reason)
            w.raw(Field.reasons[Int(x.reason.rawValue)])
            if let d = x.distanceKm {
                w.key(Field.distanceKm)
                w.value(d)
            }
            w.endObject()
        }
        w.closeKeyedList()
        return true
    }

    /// Appends the `feed` record; false for an empty list.
    package func writeFeed(user: String, _ index: EventIndex, to w: inout JSONWriter) -> Bool {
        guard !feed.isEmpty else { return false }
        w.beginKeyedList(user)
        for x in feed {
            w.beginObject()
            w.key(Field.event)
            w.raw(index.idJSON.values, index.idJSON.range(Int(x.event)))
            w.key(Field.artists)
            w.beginArray()
            for a in feedArtists[x.artists] { w.value(a) }
            w.endArray()
            if let d = x.distanceKm {
                w.key(Field.distanceKm)
                w.value(d)
            }
            w.key(Field.following)
            w.value(x.following)
            w.endObject()
        }
        w.closeKeyedList()
        return true
    }

    /// Appends the `tonight` record; false for an empty list.
    package func writeTonight(user: String, _ index: EventIndex, to w: inout JSONWriter) -> Bool {
        guard !tonight.isEmpty else { return false }
        w.beginKeyedList(user)
        for x in tonight {
            w.beginObject()
            w.key(Field.event)
            w.raw(index.idJSON.values, index.idJSON.range(Int(x.event)))
            w.key(Field.score)
            w.value(x.score)
            w.key(Field.artist)
            w.value(x.artist)
            if let d = x.distanceKm {
                w.key(Field.distanceKm)
                w.value(d)
            }
            w.endObject()
        }
        w.closeKeyedList()
        return true
    }
}
