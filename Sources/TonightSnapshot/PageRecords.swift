import Foundation

/// An upcoming event on an artist's or a venue's page (datasets `artist_events` and
/// `venue_events`): soonest first, then by event id.
public struct PageEvent: Codable, Sendable, Equatable {
    /// Event id (a key of `events`).
    public var event: String
    /// The event's name as published.
    public var name: String
    /// Venue id (a key of `venues`).
    public var venue: Int64
    /// The venue's city, when the feed gives one.
    public var city: String?
    /// Start instant, ISO 8601 UTC.
    public var startsAt: String
    /// Venue-local wall-clock start (`YYYY-MM-DDTHH:MM:SS`), when the venue's zone is known.
    public var localStart: String?
    /// Ticketmaster's event status code, when the feed gives one.
    public var status: Int64?

    /// Creates an item (for tests and fakes of services).
    public init(event: String, name: String, venue: Int64, city: String?, startsAt: String, localStart: String?, status: Int64?) {
        self.event = event
        self.name = name
        self.venue = venue
        self.city = city
        self.startsAt = startsAt
        self.localStart = localStart
        self.status = status
    }
}

/// One calendar year of an artist's events in the feed (dataset `artist_years`).
public struct ArtistYear: Codable, Sendable, Equatable {
    /// The calendar year of the events' venue-local dates.
    public var year: Int
    /// Events the artist performs in that year (excluded statuses left out).
    public var events: Int
    /// Distinct venues of those events.
    public var venues: Int
    /// Distinct cities (city, state, country) of those venues.
    public var cities: Int
    /// The first date (`YYYY-MM-DD`, venue-local).
    public var first: String
    /// The last date.
    public var last: String

    /// Creates a year (for tests and fakes of services).
    public init(year: Int, events: Int, venues: Int, cities: Int, first: String, last: String) {
        self.year = year
        self.events = events
        self.venues = venues
        self.cities = cities
        self.first = first
        self.last = last
    }
}

/// A session the player joined or created that has not started (dataset `upcoming_sessions`).
public struct UpcomingSession: Codable, Sendable, Equatable {
    /// Session id (a key of `playmate_sessions`).
    public var session: String
    /// The sport as the app shows it.
    public var sport: String
    /// Start instant, ISO 8601 UTC.
    public var occursAt: String
    /// The place's name, when given.
    public var locationName: String?
    /// The place's latitude (5 decimals).
    public var lat: Double
    /// The place's longitude (5 decimals).
    public var lon: Double
    /// Players counted against the capacity (joined players and the creator).
    public var players: Int
    /// The most players the session takes.
    public var capacity: Int
    /// True when the player created the session (absent otherwise).
    public var created: Bool?

    /// Creates an item (for tests and fakes of services).
    public init(session: String, sport: String, occursAt: String, locationName: String?, lat: Double, lon: Double,
                players: Int, capacity: Int, created: Bool?) {
        self.session = session
        self.sport = sport
        self.occursAt = occursAt
        self.locationName = locationName
        self.lat = lat
        self.lon = lon
        self.players = players
        self.capacity = capacity
        self.created = created
    }
}

/// An open session in a geohash cell: not started, not full (dataset `open_sessions`).
public struct OpenSession: Codable, Sendable, Equatable {
    /// Session id (a key of `playmate_sessions`).
    public var session: String
    /// The sport as the app shows it.
    public var sport: String
    /// The session's skill level, when given.
    public var skillLevel: String?
    /// Start instant, ISO 8601 UTC.
    public var occursAt: String
    /// Minutes, when given.
    public var durationMin: Int?
    /// The place's name, when given.
    public var locationName: String?
    /// The place's latitude (5 decimals).
    public var lat: Double
    /// The place's longitude (5 decimals).
    public var lon: Double
    /// Places left before the session is full.
    public var spotsLeft: Int

    /// Creates an item (for tests and fakes of services).
    public init(session: String, sport: String, skillLevel: String?, occursAt: String, durationMin: Int?, locationName: String?,
                lat: Double, lon: Double, spotsLeft: Int) {
        self.session = session
        self.sport = sport
        self.skillLevel = skillLevel
        self.occursAt = occursAt
        self.durationMin = durationMin
        self.locationName = locationName
        self.lat = lat
        self.lon = lon
        self.spotsLeft = spotsLeft
    }
}

/// An upcoming event found by search as you type (dataset `event_search`): most popular first,
/// then soonest, then by id.
public struct EventMatch: Codable, Sendable, Equatable {
    /// Event id (a key of `events`).
    public var event: String
    /// The event's name as published.
    public var name: String
    /// Start instant, ISO 8601 UTC.
    public var startsAt: String
    /// Venue id (a key of `venues`).
    public var venue: Int64
    /// The venue's city, when the feed gives one.
    public var city: String?
    /// pop(e) of recommendations.md: the Bayesian star rating on [0, 1] (6 significant digits).
    public var popularity: Double
}
