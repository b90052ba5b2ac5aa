import TonightCore

/// An artist of the feed, normalised.
package struct FeedArtist: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var category: Int64?
    package var url: String?
    package var imageUrl: String?
    package var line: Int

    package init(id: Int64, name: String, category: Int64? = nil, url: String? = nil, imageUrl: String? = nil, line: Int = 0) {
        self.id = id
        self.name = name
        self.category = category
        self.url = url
        self.imageUrl = imageUrl
        self.line = line
    }
}

/// A category; the five roots have no parent.
package struct FeedCategory: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var parent: Int64?
    package var line: Int

    package init(id: Int64, name: String, parent: Int64? = nil, line: Int = 0) {
        self.id = id
        self.name = name
        self.parent = parent
        self.line = line
    }
}

/// A venue as the feed gives it; `country` is derived from the state (feed.md).
package struct FeedVenue: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var street: String?
    package var city: String?
    package var state: String?
    package var zip: String?
    package var country: String?
    package var url: String?
    package var imageUrl: String?
    package var line: Int

    package init(
        id: Int64, name: String, street: String? = nil, city: String? = nil, state: String? = nil,
        zip: String? = nil, country: String? = nil, url: String? = nil, imageUrl: String? = nil, line: Int = 0
    ) {
        self.id = id
        self.name = name
        self.street = street
        self.city = city
        self.state = state
        self.zip = zip
        self.country = country
        self.url = url
        self.imageUrl = imageUrl
        self.line = line
    }
}

/// On-sale and presale dates: a defined instant, "on sale now", or unknown.
package struct TypedDate: Sendable, Equatable {
    package enum Kind: UInt8, Sendable {
        case unknown = 0, date = 1, now = 2

        package var name: String {
            switch self {
            case .unknown: return "unknown"
            case .date: return "date"
            case .now: return "now"
            }
        }
    }

    package var kind: Kind
    /// Seconds since the epoch (UTC) when `kind == .date`.
    package var at: Int64?

    package static let unknown = TypedDate(kind: .unknown, at: nil)
    package static let now = TypedDate(kind: .now, at: nil)

    package init(kind: Kind, at: Int64?) {
        self.kind = kind
        self.at = at
    }
}

/// An event, normalised: ids resolved, unknown artist and category references removed.
package struct FeedEvent: Sendable, Equatable {
    /// The 16-hex-digit id as a number; `idString` gives the canonical upper-case text.
    package var id: UInt64
    package var name: String
    /// Performer ids in feed order (unknown ones removed).
    package var artists: [Int64]
    /// The first `Primary` performer left after unknown ones are removed.
    package var headliner: Int64?
    package var category: Int64?
    package var venue: Int64
    /// UTC seconds since the epoch of `EventDate`/`EventTime`.
    package var startsAt: Int64
    package var timeTBA: Bool
    package var status: Int64?
    package var onsale: TypedDate
    package var presale: TypedDate
    /// Prices in cents (two decimals, feed.md).
    package var priceMinCents: Int64?
    package var priceMaxCents: Int64?
    package var promoter: Int64?
    package var stars: Double?
    package var starReviews: Int64?
    package var url: String?
    package var line: Int

    package init(
        id: UInt64, name: String, artists: [Int64] = [], headliner: Int64? = nil, category: Int64? = nil,
        venue: Int64, startsAt: Int64, timeTBA: Bool = false, status: Int64? = nil,
        onsale: TypedDate = .unknown, presale: TypedDate = .unknown, priceMinCents: Int64? = nil,
        priceMaxCents: Int64? = nil, promoter: Int64? = nil, stars: Double? = nil, starReviews: Int64? = nil,
        url: String? = nil, line: Int = 0
    ) {
        self.id = id
        self.name = name
        self.artists = artists
        self.headliner = headliner
        self.category = category
        self.venue = venue
        self.startsAt = startsAt
        self.timeTBA = timeTBA
        self.status = status
        self.onsale = onsale
        self.presale = presale
        self.priceMinCents = priceMinCents
        self.priceMaxCents = priceMaxCents
        self.promoter = promoter
        self.stars = stars
        self.starReviews = starReviews
        self.url = url
        self.line = line
    }

    /// The event id as the feed writes it: 16 upper-case hex digits.
    package var idString: String { EventID.format(id) }
    package var priceMin: Double? { priceMinCents.map { Double($0) / 100 } }
    package var priceMax: Double? { priceMaxCents.map { Double($0) / 100 } }
}


extension FeedVenue {
    /// `US`, `CA` or nil from a state or province code (feed.md "Venue country").
    package static func country(ofState state: String?) -> String? { FeedCollector.country(ofState: state) }
}
