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
    /// The items' field names, read once per record (`fields` is a global: every read of
    /// one is a `swift_once` call, and an item has four to six names), each with the
    /// punctuation before it: `{"event":` opens an item, `,"score":` and the others follow a
    /// member.
    private struct Fields {
        let event = JSONWriter.FieldName("event", prefix: "{")
        let score = JSONWriter.FieldName("score", prefix: ",")
        let artist = JSONWriter.FieldName("artist", prefix: ",")
        let artists = JSONWriter.FieldName("artists", prefix: ",")
        let because = JSONWriter.FieldName("because", prefix: ",")
        let reason = JSONWriter.FieldName("reason", prefix: ",")
        let distanceKm = JSONWriter.FieldName("distanceKm", prefix: ",")
        let following = JSONWriter.FieldName("following", prefix: ",")
    }

    private static let fields = Fields()

    /// The most bytes of an item besides its artist lists: field names, punctuation, the
    /// event id, three numbers of at most 24 bytes, a reason (generous).
    private static let itemBound = 256
    private static let perID = JSONCursor.maxIntBytes + 1

    /// `{"event":"…"`.
    @inline(__always)
    private static func eventField(_ id: UInt64, _ f: borrowing Fields, _ c: inout JSONCursor) {
        c.key(f.event)
        c.eventID(id)
    }

    /// `,"name":` (the names carry their comma).
    @inline(__always)
    private static func field(_ k: JSONWriter.FieldName, _ c: inout JSONCursor) {
        c.key(k)
    }

    /// `,"distanceKm":d` when known.
    @inline(__always)
    private static func distance(_ d: Double?, _ f: borrowing Fields, _ c: inout JSONCursor) {
        guard let d else { return }
        field(f.distanceKm, &c)
        c.double(d, .distance)
    }

    /// Appends the `explore` record of snapshots.md to `w` (no newline); false, writing
    /// nothing, for an empty list. The items are written in one run (`JSONWriter.elements`).
    package func writeExplore(user: String, to w: inout JSONWriter) -> Bool {
        guard !explore.isEmpty else { return false }
        let f = Self.fields
        let bound = explore.count * (1 + Self.itemBound + 3 * Self.perID)
        w.beginKeyedList(user)
        w.elements(maxBytes: bound) { c in
            for (n, x) in explore.enumerated() {
                if n > 0 { c.byte(UInt8(ascii: ",")) }
                Self.eventField(x.id, f, &c)
                Self.field(f.score, &c)
                c.double(x.score, .score)
                if let a = x.artist {
                    Self.field(f.artist, &c)
                    c.int(a)
                }
                if x.because.count > 0 {
                    Self.field(f.because, &c)
                    x.because.withIDs { c.ints($0) }
                }
                Self.field(f.reason, &c)
                let reason: StaticString = switch x.reason {
                case .favorite: #""favorite""#
                case .affinity: #""affinity""#
                case .popular: #""popular""#
                }
                reason.withUTF8Buffer { c.bytes(UnsafeRawBufferPointer($0)) }
                Self.distance(x.distanceKm, f, &c)
                c.byte(UInt8(ascii: "}"))
            }
        }
        w.closeKeyedList()
        return true
    }

    /// Appends the `feed` record; false for an empty list.
    package func writeFeed(user: String, to w: inout JSONWriter) -> Bool {
        guard !feed.isEmpty else { return false }
        let f = Self.fields
        let bound = feed.count * (1 + Self.itemBound) + feedArtists.count * Self.perID
        w.beginKeyedList(user)
        feedArtists.withUnsafeBufferPointer { artists in
            w.elements(maxBytes: bound) { c in
                for (n, x) in feed.enumerated() {
                    if n > 0 { c.byte(UInt8(ascii: ",")) }
                    Self.eventField(x.id, f, &c)
                    Self.field(f.artists, &c)
                    c.ints(UnsafeBufferPointer(rebasing: artists[x.artists]))
                    Self.distance(x.distanceKm, f, &c)
                    if x.following {  // false by default: written only when true
                        Self.field(f.following, &c)
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
        let f = Self.fields
        let bound = tonight.count * (1 + Self.itemBound)
        w.beginKeyedList(user)
        w.elements(maxBytes: bound) { c in
            for (n, x) in tonight.enumerated() {
                if n > 0 { c.byte(UInt8(ascii: ",")) }
                Self.eventField(x.id, f, &c)
                Self.field(f.score, &c)
                c.double(x.score, .score)
                Self.field(f.artist, &c)
                c.int(x.artist)
                Self.distance(x.distanceKm, f, &c)
                c.byte(UInt8(ascii: "}"))
            }
        }
        w.closeKeyedList()
        return true
    }
}
