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

    /// What the artist order compares, one value per artist laid side by side.
    private struct SortKey {
        var favorites: Int
        var upcoming: Int
        /// The name's first eight bytes as one big-endian number, zero-padded (a name holds
        /// no NUL): two names that differ there compare as these numbers.
        var head: UInt64
        var start: Int
        var end: Int
        var id: Int64
    }

    /// The indices of `list` in `ranked` order. The counts are looked up once per artist, not
    /// twice per comparison (a sort of 202,000 artists spent most of its time hashing ids).
    ///
    /// The names are compared as bytes laid side by side, not by copying two artists per
    /// comparison (most artists tie on counts, so the sort is mostly name comparisons), and
    /// first by their eight leading bytes as a number. Two names are ordered by their bytes,
    /// or by id when they are equal as `String`s (canonically equivalent: "é" as one scalar or
    /// two), as when the names were compared as `String`s. Where the first byte that differs
    /// is ASCII in both names (or one name ends first), they cannot be equivalent: an ASCII
    /// character starts a new character in both and never takes part in a decomposition or
    /// a reordering, so their decompositions differ there too. Only the other pairs are
    /// compared as `String`s.
    func rankedIndices(_ list: [FeedArtist], byUpcoming: Bool, favorites: [Int64: Int]) -> [Int] {
        var bytes: [UInt8] = []
        var keys: [SortKey] = []
        keys.reserveCapacity(list.count)
        for a in list {
            let start = bytes.count
            bytes += a.name.utf8
            var head: UInt64 = 0
            for k in 0..<8 { head = head << 8 | UInt64(start + k < bytes.count ? bytes[start + k] : 0) }
            keys.append(SortKey(
                favorites: favorites[a.id] ?? 0, upcoming: byUpcoming ? upcoming[a.id] ?? 0 : 0, head: head,
                start: start, end: bytes.count, id: a.id))
        }
        return keys.withUnsafeBufferPointer { keys in
            bytes.withUnsafeBufferPointer { bytes in
                list.indices.sorted { i, j in
                    let x = keys[i], y = keys[j]
                    if x.favorites != y.favorites { return x.favorites > y.favorites }
                    if x.upcoming != y.upcoming { return x.upcoming > y.upcoming }
                    let lx = x.end - x.start, ly = y.end - y.start
                    // The first byte where the names differ (or the shorter one's length).
                    var first: Int
                    if x.head != y.head {
                        let shift = UInt64((x.head ^ y.head).leadingZeroBitCount & ~7)
                        // Both bytes ASCII, or one a name's end (its zero padding).
                        if (x.head << shift) >> 56 < 0x80 && (y.head << shift) >> 56 < 0x80 { return x.head < y.head }
                        first = Int(shift / 8)
                    } else {
                        first = min(8, lx, ly)
                        while first < min(lx, ly) && bytes[x.start + first] == bytes[y.start + first] { first += 1 }
                    }
                    // One name is the other, or begins it (then it is never equivalent: it
                    // decomposes to fewer scalars).
                    if first == min(lx, ly) { return lx == ly ? x.id < y.id : lx < ly }
                    let a = bytes[x.start + first], b = bytes[y.start + first]
                    if a < 0x80 && b < 0x80 { return a < b }
                    if list[i].name == list[j].name { return x.id < y.id }
                    return a < b
                }
            }
        }
    }

    /// `artist_suggest`: for every prefix of 1…suggestMaxPrefix Unicode scalars of each
    /// artist's name key, the `suggestSize` artists with the most favourites. The artists are
    /// ranked once and walked in that order, so each prefix's list is built already ranked
    /// (sorting every prefix's artists cost a third of the stage). Prefixes are numbered as
    /// they are met; a list takes an artist once (a name's prefixes can repeat) and its
    /// items are written when the list is.
    package func artistSuggestRecords(favorites: [Int64: Int]) -> Records {
        let size = settings.suggestSize
        var prefixes = PrefixTable(maxScalars: settings.suggestMaxPrefix)
        var lists: [[Int]] = []
        var mine: [Int] = []
        for i in rankedIndices(artists, byUpcoming: true, favorites: favorites) {
            mine.removeAll(keepingCapacity: true)
            prefixes.appendNumbers(ofPrefixesOf: TextNormalizer.nameKey(artists[i].name), to: &mine)
            if lists.count < prefixes.count { lists += Array(repeating: [], count: prefixes.count - lists.count) }
            for p in mine where lists[p].count < size && lists[p].last != i { lists[p].append(i) }
        }
        var w = JSONWriter()
        var records: Records = []
        records.reserveCapacity(lists.count)
        for (p, list) in lists.enumerated() {
            w.beginKeyedList(prefixes.text[p])
            for i in list {
                w.beginObject()
                w.field("id", artists[i].id)
                w.field("name", artists[i].name)
                w.field("favorites", favorites[artists[i].id] ?? 0)
                w.endObject()
            }
            records.append((prefixes.text[p], w.endKeyedList()))
        }
        return Self.sorted(records)
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
            for e in list.sorted(by: { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }) {  // the id text's order is its number's
                w.beginObject()
                w.field("event", eventID: e.id)
                w.field("startsAt", CivilTime.formatUTC(e.startsAt))
                w.field("venue", e.venue)
                w.endObject()
            }
            return (cell, w.endKeyedList())
        }
        return Self.sorted(records)
    }
}
