import Foundation
import TonightBase
import TonightCore

/// Playmate's carousel and map (issue 16): `upcoming_sessions` per player and `open_sessions`
/// per geohash cell.
extension PlaymateRanker {
    /// Sessions by occursAt, then id bytes. The fields are read in place: a copy of each
    /// session retained and released its strings at every comparison.
    func soonerFirst(_ a: Int32, _ b: Int32) -> Bool {
        let (x, y) = (Int(a), Int(b))
        let (tx, ty) = (sessions[x].occursAt, sessions[y].occursAt)
        return tx != ty ? tx < ty : UTF8Order.less(sessions[x].id, sessions[y].id)
    }

    /// Appends the `upcoming_sessions` record of player `u` to `w`, leaving it in the buffer:
    /// the sessions they joined or created (as a known player) that have not started
    /// (occursAt > asOf), soonest first, each with its sport, place, time, players and
    /// capacity; false, writing nothing, when there are none.
    package func writeUpcomingSessions(_ u: Int, to w: inout JSONWriter) -> Bool {
        let list = memberOf.values[memberOf.range(u)].filter { sessions[Int($0)].occursAt > settings.asOf }.sorted(by: soonerFirst)
        guard !list.isEmpty else { return false }
        w.beginKeyedList(players[u].id)
        for i in list {
            let j = Int(i)
            w.beginObject()
            w.field("session", sessions[j].id)
            w.field("sport", sessions[j].sportLabel)
            w.field("occursAt", CivilTime.formatUTC(sessions[j].occursAt))
            w.field("locationName", sessions[j].locationName)
            w.field("lat", sessions[j].lat, .coordinate)
            w.field("lon", sessions[j].lon, .coordinate)
            w.field("players", Self.memberCount(sessions[j]))
            w.field("capacity", sessions[j].capacity)
            if sessions[j].creator == Int32(u) { w.field("created", true) }
            w.endObject()
        }
        w.closeKeyedList()
        return true
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
