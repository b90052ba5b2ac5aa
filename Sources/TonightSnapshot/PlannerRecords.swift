import Foundation

/// One geohash cell on one venue-local date (dataset `planner`, key `CELL/YYYY-MM-DD`): how
/// crowded the date is there, for an event planner choosing one.
public struct PlannerDay: Codable, Sendable, Equatable {
    /// The geohash cell (the pipeline's `catalog.geohashPrecision` characters).
    public var cell: String
    /// The venue-local date, `YYYY-MM-DD`.
    public var date: String
    /// Upcoming events that day at the cell's venues (all of them, listed or not).
    public var total: Int
    /// Per category, the number of those events; most first, then by category id. Events
    /// without a category count in `total` only.
    public var categories: [CategoryCount]
    /// The most popular of those events (at most the pipeline's `planner.size`), then soonest.
    public var events: [PlannerEvent]

    /// Creates a day (for tests and fakes of services).
    public init(cell: String, date: String, total: Int, categories: [CategoryCount], events: [PlannerEvent]) {
        self.cell = cell
        self.date = date
        self.total = total
        self.categories = categories
        self.events = events
    }
}

/// The number of a planner day's events in one category.
public struct CategoryCount: Codable, Sendable, Equatable {
    /// Category id (a key of `categories`).
    public var category: Int64
    /// Events of that category.
    public var count: Int

    /// Creates a count.
    public init(category: Int64, count: Int) {
        self.category = category
        self.count = count
    }
}

/// An event of a planner day.
public struct PlannerEvent: Codable, Sendable, Equatable {
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
    /// Venue-local wall-clock start, when the venue's zone is known.
    public var localStart: String?
    /// The headlining artist's id (a key of `artists`), when the feed names one.
    public var headliner: Int64?
    /// The headliner's name.
    public var headlinerName: String?
    /// Category id, when the feed gives one.
    public var category: Int64?
    /// pop(e) of recommendations.md, the Bayesian star rating on [0, 1].
    public var popularity: Double

    /// Creates an event (for tests and fakes of services).
    public init(event: String, name: String, venue: Int64, city: String?, startsAt: String, localStart: String?,
                headliner: Int64?, headlinerName: String?, category: Int64?, popularity: Double) {
        self.event = event
        self.name = name
        self.venue = venue
        self.city = city
        self.startsAt = startsAt
        self.localStart = localStart
        self.headliner = headliner
        self.headlinerName = headlinerName
        self.category = category
        self.popularity = popularity
    }
}

/// An upcoming event of one of an artist's affinity neighbours (dataset `similar_dates`):
/// when and where acts like theirs play. Soonest first, then by event id.
public struct SimilarDate: Codable, Sendable, Equatable {
    /// Event id (a key of `events`).
    public var event: String
    /// The event's name as published.
    public var name: String
    /// Start instant, ISO 8601 UTC.
    public var startsAt: String
    /// Venue-local wall-clock start, when the venue's zone is known.
    public var localStart: String?
    /// The venue-local date, `YYYY-MM-DD` (a date of `planner`).
    public var date: String
    /// Venue id (a key of `venues`).
    public var venue: Int64
    /// The venue's city, when the feed gives one.
    public var city: String?
    /// The venue's geohash cell (a cell of `planner`).
    public var cell: String
    /// The performing neighbour (a key of `artists`), the best-scoring one when several perform.
    public var artist: Int64
    /// Its affinity score from the page's artist, 6 significant digits.
    public var score: Double

    /// Creates an item (for tests and fakes of services).
    public init(event: String, name: String, startsAt: String, localStart: String?, date: String, venue: Int64,
                city: String?, cell: String, artist: Int64, score: Double) {
        self.event = event
        self.name = name
        self.startsAt = startsAt
        self.localStart = localStart
        self.date = date
        self.venue = venue
        self.city = city
        self.cell = cell
        self.artist = artist
        self.score = score
    }
}
