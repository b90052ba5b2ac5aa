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

    /// The ids as a buffer (no array).
    package func withIDs<R>(_ body: (UnsafeBufferPointer<Int64>) -> R) -> R {
        withUnsafeBytes(of: ids) { body(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: Int64.self), count: count)) }
    }
}

/// A card of the explore deck.
package struct ExploreEntry: Sendable, Equatable {
    package var event: Int32
    /// The event's id (written from the number: no per-event text is read).
    package var id: UInt64
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
    package var id: UInt64
    package var artists: Range<Int>
    /// Only published, never ranked on: accurate to the hundredth it is written with
    /// (`GeoDistance.publishedKm`), not to the bit.
    package var distanceKm: Double?
    package var following: Bool
}

/// One of tonight's picks.
package struct TonightEntry: Sendable, Equatable {
    package var event: Int32
    package var id: UInt64
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
    }

    /// The most bytes of an item besides its artist lists: field names, punctuation, the
    /// event id, three numbers of at most 24 bytes, a reason (generous).
    private static let itemBound = 256
    private static let perID = JSONCursor.maxIntBytes + 1

    @inline(__always)
    private static func eventField(_ id: UInt64, _ c: inout JSONCursor) {
        c.byte(UInt8(ascii: "{"))
        c.key(Field.event)
        c.eventID(id)
    }

    @inline(__always)
    private static func field(_ k: JSONWriter.FieldName, _ c: inout JSONCursor) {
        c.byte(UInt8(ascii: ","))
        c.key(k)
    }

    /// `,"distanceKm":d` when known.
    @inline(__always)
    private static func distance(_ d: Double?, _ c: inout JSONCursor) {
        guard let d else { return }
        field(Field.distanceKm, &c)
        c.double(d, .distance)
    }

    /// Appends the `explore` record of snapshots.md to `w` (no newline); false, writing
    /// nothing, for an empty list. The items are written in one run (`JSONWriter.elements`).
    package func writeExplore(user: String, to w: inout JSONWriter) -> Bool {
        guard !explore.isEmpty else { return false }
        let bound = explore.count * (1 + Self.itemBound + 3 * Self.perID)
        w.beginKeyedList(user)
        w.elements(maxBytes: bound) { c in
            for (n, x) in explore.enumerated() {
                if n > 0 { c.byte(UInt8(ascii: ",")) }
                Self.eventField(x.id, &c)
                Self.field(Field.score, &c)
                c.double(x.score, .score)
                if let a = x.artist {
                    Self.field(Field.artist, &c)
                    c.int(a)
                }
                if x.because.count > 0 {
                    Self.field(Field.because, &c)
                    x.because.withIDs { c.ints($0) }
                }
                Self.field(Field.reason, &c)
                let reason: StaticString = switch x.reason {
                case .favorite: #""favorite""#
                case .affinity: #""affinity""#
                case .popular: #""popular""#
                }
                reason.withUTF8Buffer { c.bytes(UnsafeRawBufferPointer($0)) }
                Self.distance(x.distanceKm, &c)
                c.byte(UInt8(ascii: "}"))
            }
        }
        w.closeKeyedList()
        return true
    }

    /// Appends the `feed` record; false for an empty list.
    package func writeFeed(user: String, to w: inout JSONWriter) -> Bool {
        guard !feed.isEmpty else { return false }
        let bound = feed.count * (1 + Self.itemBound) + feedArtists.count * Self.perID
        w.beginKeyedList(user)
        feedArtists.withUnsafeBufferPointer { artists in
            w.elements(maxBytes: bound) { c in
                for (n, x) in feed.enumerated() {
                    if n > 0 { c.byte(UInt8(ascii: ",")) }
                    Self.eventField(x.id, &c)
                    Self.field(Field.artists, &c)
                    c.ints(UnsafeBufferPointer(rebasing: artists[x.artists]))
                    Self.distance(x.distanceKm, &c)
                    if x.following {  // false by default: written only when true
                        Self.field(Field.following, &c)
                        c.bool(true)
                    }
                    c.byte(UInt8(ascii: "}"))
                }
            }
        }
        w.closeKeyedList()
        return true
    }

    /// Appends the `tonight` record; false for an empty list.
    package func writeTonight(user: String, to w: inout JSONWriter) -> Bool {
        guard !tonight.isEmpty else { return false }
        let bound = tonight.count * (1 + Self.itemBound)
        w.beginKeyedList(user)
        w.elements(maxBytes: bound) { c in
            for (n, x) in tonight.enumerated() {
                if n > 0 { c.byte(UInt8(ascii: ",")) }
                Self.eventField(x.id, &c)
                Self.field(Field.score, &c)
                c.double(x.score, .score)
                Self.field(Field.artist, &c)
                c.int(x.artist)
                Self.distance(x.distanceKm, &c)
                c.byte(UInt8(ascii: "}"))
            }
        }
        w.closeKeyedList()
        return true
    }
}
