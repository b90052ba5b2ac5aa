/// When tickets go on sale (or presale): a date, now, or unknown.
public struct SaleTime: Codable, Sendable, Equatable {
    /// `date`, `now` or `unknown`.
    public var kind: String
    /// The instant, for `date`.
    public var at: String?
}

/// A cleaned event (dataset `events`).
public struct CatalogEvent: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// Performer ids in feed order.
    public var artists: [Int64]
    public var category: Int64?
    public var venue: Int64?
    /// Start instant, ISO 8601 UTC.
    public var startsAt: String?
    /// Present (true) only when the time is to be announced.
    public var timeTBA: Bool?
    /// Venue-local start, `YYYY-MM-DDTHH:MM:SS`.
    public var localStart: String?
    public var timeZone: String?
    public var status: Int?
    public var onsale: SaleTime?
    public var presale: SaleTime?
    public var priceMin: Double?
    public var priceMax: Double?
    public var promoter: Int64?
    public var stars: Double?
    public var starReviews: Int?
    public var url: String?
    /// The venue's coordinates, when geocoded.
    public var lat: Double?
    public var lon: Double?
}

/// A venue with its place (dataset `venues`).
public struct CatalogVenue: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var street: String?
    public var city: String?
    public var state: String?
    public var zip: String?
    public var country: String?
    public var lat: Double?
    public var lon: Double?
    /// `postal`, `city`, `region` or `none`.
    public var precision: String
    public var timeZone: String?
    public var url: String?
    public var imageUrl: String?
}

/// An artist (dataset `artists`).
public struct CatalogArtist: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var category: Int64?
    public var url: String?
    public var imageUrl: String?
    /// How many users favour the artist.
    public var favorites: Int
    /// Upcoming events the artist performs in.
    public var upcomingEvents: Int
}

/// A category (dataset `categories`).
public struct CatalogCategory: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var parent: Int64?
}

/// An artist offered while typing (dataset `artist_suggest`) or listed in a category
/// (dataset `category_artists`, which adds `upcomingEvents`).
public struct ArtistSummary: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var favorites: Int
    public var upcomingEvents: Int?
}

/// An upcoming event in a geohash cell (dataset `nearby`).
public struct NearbyEvent: Codable, Sendable, Equatable {
    public var event: String
    public var startsAt: String
    public var venue: Int64
}
