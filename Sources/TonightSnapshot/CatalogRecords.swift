/// When tickets go on sale (or presale): a date, now, or unknown.
public struct SaleTime: Codable, Sendable, Equatable {
    /// What is known of the sale start.
    public enum Kind: Sendable, Equatable, Hashable, Codable, RawRepresentable {
        /// A defined instant (`at`).
        case date
        /// On sale now.
        case now
        /// The feed does not say (JSON `unknown`).
        case notAnnounced
        /// A kind this version of the library does not know (a newer writer).
        case unknown(String)

        /// Creates a kind from its JSON text.
        public init(rawValue: String) {
            switch rawValue {
            case "date": self = .date
            case "now": self = .now
            case "unknown": self = .notAnnounced
            default: self = .unknown(rawValue)
            }
        }

        /// The JSON text.
        public var rawValue: String {
            switch self {
            case .date: "date"
            case .now: "now"
            case .notAnnounced: "unknown"
            case .unknown(let s): s
            }
        }
    }

    /// What is known of the sale start.
    public var kind: Kind
    /// The instant, for `date`.
    public var at: String?
}

/// A cleaned event (dataset `events`).
public struct CatalogEvent: Codable, Sendable, Equatable {
    /// The record id.
    public var id: String
    /// The name as published.
    public var name: String
    /// Performer ids in feed order.
    public var artists: [Int64]
    /// Category id.
    public var category: Int64?
    /// Venue id.
    public var venue: Int64?
    /// Start instant, ISO 8601 UTC.
    public var startsAt: String?
    /// Present (true) only when the time is to be announced.
    public var timeTBA: Bool?
    /// Venue-local start, `YYYY-MM-DDTHH:MM:SS`.
    public var localStart: String?
    /// IANA time zone of the venue.
    public var timeZone: String?
    /// The feed's EventStatus code.
    public var status: Int?
    /// When general sale starts.
    public var onsale: SaleTime?
    /// When presale starts.
    public var presale: SaleTime?
    /// Lowest ticket price.
    public var priceMin: Double?
    /// Highest ticket price.
    public var priceMax: Double?
    /// Promoter id.
    public var promoter: Int64?
    /// Average star rating, if rated.
    public var stars: Double?
    /// Number of star reviews.
    public var starReviews: Int?
    /// Ticketmaster page.
    public var url: String?
    /// The venue's coordinates, when geocoded.
    public var lat: Double?
    /// Longitude (degrees).
    public var lon: Double?
}

/// A venue with its place (dataset `venues`).
public struct CatalogVenue: Codable, Sendable, Equatable {
    /// How precisely the venue was placed (geocoding.md).
    public enum Precision: Sendable, Equatable, Hashable, Codable, RawRepresentable {
        /// At its US ZIP code's internal point.
        case postal
        /// At its city.
        case city
        /// At its state's or province's centroid.
        case region
        /// Not placed (JSON `none`): no coordinates.
        case unplaced
        /// A precision this version of the library does not know (a newer writer).
        case unknown(String)

        /// Creates a precision from its JSON text.
        public init(rawValue: String) {
            switch rawValue {
            case "postal": self = .postal
            case "city": self = .city
            case "region": self = .region
            case "none": self = .unplaced
            default: self = .unknown(rawValue)
            }
        }

        /// The JSON text.
        public var rawValue: String {
            switch self {
            case .postal: "postal"
            case .city: "city"
            case .region: "region"
            case .unplaced: "none"
            case .unknown(let s): s
            }
        }
    }

    /// The record id.
    public var id: Int64
    /// The name as published.
    public var name: String
    /// Street address.
    public var street: String?
    /// City.
    public var city: String?
    /// State or province code.
    public var state: String?
    /// Postal code.
    public var zip: String?
    /// Country code.
    public var country: String?
    /// Latitude (degrees).
    public var lat: Double?
    /// Longitude (degrees).
    public var lon: Double?
    /// How precisely the venue was placed.
    public var precision: Precision
    /// IANA time zone of the venue.
    public var timeZone: String?
    /// Ticketmaster page.
    public var url: String?
    /// Image URL.
    public var imageUrl: String?
}

/// An artist (dataset `artists`).
public struct CatalogArtist: Codable, Sendable, Equatable {
    /// The record id.
    public var id: Int64
    /// The name as published.
    public var name: String
    /// Category id.
    public var category: Int64?
    /// Ticketmaster page.
    public var url: String?
    /// Image URL.
    public var imageUrl: String?
    /// How many users favour the artist.
    public var favorites: Int
    /// Upcoming events the artist performs in.
    public var upcomingEvents: Int
}

/// A category (dataset `categories`).
public struct CatalogCategory: Codable, Sendable, Equatable {
    /// The record id.
    public var id: Int64
    /// The name as published.
    public var name: String
    /// Parent category id.
    public var parent: Int64?
}

/// An artist offered while typing (dataset `artist_suggest`) or listed in a category
/// (dataset `category_artists`, which adds `upcomingEvents`).
public struct ArtistSummary: Codable, Sendable, Equatable {
    /// The record id.
    public var id: Int64
    /// The name as published.
    public var name: String
    /// Users who favour the artist.
    public var favorites: Int
    /// Upcoming events the artist performs in.
    public var upcomingEvents: Int?
}

/// An event found by `Snapshot.nearby`, with its venue's distance from the point asked about.
public struct NearbyMatch: Sendable, Equatable {
    /// The event.
    public var event: NearbyEvent
    /// Great-circle km from the point to the venue.
    public var distanceKm: Double

    /// Creates a match (for tests and fakes of services).
    public init(event: NearbyEvent, distanceKm: Double) {
        self.event = event
        self.distanceKm = distanceKm
    }
}

/// An upcoming event in a geohash cell (dataset `nearby`).
public struct NearbyEvent: Codable, Sendable, Equatable {
    /// Event id.
    public var event: String
    /// Start instant, ISO 8601 UTC.
    public var startsAt: String
    /// Venue id.
    public var venue: Int64
}
