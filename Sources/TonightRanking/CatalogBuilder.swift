import Foundation
import TonightCore
import TonightFeed
import TonightGeo
import TonightBase

/// The catalog datasets of recommendations.md ("Catalog and indexes"): cleaned events, venues,
/// artists (with favourite and upcoming-event counts), categories, the `artist_suggest`,
/// `category_artists` and `nearby` indexes, and the artist and venue pages (`artist_events`,
/// `venue_events`, `artist_years`). Every dataset comes out as (key, JSON) records in
/// increasing UTF-8 key order, ready for a dataset writer.
package struct CatalogBuilder: Sendable {
    package struct Settings: Sendable {
        package var asOf: Int64
        package var horizonDays: Double
        package var excludedStatuses: Set<Int64>
        package var suggestSize: Int
        package var suggestMaxPrefix: Int
        package var categoryArtistsSize: Int
        package var geohashPrecision: Int
        /// Longest list of `artist_events` and `venue_events`.
        package var artistEventsSize: Int
        /// C of the Bayesian star rating (`event_search` ranks by it).
        package var popularityPrior: Double
        /// Events listed per `planner` cell and date (all are counted).
        package var plannerSize: Int
        /// Longest `similar_dates` list.
        package var similarSize: Int
        /// Least affinity score of an artist's neighbours in `similar_dates`.
        package var plannerMinScore: Double

        package init(asOf: Int64, horizonDays: Double = 60, excludedStatuses: Set<Int64> = [], suggestSize: Int = 10,
                     suggestMaxPrefix: Int = 4, categoryArtistsSize: Int = 200, geohashPrecision: Int = 4,
                     artistEventsSize: Int = 200, popularityPrior: Double = 50, plannerSize: Int = 50,
                     similarSize: Int = 200, plannerMinScore: Double = 0.05) {
            self.asOf = asOf
            self.horizonDays = horizonDays
            self.excludedStatuses = excludedStatuses
            self.suggestSize = suggestSize
            self.suggestMaxPrefix = suggestMaxPrefix
            self.categoryArtistsSize = categoryArtistsSize
            self.geohashPrecision = geohashPrecision
            self.artistEventsSize = artistEventsSize
            self.popularityPrior = popularityPrior
            self.plannerSize = plannerSize
            self.similarSize = similarSize
            self.plannerMinScore = plannerMinScore
        }
    }

    /// Records of one dataset, sorted by key bytes.
    package typealias Records = [(key: String, json: [UInt8])]

    package let settings: Settings
    package let artists: [FeedArtist]
    package let categories: [FeedCategory]
    package let venues: [GeocodedVenue]
    package let events: [LocatedEvent]
    /// Upcoming events per artist (each event counted once per performing artist).
    package let upcoming: [Int64: Int]

    package init(settings: Settings, artists: [FeedArtist], categories: [FeedCategory], venues: [GeocodedVenue],
                 events: [LocatedEvent]) {
        self.settings = settings
        self.artists = artists
        self.categories = categories
        self.venues = venues
        self.events = events
        var upcoming: [Int64: Int] = [:]
        for e in events where Self.isUpcoming(e.event, settings) {
            for a in Set(e.event.artists) { upcoming[a, default: 0] += 1 }
        }
        self.upcoming = upcoming
    }

    /// recommendations.md: `asOf ≤ startsAt < asOf + horizonDays`, status not excluded.
    package static func isUpcoming(_ e: FeedEvent, _ s: Settings) -> Bool {
        e.startsAt >= s.asOf && Double(e.startsAt - s.asOf) < s.horizonDays * 86_400
            && !(e.status.map(s.excludedStatuses.contains) ?? false)
    }

    /// Records in key byte order. The keys are sorted as indexes, then each record moved once
    /// (sorting the records themselves retained and released a key and a buffer at every move
    /// of the merge: a tenth of the stage).
    static func sorted(_ records: Records) -> Records {
        UTF8Order.sortedIndices(records.map(\.key)).map { records[$0] }
    }

    /// One dataset's records: `key` and the JSON object `encode` declares.
    static func records<T, R: EncodableRecord>(_ rows: [T], key: (T) -> String, _ record: (T) -> R) -> Records {
        var e = RecordEncoder()
        return sorted(rows.map { row in
            e.object(record(row))
            return (key(row), e.json.take())
        })
    }

    package func eventRecords() -> Records {
        Self.records(events, key: { $0.event.idString }) { $0 }
    }

    package func venueRecords() -> Records {
        Self.records(venues, key: { String($0.venue.id) }) { $0 }
    }

    /// `artists`, with each artist's users favouring it (`favorites`).
    package func artistRecords(favorites: [Int64: Int]) -> Records {
        Self.records(artists, key: { String($0.id) }) {
            PublishedArtist(artist: $0, favorites: favorites[$0.id] ?? 0, upcomingEvents: upcoming[$0.id] ?? 0)
        }
    }

    package func categoryRecords() -> Records {
        Self.records(categories, key: { String($0.id) }) { $0 }
    }
}
