import Foundation
import TonightCore
import TonightFeed
import TonightGeo
import TonightBase

extension CatalogBuilder {
    /// Orders artists by favourites (desc), upcoming events (desc, if `byUpcoming`), name in
    /// code-point order, then id.
    func ranked(_ list: [FeedArtist], byUpcoming: Bool, favorites: [Int64: Int]) -> [FeedArtist] {
        rankedIndices(list, byUpcoming: byUpcoming, favorites: favorites).map { list[$0] }
    }

    /// The indices of `list` in `ranked` order. The counts are looked up once per artist, not
    /// twice per comparison (a sort of 202,000 artists spent most of its time hashing ids).
    ///
    /// The names are compared as bytes laid side by side, not by copying two artists per
    /// comparison (most artists tie on counts, so the sort is mostly name comparisons). Two
    /// names that differ in bytes are different names unless one is not ASCII: then `String`
    /// equality (canonical equivalence) decides, as it always did.
    func rankedIndices(_ list: [FeedArtist], byUpcoming: Bool, favorites: [Int64: Int]) -> [Int] {
        let fav = list.map { favorites[$0.id] ?? 0 }
        let up = byUpcoming ? list.map { upcoming[$0.id] ?? 0 } : list.map { _ in 0 }
        var bytes: [UInt8] = []
        var starts = [0]
        starts.reserveCapacity(list.count + 1)
        for a in list {
            bytes += a.name.utf8
            starts.append(bytes.count)
        }
        let ascii = list.map { $0.name.utf8.allSatisfy { $0 < 0x80 } }
        let ids = list.map(\.id)
        return fav.withUnsafeBufferPointer { fav in
            up.withUnsafeBufferPointer { up in
                bytes.withUnsafeBufferPointer { bytes in
                    starts.withUnsafeBufferPointer { starts in
                        ascii.withUnsafeBufferPointer { ascii in
                            ids.withUnsafeBufferPointer { ids in
                                list.indices.sorted { i, j in
                                    if fav[i] != fav[j] { return fav[i] > fav[j] }
                                    if up[i] != up[j] { return up[i] > up[j] }
                                    let a = UnsafeBufferPointer(rebasing: bytes[starts[i]..<starts[i + 1]])
                                    let b = UnsafeBufferPointer(rebasing: bytes[starts[j]..<starts[j + 1]])
                                    let n = min(a.count, b.count)
                                    let c = n == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, n)
                                    let order = c != 0 ? c < 0 : a.count < b.count
                                    if c == 0 && a.count == b.count { return ids[i] < ids[j] }
                                    if !(ascii[i] && ascii[j]) && list[i].name == list[j].name { return ids[i] < ids[j] }
                                    return order
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `artist_suggest`: for every prefix of 1…suggestMaxPrefix Unicode scalars of each
    /// artist's name key, the `suggestSize` artists with the most favourites. The artists are
    /// ranked once and walked in that order, so each prefix's list is built already ranked
    /// (sorting every prefix's artists cost a third of the stage).
    package func artistSuggestRecords(favorites: [Int64: Int]) -> Records {
        var byPrefix: [String: [Int]] = [:]
        let size = settings.suggestSize
        // A name's few prefixes are compared with each other directly (`String` equality, as a
        // set would) rather than through a set allocated per artist, and each prefix's list is
        // looked up once and changed in place.
        var seen: [String] = []
        for i in rankedIndices(artists, byUpcoming: true, favorites: favorites) {
            let key = TextNormalizer.nameKey(artists[i].name)
            var prefix = ""
            seen.removeAll(keepingCapacity: true)
            for scalar in key.unicodeScalars.prefix(settings.suggestMaxPrefix) {
                prefix.unicodeScalars.append(scalar)
                guard !seen.contains(prefix) else { continue }
                seen.append(prefix)
                Self.append(i, to: &byPrefix[prefix, default: []], size: size)
            }
        }
        var w = JSONWriter()
        let records: Records = byPrefix.map { prefix, indexes in
            w.beginKeyedList(prefix)
            for a in indexes.map({ artists[$0] }) {
                w.beginObject()
                w.field("id", a.id)
                w.field("name", a.name)
                w.field("favorites", favorites[a.id] ?? 0)
                w.endObject()
            }
            return (prefix, w.endKeyedList())
        }
        return Self.sorted(records)
    }

    /// Appends `i` to a suggestion list that is not full yet.
    @inline(__always)
    static func append(_ i: Int, to list: inout [Int], size: Int) {
        if list.count < size { list.append(i) }
    }

    /// `category_artists`: per category, its own artists with upcoming events, by favourites,
    /// name, id, at most `categoryArtistsSize`.
    package func categoryArtistRecords(favorites: [Int64: Int]) -> Records {
        var byCategory: [Int64: [FeedArtist]] = [:]
        for a in artists {
            guard let c = a.category, (upcoming[a.id] ?? 0) > 0 else { continue }
            byCategory[c, default: []].append(a)
        }
        var w = JSONWriter()
        let records: Records = byCategory.map { category, list in
            w.beginKeyedList(String(category))
            for a in ranked(list, byUpcoming: false, favorites: favorites).prefix(settings.categoryArtistsSize) {
                w.beginObject()
                w.field("id", a.id)
                w.field("name", a.name)
                w.field("favorites", favorites[a.id] ?? 0)
                w.field("upcomingEvents", upcoming[a.id] ?? 0)
                w.endObject()
            }
            return (String(category), w.endKeyedList())
        }
        return Self.sorted(records)
    }

    /// `nearby`: per geohash cell, the upcoming events at its geocoded venues by startsAt,
    /// then event id.
    package func nearbyRecords() -> Records {
        var cellOf: [Int64: String] = [:]
        for v in venues {
            guard let lat = v.placement.lat, let lon = v.placement.lon else { continue }
            cellOf[v.venue.id] = Geohash.encode(lat: lat, lon: lon, length: settings.geohashPrecision)
        }
        var byCell: [String: [FeedEvent]] = [:]
        for e in events where Self.isUpcoming(e.event, settings) {
            guard let cell = cellOf[e.event.venue] else { continue }
            byCell[cell, default: []].append(e.event)
        }
        var w = JSONWriter()
        let records: Records = byCell.map { cell, list in
            w.beginKeyedList(cell)
            for e in list.sorted(by: { ($0.startsAt, $0.idString) < ($1.startsAt, $1.idString) }) {
                w.beginObject()
                w.field("event", e.idString)
                w.field("startsAt", CivilTime.formatUTC(e.startsAt))
                w.field("venue", e.venue)
                w.endObject()
            }
            return (cell, w.endKeyedList())
        }
        return Self.sorted(records)
    }
}
