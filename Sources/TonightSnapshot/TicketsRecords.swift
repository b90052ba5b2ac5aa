/// A card of a user's explore deck (dataset `explore`).
public struct ExploreItem: Codable, Sendable, Equatable {
    /// Event id.
    public var event: String
    /// The ranking score r(e) (or the popularity score for `popular` items).
    public var score: Double
    /// The artist the card is for (a*), or the headliner of a popular item.
    public var artist: Int64?
    /// The user's favourites that led to this artist (at most 3).
    public var because: [Int64]?
    /// `favorite`, `affinity` or `popular`.
    public var reason: String
    /// Great-circle km from the user, when both places are known.
    public var distanceKm: Double?

    /// Creates an item (for tests and fakes of services).
    public init(event: String, score: Double, artist: Int64?, because: [Int64]?, reason: String, distanceKm: Double?) {
        self.event = event
        self.score = score
        self.artist = artist
        self.because = because
        self.reason = reason
        self.distanceKm = distanceKm
    }
}

/// An event of a user's favourites feed (dataset `feed`).
public struct FeedItem: Codable, Sendable, Equatable {
    /// Event id.
    public var event: String
    /// The user's favourites performing.
    public var artists: [Int64]
    /// Great-circle km from the user, when both places are known.
    public var distanceKm: Double?
    /// Whether the user follows the event.
    public var following: Bool

    /// Creates an item (for tests and fakes of services).
    public init(event: String, artists: [Int64], distanceKm: Double?, following: Bool) {
        self.event = event
        self.artists = artists
        self.distanceKm = distanceKm
        self.following = following
    }
}

/// One of tonight's notification picks (dataset `tonight`).
public struct TonightItem: Codable, Sendable, Equatable {
    /// Event id.
    public var event: String
    /// The ranking score (higher first).
    public var score: Double
    /// Artist id.
    public var artist: Int64
    /// Great-circle km from the user, when both places are known.
    public var distanceKm: Double?

    /// Creates an item (for tests and fakes of services).
    public init(event: String, score: Double, artist: Int64, distanceKm: Double?) {
        self.event = event
        self.score = score
        self.artist = artist
        self.distanceKm = distanceKm
    }
}

/// A change to an event the user follows (dataset `alerts`).
public struct AlertItem: Codable, Sendable, Equatable {
    /// Event id.
    public var event: String
    /// `removed`, `venue-changed`, `time-changed` or `status-changed`.
    public var kind: String
    /// The value before (venue id, start time or status as text), if any.
    public var old: String?
    /// The value now, if any.
    public var new: String?

    /// Creates an alert (for tests and fakes of services).
    public init(event: String, kind: String, old: String?, new: String?) {
        self.event = event
        self.kind = kind
        self.old = old
        self.new = new
    }
}

/// The `{key, items}` shape of every per-key list dataset.
struct ItemList<Item: Decodable>: Decodable {
    var items: [Item]
}
