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
    package func eventSearchRecords() -> Records {
        let pop = popularity()
        let artistName = Dictionary(artists.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let venueOf = Dictionary(venues.map { ($0.venue.id, $0.venue) }, uniquingKeysWith: { a, _ in a })
        // Upcoming events in list order, so that each prefix's list is built already ranked.
        let ranked = events.filter { Self.isUpcoming($0.event, settings) }.sorted { a, b in
            let pa = pop[a.event.id]!, pb = pop[b.event.id]!
            if pa != pb { return pa > pb }
            return (a.event.startsAt, a.event.id) < (b.event.startsAt, b.event.id)
        }
        var byPrefix: [String: [Int]] = [:]
        for (i, l) in ranked.enumerated() {
            let e = l.event
            var texts = [e.name] + e.artists.compactMap { artistName[$0] }
            if let v = venueOf[e.venue] { texts += [v.name, v.city].compactMap { $0 } }
            var prefixes = Set<String>()
            for text in texts {
                for word in NameKey.words(ofKey: TextNormalizer.nameKey(text)) {
                    var prefix = ""
                    for scalar in word.unicodeScalars.prefix(settings.suggestMaxPrefix) {
                        prefix.unicodeScalars.append(scalar)
                        prefixes.insert(prefix)
                    }
                }
            }
            for p in prefixes { Self.append(i, to: &byPrefix[p, default: []], size: settings.suggestSize) }
        }
        var w = JSONWriter()
        return Self.sorted(byPrefix.map { prefix, list in
            w.beginKeyedList(prefix)
            for i in list {
                let e = ranked[i].event
                w.beginObject()
                w.field("event", e.idString)
                w.field("name", e.name)
                w.field("startsAt", CivilTime.formatUTC(e.startsAt))
                w.field("venue", e.venue)
                w.field("city", venueOf[e.venue]?.city)
                w.field("popularity", pop[e.id]!, .score)
                w.endObject()
            }
            return (prefix, w.endKeyedList())
        })
    }
}
