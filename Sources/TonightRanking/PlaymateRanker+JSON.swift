import TonightBase
import TonightCore
import TonightExports

extension PlaymateRanker {
    /// The `sessions` record of snapshots.md, or nil for an empty list.
    package func sessionsJSON(_ u: Int, _ list: [Suggestion], _ w: inout JSONWriter) -> [UInt8]? {
        guard !list.isEmpty else { return nil }
        typealias F = SessionsField
        w.beginKeyedList(players[u].id)
        for x in list {
            w.beginObject()
            w.field(F.session, sessions[Int(x.session)].id)
            w.field(F.score, x.score, .score)
            w.field(F.sportWeight, x.sportWeight)
            w.field(F.friends, x.friends)
            w.field(F.genderMatches, x.genderMatches)
            w.field(F.ageMatches, x.ageMatches)
            w.field(F.distanceKm, x.distanceKm, .distance)
            w.endObject()
        }
        return w.endKeyedList()
    }

    /// The `player_stats` field names, encoded once.
    private enum StatsField {
        static let key = JSONWriter.FieldName("key"), played = JSONWriter.FieldName("played")
        static let upcoming = JSONWriter.FieldName("upcoming"), created = JSONWriter.FieldName("created")
        static let hoursPlayed = JSONWriter.FieldName("hoursPlayed"), bySport = JSONWriter.FieldName("bySport")
        static let friends = JSONWriter.FieldName("friends")
    }

    /// The `sessions` items' field names, encoded once (200,000 players × 8 items × 7 names).
    private enum SessionsField {
        static let session = JSONWriter.FieldName("session"), score = JSONWriter.FieldName("score")
        static let sportWeight = JSONWriter.FieldName("sportWeight"), friends = JSONWriter.FieldName("friends")
        static let genderMatches = JSONWriter.FieldName("genderMatches"), ageMatches = JSONWriter.FieldName("ageMatches")
        static let distanceKm = JSONWriter.FieldName("distanceKm")
    }

    /// The `playmate_sessions` record of session `i` (every session, past ones included): the
    /// cleaned session with its creator and members when they are known players, and
    /// `players`, the count that capacity is compared with.
    package func sessionRecordJSON(_ i: Int, _ w: inout JSONWriter) -> [UInt8] {
        let s = sessions[i]
        w.beginObject()
        w.field("key", s.id)
        w.field("id", s.id)
        w.field("sport", s.sportLabel)
        w.field("skillLevel", s.skillLevel)
        if s.creator >= 0 { w.field("creator", players[Int(s.creator)].id) }
        w.field("occursAt", CivilTime.formatUTC(s.occursAt))
        if let d = s.durationMin { w.field("durationMin", d) }
        w.field("lat", s.lat, .coordinate)
        w.field("lon", s.lon, .coordinate)
        w.field("locationName", s.locationName)
        w.field("capacity", s.capacity)
        w.field("players", Self.memberCount(s))
        w.field("members", strings: membersOf[i].map { players[Int($0)].id })
        w.endObject()
        return w.take()
    }

    /// The `player_stats` record (every player has one).
    package func statsJSON(_ u: Int, _ st: Stats, _ w: inout JSONWriter) -> [UInt8] {
        typealias F = StatsField
        w.beginObject()
        w.field(F.key, players[u].id)
        w.field(F.played, st.played)
        w.field(F.upcoming, st.upcoming)
        w.field(F.created, st.created)
        w.field(F.hoursPlayed, Double(st.minutesPlayed) / 60)
        w.key(F.bySport)
        w.beginObject()
        for (k, v) in st.bySport.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { w.field(k, v) }
        w.endObject()
        w.field(F.friends, st.friends)
        w.endObject()
        return w.take()
    }
}
