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

    /// The indices of the upcoming events in (startsAt, id) order. The id compares as its
    /// number: the text is the 16 upper-case hex digits of it, whose byte order is the
    /// number's order (sorting the events by their text made two strings per comparison,
    /// and moving the events themselves retained and released their strings).
    private var upcomingInOrder: [Int] {
        let start = events.map(\.event.startsAt), id = events.map(\.event.id)
        var order = events.indices.filter { Self.isUpcoming(events[$0].event, settings) }
        order.sort { (start[$0], id[$0]) < (start[$1], id[$1]) }
        return order
    }

    /// One page item: the event, its name, venue and city, start (UTC and venue-local), status.
    private static func item(_ e: LocatedEvent, city: String?, into w: inout JSONWriter) {
        w.beginObject()
        w.field("event", eventID: e.event.id)
        w.field("name", e.event.name)
        w.field("venue", e.event.venue)
        w.field("city", city)
        w.field("startsAt", CivilTime.formatUTC(e.event.startsAt))
        w.field("localStart", e.localStart.map(CivilTime.formatLocal))
        w.field("status", e.event.status)
        w.endObject()
    }

    /// Per key of `key(event)`, the first `artistEventsSize` upcoming events in order; each
    /// event's item is written once and copied into every list that takes it.
    private func pages(_ key: (FeedEvent) -> [Int64]) -> Records {
        let cities = venueCities
        let order = upcomingInOrder
        var lists: [Int64: [Int]] = [:]
        var items = RenderedItems(count: order.count)
        for (n, i) in order.enumerated() {
            for k in key(events[i].event) where (lists[k]?.count ?? 0) < settings.artistEventsSize {
                items.range(n) { Self.item(events[i], city: cities[events[i].event.venue]?.name, into: &$0) }
                lists[k, default: []].append(n)
            }
        }
        var w = JSONWriter()
        return Self.sorted(lists.map { k, list in
            w.beginKeyedList(String(k))
            for n in list { w.raw(items.bytes, items.range(n)) }
            return (String(k), w.endKeyedList())
        })
    }

    /// `artist_events`: per artist, the upcoming events they perform in (headliner or not).
    package func artistEventRecords() -> Records {
        pages { Array(Set($0.artists)) }
    }

    /// `venue_events`: per venue, its upcoming events.
    package func venueEventRecords() -> Records {
        pages { [$0.venue] }
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
        // Each year is changed in place: a copy changed and stored back made every insert
        // copy the sets the dictionary still held.
        func add(_ day: Int, _ venue: Int64, _ city: String?, to y: inout Year) {
            y.events += 1
            y.venues.insert(venue)
            if let city { y.cities.insert(city) }
            y.first = min(y.first, day)
            y.last = max(y.last, day)
        }
        for e in events where !(e.event.status.map(settings.excludedStatuses.contains) ?? false) {
            let day = Self.localDay(e)
            let year = CivilTime.civil(days: day).year
            let city = cities[e.event.venue]?.key
            for a in Set(e.event.artists) {
                add(day, e.event.venue, city, to: &years[a, default: [:]][year, default: Year()])
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
