/// A card of a user's explore deck (dataset `explore`).
public struct ExploreItem: Codable, Sendable, Equatable {
    /// Why the card is in the deck.
    public enum Reason: Sendable, Equatable, Hashable, Codable, RawRepresentable {
        /// The artist is one of the user's favourites.
        case favorite
        /// The artist is recommended from the user's favourites (`because`).
        case affinity
        /// A popular event near the user, filling the deck.
        case popular
        /// A reason this version of the library does not know (a newer writer).
        case unknown(String)

        /// Creates a reason from its JSON text.
        public init(rawValue: String) {
            switch rawValue {
            case "favorite": self = .favorite
            case "affinity": self = .affinity
            case "popular": self = .popular
            default: self = .unknown(rawValue)
            }
        }

        /// The JSON text.
        public var rawValue: String {
            switch self {
            case .favorite: "favorite"
            case .affinity: "affinity"
            case .popular: "popular"
            case .unknown(let s): s
            }
        }
    }

    /// Event id.
    public var event: String
    /// The ranking score r(e) (or the popularity score for `popular` items).
    public var score: Double
    /// The artist the card is for (a*), or the headliner of a popular item.
    public var artist: Int64?
    /// The user's favourites that led to this artist (at most 3).
    public var because: [Int64]?
    /// Why the card is in the deck.
    public var reason: Reason
    /// Great-circle km from the user, when both places are known.
    public var distanceKm: Double?

    /// Creates an item (for tests and fakes of services).
    public init(event: String, score: Double, artist: Int64?, because: [Int64]?, reason: Reason, distanceKm: Double?) {
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
    /// Whether the user follows the event (written only when true; absent reads as false).
    public var following: Bool

    /// Creates an item (for tests and fakes of services).
    public init(event: String, artists: [Int64], distanceKm: Double?, following: Bool) {
        self.event = event
        self.artists = artists
        self.distanceKm = distanceKm
        self.following = following
    }

    private enum CodingKeys: String, CodingKey { case event, artists, distanceKm, following }

    /// Decodes an item; `following` may be absent (false), as the job writes it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        event = try c.decode(String.self, forKey: .event)
        artists = try c.decode([Int64].self, forKey: .artists)
        distanceKm = try c.decodeIfPresent(Double.self, forKey: .distanceKm)
        following = try c.decodeIfPresent(Bool.self, forKey: .following) ?? false
    }

    /// Encodes an item as the job writes it: `following` only when true.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event, forKey: .event)
        try c.encode(artists, forKey: .artists)
        try c.encodeIfPresent(distanceKm, forKey: .distanceKm)
        if following { try c.encode(true, forKey: .following) }
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
    /// What changed.
    public enum Kind: Sendable, Equatable, Hashable, Codable, RawRepresentable {
        /// The event left the feed (no old or new value).
        case removed
        /// The venue changed (values: venue ids).
        case venueChanged
        /// The start changed (values: ISO 8601 UTC instants).
        case timeChanged
        /// `EventStatus` changed (values: status codes).
        case statusChanged
        /// A kind this version of the library does not know (a newer writer).
        case unknown(String)

        /// Creates a kind from its JSON text.
        public init(rawValue: String) {
            switch rawValue {
            case "removed": self = .removed
            case "venue-changed": self = .venueChanged
            case "time-changed": self = .timeChanged
            case "status-changed": self = .statusChanged
            default: self = .unknown(rawValue)
            }
        }

        /// The JSON text (`venue-changed`, …).
        public var rawValue: String {
            switch self {
            case .removed: "removed"
            case .venueChanged: "venue-changed"
            case .timeChanged: "time-changed"
            case .statusChanged: "status-changed"
            case .unknown(let s): s
            }
        }
    }

    /// An old or new value, typed as the field it comes from in `events`.
    public enum Value: Sendable, Equatable, Hashable {
        /// A venue id (`venue-changed`).
        case venue(Int64)
        /// A start, ISO 8601 UTC with `Z` (`time-changed`).
        case startsAt(String)
        /// An `EventStatus` code (`status-changed`).
        case status(Int64)
        /// A value of a kind this library does not know, as JSON text.
        case unknown(String)
    }

    /// Event id.
    public var event: String
    /// What changed.
    public var kind: Kind
    /// The value before, if any.
    public var old: Value?
    /// The value now, if any.
    public var new: Value?

    /// Creates an alert (for tests and fakes of services).
    public init(event: String, kind: Kind, old: Value?, new: Value?) {
        self.event = event
        self.kind = kind
        self.old = old
        self.new = new
    }

    private enum CodingKeys: String, CodingKey { case event, kind, old, new }

    /// Decodes `old`/`new` with the type their kind gives them.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        event = try c.decode(String.self, forKey: .event)
        kind = Kind(rawValue: try c.decode(String.self, forKey: .kind))
        func value(_ key: CodingKeys) throws -> Value? {
            guard c.contains(key) else { return nil }
            switch kind {
            case .venueChanged: return .venue(try c.decode(Int64.self, forKey: key))
            case .statusChanged: return .status(try c.decode(Int64.self, forKey: key))
            case .timeChanged: return .startsAt(try c.decode(String.self, forKey: key))
            case .removed, .unknown:
                if let n = try? c.decode(Int64.self, forKey: key) { return .unknown(String(n)) }
                if let s = try? c.decode(String.self, forKey: key) { return .unknown(s) }
                return nil
            }
        }
        old = try value(.old)
        new = try value(.new)
    }

    /// Encodes the record's JSON form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event, forKey: .event)
        try c.encode(kind.rawValue, forKey: .kind)
        for (key, v) in [(CodingKeys.old, old), (.new, new)] {
            switch v {
            case .venue(let n)?, .status(let n)?: try c.encode(n, forKey: key)
            case .startsAt(let s)?, .unknown(let s)?: try c.encode(s, forKey: key)
            case nil: break
            }
        }
    }
}

/// The `{key, items}` shape of every per-key list dataset.
struct ItemList<Item: Decodable>: Decodable {
    var items: [Item]
}

/// A followed event still in the feed (dataset `following`: the Feed view's "following" tab),
/// soonest first.
public struct FollowingItem: Codable, Sendable, Equatable {
    /// Event id (a key of `events`).
    public var event: String
    /// The event's current venue id.
    public var venue: Int64
    /// The event's current start instant, ISO 8601 UTC.
    public var startsAt: String
    /// The event's current status code, when the feed gives one.
    public var status: Int64?
    /// True when tonight's alerts speak of this event (absent otherwise).
    public var alert: Bool?

    /// Creates an item (for tests and fakes of services).
    public init(event: String, venue: Int64, startsAt: String, status: Int64?, alert: Bool?) {
        self.event = event
        self.venue = venue
        self.startsAt = startsAt
        self.status = status
        self.alert = alert
    }
}
