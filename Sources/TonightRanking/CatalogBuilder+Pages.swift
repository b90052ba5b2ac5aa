import Foundation
import TonightBase
import TonightCore
import TonightFeed

/// The artist and venue pages (issue 16): `artist_events` and `venue_events` (upcoming events
/// by startsAt then id, at most `artistEventsSize`) and `artist_years` (per calendar year of
/// the feed's events, counts and first and last date).
extension CatalogBuilder {
    /// Venue id → city (`city, state, country` as published, for grouping distinct cities).
    private var venueCities: [Int64: (name: String, key: String)] {
        var out: [Int64: (String, String)] = [:]
        for v in venues {
            guard let city = v.venue.city, !city.isEmpty else { continue }
            out[v.venue.id] = (city, [city, v.venue.state ?? "", v.venue.country ?? ""].joined(separator: "\u{1F}"))
        }
        return out
    }

    /// Upcoming events in (startsAt, id) order.
    private var upcomingInOrder: [LocatedEvent] {
        events.filter { Self.isUpcoming($0.event, settings) }
            .sorted { ($0.event.startsAt, $0.event.idString) < ($1.event.startsAt, $1.event.idString) }
    }

    /// One page item: the event, its name, venue and city, start (UTC and venue-local), status.
    private static func item(_ e: LocatedEvent, city: String?, into w: inout JSONWriter) {
        w.beginObject()
        w.field("event", e.event.idString)
        w.field("name", e.event.name)
        w.field("venue", e.event.venue)
        w.field("city", city)
        w.field("startsAt", CivilTime.formatUTC(e.event.startsAt))
        w.field("localStart", e.localStart.map(CivilTime.formatLocal))
        w.field("status", e.event.status)
        w.endObject()
    }

    private func pages(_ key: (LocatedEvent) -> [Int64]) -> Records {
        let cities = venueCities
        var lists: [Int64: [LocatedEvent]] = [:]
        for e in upcomingInOrder {
            for k in key(e) where lists[k, default: []].count < settings.artistEventsSize { lists[k, default: []].append(e) }
        }
        var w = JSONWriter()
        return Self.sorted(lists.map { k, list in
            w.beginKeyedList(String(k))
            for e in list { Self.item(e, city: cities[e.event.venue]?.name, into: &w) }
            return (String(k), w.endKeyedList())
        })
    }

    /// `artist_events`: per artist, the upcoming events they perform in (headliner or not).
    package func artistEventRecords() -> Records {
        pages { Array(Set($0.event.artists)) }
    }

    /// `venue_events`: per venue, its upcoming events.
    package func venueEventRecords() -> Records {
        pages { [$0.event.venue] }
    }

    /// `artist_years`: per artist and calendar year (of the venue-local start date, the UTC date
    /// when the venue's zone is unknown), the artist's events in the feed (whatever their
    /// date, past ones included, excluded statuses left out), the distinct venues and cities
    /// (city, state, country) they play, and the first and last date.
    package func artistYearRecords() -> Records {
        struct Year {
            var events = 0
            var venues: Set<Int64> = []
            var cities: Set<String> = []
            var first = Int.max
            var last = Int.min
        }
        let cities = venueCities
        var years: [Int64: [Int: Year]] = [:]
        for e in events where !(e.event.status.map(settings.excludedStatuses.contains) ?? false) {
            let day = Self.localDay(e)
            let year = CivilTime.civil(days: day).year
            for a in Set(e.event.artists) {
                var y = years[a, default: [:]][year, default: Year()]
                y.events += 1
                y.venues.insert(e.event.venue)
                if let c = cities[e.event.venue] { y.cities.insert(c.key) }
                y.first = min(y.first, day)
                y.last = max(y.last, day)
                years[a, default: [:]][year] = y
            }
        }
        var w = JSONWriter()
        return Self.sorted(years.map { artist, byYear in
            w.beginKeyedList(String(artist))
            for (year, y) in byYear.sorted(by: { $0.key < $1.key }) {
                w.beginObject()
                w.field("year", year)
                w.field("events", y.events)
                w.field("venues", y.venues.count)
                w.field("cities", y.cities.count)
                w.field("first", CivilTime.formatDate(days: y.first))
                w.field("last", CivilTime.formatDate(days: y.last))
                w.endObject()
            }
            return (String(artist), w.endKeyedList())
        })
    }
}
