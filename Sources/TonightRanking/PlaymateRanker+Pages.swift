import Foundation
import TonightBase
import TonightCore

/// Playmate's carousel and map (issue 16): `upcoming_sessions` per player and `open_sessions`
/// per geohash cell.
extension PlaymateRanker {
    /// Sessions by occursAt, then id bytes.
    func soonerFirst(_ a: Int32, _ b: Int32) -> Bool {
        let x = sessions[Int(a)], y = sessions[Int(b)]
        return x.occursAt != y.occursAt ? x.occursAt < y.occursAt : UTF8Order.less(x.id, y.id)
    }

    /// The `upcoming_sessions` record of player `u`: the sessions they joined or created (as a
    /// known player) that have not started (occursAt > asOf), soonest first, each with its sport,
    /// place, time, players and capacity; nil when there are none.
    package func upcomingSessionsJSON(_ u: Int, _ w: inout JSONWriter) -> [UInt8]? {
        let list = memberOf[u].filter { sessions[Int($0)].occursAt > settings.asOf }.sorted(by: soonerFirst)
        guard !list.isEmpty else { return nil }
        w.beginKeyedList(players[u].id)
        for i in list {
            let s = sessions[Int(i)]
            w.beginObject()
            w.field("session", s.id)
            w.field("sport", s.sportLabel)
            w.field("occursAt", CivilTime.formatUTC(s.occursAt))
            w.field("locationName", s.locationName)
            w.field("lat", s.lat, .coordinate)
            w.field("lon", s.lon, .coordinate)
            w.field("players", Self.memberCount(s))
            w.field("capacity", s.capacity)
            if s.creator == Int32(u) { w.field("created", true) }
            w.endObject()
        }
        return w.endKeyedList()
    }

    /// `open_sessions`: per geohash cell of `precision` characters, the open sessions there
    /// (not started, not full), soonest first, with sport, skill level, time, place and spots
    /// left: what the map view and its filters read.
    package func openSessionRecords(precision: Int) -> [(key: String, json: [UInt8])] {
        var byCell: [String: [Int32]] = [:]
        for i in open {
            let s = sessions[Int(i)]
            byCell[Geohash.encode(lat: s.lat, lon: s.lon, length: precision), default: []].append(i)
        }
        var w = JSONWriter()
        let records = byCell.map { cell, ids -> (key: String, json: [UInt8]) in
            w.beginKeyedList(cell)
            for i in ids.sorted(by: soonerFirst) {
                let s = sessions[Int(i)]
                w.beginObject()
                w.field("session", s.id)
                w.field("sport", s.sportLabel)
                w.field("skillLevel", s.skillLevel)
                w.field("occursAt", CivilTime.formatUTC(s.occursAt))
                if let d = s.durationMin { w.field("durationMin", d) }
                w.field("locationName", s.locationName)
                w.field("lat", s.lat, .coordinate)
                w.field("lon", s.lon, .coordinate)
                w.field("spotsLeft", s.capacity - Self.memberCount(s))
                w.endObject()
            }
            return (cell, w.endKeyedList())
        }
        return records.sorted { UTF8Order.less($0.key, $1.key) }
    }
}
