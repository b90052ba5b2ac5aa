import Foundation
import TonightBase
import TonightCore
import TonightFeed

/// `event_search` (issue 16): search as you type over events, the way `artist_suggest`
/// serves artists.
extension CatalogBuilder {
    /// pop(e) of recommendations.md for each located event: the Bayesian star rating on [0, 1],
    /// m the mean rating of the events that have one (past ones included), C the prior.
    func popularity() -> [UInt64: Double] {
        let rated = events.compactMap(\.event.stars)
        let m = rated.isEmpty ? 0 : rated.reduce(0, +) / Double(rated.count)
        let c = settings.popularityPrior
        var out: [UInt64: Double] = [:]
        for l in events {
            let n = Double(l.event.starReviews ?? 0)
            out[l.event.id] = c + n > 0 ? (c * m + n * (l.event.stars ?? m)) / (c + n) / 5 : 0
        }
        return out
    }

    /// `event_search`: for every prefix of 1…`suggestMaxPrefix` scalars of every word
    /// (`NameKey.words`) of an upcoming event's name, its performers' names, its venue's name
    /// and city, the `suggestSize` upcoming events with the highest popularity, then soonest,
    /// then by id. Items: `event`, `name`, `startsAt`, `venue`, `city`, `popularity`.
    ///
    /// The prefixes of a performer's or a venue's texts are worked out once (they recur in
    /// every event there) and numbered; each event's item is written once and copied into
    /// every list that takes it.
    package func eventSearchRecords() -> Records {
        let pop = popularity()
        var firstArtist: [Int64: Int] = [:]
        for (i, a) in artists.enumerated() where firstArtist[a.id] == nil { firstArtist[a.id] = i }
        let venueOf = Dictionary(venues.map { ($0.venue.id, $0.venue) }, uniquingKeysWith: { a, _ in a })
        // Upcoming events in list order, so that each prefix's list is built already ranked.
        // The id compares as its number (the order of its 16 upper-case hex digits).
        let score = events.map { pop[$0.event.id]! }
        var ranked = events.indices.filter { Self.isUpcoming(events[$0].event, settings) }
        ranked.sort { a, b in
            if score[a] != score[b] { return score[a] > score[b] }
            return (events[a].event.startsAt, events[a].event.id) < (events[b].event.startsAt, events[b].event.id)
        }
        var prefixes = PrefixTable(maxScalars: settings.suggestMaxPrefix)
        var ofArtist: [Int64: [Int]] = [:], ofVenue: [Int64: [Int]] = [:]
        var lists: [[Int]] = []
        var items = RenderedItems(count: ranked.count)
        var mine: [Int] = []
        for (n, i) in ranked.enumerated() {
            let e = events[i].event
            mine.removeAll(keepingCapacity: true)
            prefixes.appendNumbers(ofWordsOf: e.name, to: &mine)
            for a in e.artists {
                guard let k = firstArtist[a] else { continue }
                if ofArtist[a] == nil {
                    var numbers: [Int] = []
                    prefixes.appendNumbers(ofWordsOf: artists[k].name, to: &numbers)
                    ofArtist[a] = numbers
                }
                mine += ofArtist[a]!
            }
            let venue = venueOf[e.venue]
            if let v = venue {
                if ofVenue[v.id] == nil {
                    var numbers: [Int] = []
                    for text in [v.name, v.city].compactMap({ $0 }) { prefixes.appendNumbers(ofWordsOf: text, to: &numbers) }
                    ofVenue[v.id] = numbers
                }
                mine += ofVenue[v.id]!
            }
            if lists.count < prefixes.count { lists += Array(repeating: [], count: prefixes.count - lists.count) }
            for p in mine where lists[p].count < settings.suggestSize && lists[p].last != n {
                items.range(n) { w in
                    w.beginObject()
                    w.field("event", eventID: e.id)
                    w.field("name", e.name)
                    w.field("startsAt", CivilTime.formatUTC(e.startsAt))
                    w.field("venue", e.venue)
                    w.field("city", venue?.city)
                    w.field("popularity", score[i], .score)
                    w.endObject()
                }
                lists[p].append(n)
            }
        }
        var w = JSONWriter()
        var records: Records = []
        for (p, list) in lists.enumerated() where !list.isEmpty {
            w.beginKeyedList(prefixes.text[p])
            for n in list { w.raw(items.bytes, items.range(n)) }
            records.append((prefixes.text[p], w.endKeyedList()))
        }
        return Self.sorted(records)
    }
}
