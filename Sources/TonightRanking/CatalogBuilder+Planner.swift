import Foundation
import TonightBase
import TonightCore
import TonightFeed

/// The planners' calendar (issue 16): `planner` (per geohash cell and venue-local date, the
/// upcoming events there that day, most popular first, with per-category counts) and
/// `similar_dates` (per artist, the upcoming events of its affinity neighbours by date).
extension CatalogBuilder {
    /// Where a geocoded venue is: its geohash cell (`geohashPrecision` characters) and city.
    private func venuePlaces() -> [Int64: (cell: String, city: String?)] {
        var out: [Int64: (String, String?)] = [:]
        for v in venues {
            guard let lat = v.placement.lat, let lon = v.placement.lon else { continue }
            out[v.venue.id] = (Geohash.encode(lat: lat, lon: lon, length: settings.geohashPrecision), v.venue.city)
        }
        return out
    }

    /// The venue-local calendar day of an event (the UTC day when the venue's zone is unknown),
    /// as days since 1970-01-01: the same day `artist_years` counts.
    static func localDay(_ e: LocatedEvent) -> Int {
        let t = e.localStart ?? e.event.startsAt
        return Int(t >= 0 ? t / 86_400 : (t - 86_399) / 86_400)
    }

    private var artistNames: [Int64: String] {
        Dictionary(artists.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    /// `planner`: for every geohash cell with a geocoded venue and every venue-local date with
    /// an upcoming event there (recommendations.md's window and excluded statuses), the record
    /// keyed `CELL/YYYY-MM-DD`: `cell`, `date`, `total` (events that day in the cell),
    /// `categories` (per category id, the count of those events; most first, then by id;
    /// events without a category are in `total` only) and `events`: at most `plannerSize`,
    /// most popular (pop(e)) first, then soonest, then by id, each with `event`, `name`,
    /// `venue`, `city`, `startsAt`, `localStart`, `headliner` and `headlinerName` (when the
    /// feed names one), `category` and `popularity`.
    package func plannerRecords() -> Records {
        let pop = popularity()
        let places = venuePlaces()
        let names = artistNames
        var days: [String: [LocatedEvent]] = [:]
        for e in events where Self.isUpcoming(e.event, settings) {
            guard let place = places[e.event.venue] else { continue }
            days[place.cell + "/" + CivilTime.formatDate(days: Self.localDay(e)), default: []].append(e)
        }
        var w = JSONWriter()
        return Self.sorted(days.map { key, list in
            let ranked = list.sorted { a, b in
                let pa = pop[a.event.id]!, pb = pop[b.event.id]!
                if pa != pb { return pa > pb }
                return (a.event.startsAt, a.event.id) < (b.event.startsAt, b.event.id)
            }
            var counts: [Int64: Int] = [:]
            for e in list { if let c = e.event.category { counts[c, default: 0] += 1 } }
            let slash = key.firstIndex(of: "/")!
            w.beginObject()
            w.field("key", key)
            w.field("cell", String(key[..<slash]))
            w.field("date", String(key[key.index(after: slash)...]))
            w.field("total", list.count)
            w.key("categories")
            w.beginArray()
            for (category, n) in counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                w.beginObject()
                w.field("category", category)
                w.field("count", n)
                w.endObject()
            }
            w.endArray()
            w.key("events")
            w.beginArray()
            for l in ranked.prefix(settings.plannerSize) {
                let e = l.event
                w.beginObject()
                w.field("event", eventID: e.id)
                w.field("name", e.name)
                w.field("venue", e.venue)
                w.field("city", places[e.venue]?.city)
                w.field("startsAt", CivilTime.formatUTC(e.startsAt))
                w.field("localStart", l.localStart.map(CivilTime.formatLocal))
                w.field("headliner", e.headliner)
                w.field("headlinerName", e.headliner.flatMap { names[$0] })
                w.field("category", e.category)
                w.field("popularity", pop[e.id]!, .score)
                w.endObject()
            }
            w.endArray()
            w.endObject()
            w.endRecord()
            return (key, w.take())
        })
    }

    /// `similar_dates`: for every artist with affinity neighbours (edges from it with score ≥
    /// `plannerMinScore`, itself left out; a target listed twice keeps its best score), the
    /// upcoming events at geocoded venues that a neighbour performs in and the artist does not,
    /// by startsAt then event id, at most `similarSize`: `event`, `name`, `startsAt`,
    /// `localStart`, `date` (venue-local), `venue`, `city`, `cell`, `artist` (the performing
    /// neighbour with the best score, the lower id on a tie) and its `score`.
    package func similarDateRecords(edges: [(source: Int64, target: Int64, score: Double)]) -> Records {
        var neighbours: [Int64: [Int64: Double]] = [:]
        for e in edges where e.score >= settings.plannerMinScore && e.source != e.target {
            neighbours[e.source, default: [:]][e.target] = max(neighbours[e.source]?[e.target] ?? 0, e.score)
        }
        guard !neighbours.isEmpty else { return [] }
        let places = venuePlaces()
        var byArtist: [Int64: [Int]] = [:]
        let upcoming = events.filter { Self.isUpcoming($0.event, settings) && places[$0.event.venue] != nil }
            .sorted { ($0.event.startsAt, $0.event.id) < ($1.event.startsAt, $1.event.id) }
        for (i, l) in upcoming.enumerated() {
            for a in Set(l.event.artists) { byArtist[a, default: []].append(i) }
        }
        var w = JSONWriter()
        var records: Records = []
        // An event's fields but the neighbour and its score are the same in every artist's list
        // that has it: written once (from `{` to the city's cell), copied after.
        var fixed = RenderedItems(count: upcoming.count)
        for (artist, near) in neighbours {
            // Each event once, with its best-scoring performing neighbour.
            var best: [Int: (artist: Int64, score: Double)] = [:]
            for (n, score) in near {
                for i in byArtist[n] ?? [] {
                    if let b = best[i], b.score > score || (b.score == score && b.artist < n) { continue }
                    best[i] = (n, score)
                }
            }
            let own = Set(byArtist[artist] ?? [])
            let list = best.keys.filter { !own.contains($0) }.sorted().prefix(settings.similarSize)
            guard !list.isEmpty else { continue }
            w.beginKeyedList(String(artist))
            for i in list {
                let opened = fixed.range(i) { w in
                    let l = upcoming[i], e = l.event, place = places[e.venue]!
                    w.beginObject()
                    w.field("event", eventID: e.id)
                    w.field("name", e.name)
                    w.field("startsAt", CivilTime.formatUTC(e.startsAt))
                    w.field("localStart", l.localStart.map(CivilTime.formatLocal))
                    w.field("date", CivilTime.formatDate(days: Self.localDay(l)))
                    w.field("venue", e.venue)
                    w.field("city", place.city)
                    w.field("cell", place.cell)
                }
                // The object opened with its fixed fields (`raw` places the comma before it).
                w.raw(fixed.bytes, opened)
                w.field("artist", best[i]!.artist)
                w.field("score", best[i]!.score, .score)
                w.endObject()
            }
            records.append((String(artist), w.endKeyedList()))
        }
        return Self.sorted(records)
    }
}
