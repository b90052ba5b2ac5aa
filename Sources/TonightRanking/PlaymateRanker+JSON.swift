import TonightBase
import TonightCore
import TonightExports

extension PlaymateRanker {
    /// Appends the `sessions` record of snapshots.md to `w`, leaving it in the buffer (for
    /// writers that batch records); false, writing nothing, for an empty list. The items are
    /// written in one run through a `JSONCursor` (`JSONWriter.elements`), each session id
    /// copied from its text encoded once (`sessionIDJSON`): the same bytes as one
    /// `JSONWriter.field` call per value.
    package func writeSessions(_ u: Int, _ list: [Suggestion], to w: inout JSONWriter) -> Bool {
        guard !list.isEmpty else { return false }
        let f = Self.sessionsFields
        w.beginKeyedList(players[u].id)
        var bound = 0
        for x in list { bound += Self.sessionItemBound + sessionIDJSON.range(Int(x.session)).count }
        sessionIDJSON.values.withUnsafeBytes { ids in
            w.elements(maxBytes: bound) { c in
                for (n, x) in list.enumerated() {
                    if n > 0 { c.byte(UInt8(ascii: ",")) }
                    c.byte(UInt8(ascii: "{"))
                    c.key(f.session)
                    c.bytes(UnsafeRawBufferPointer(rebasing: ids[sessionIDJSON.range(Int(x.session))]))
                    Self.field(f.score, &c)
                    c.double(x.score, .score)
                    Self.field(f.sportWeight, &c)
                    c.int(Int64(x.sportWeight))
                    Self.field(f.friends, &c)
                    c.int(Int64(x.friends))
                    Self.field(f.genderMatches, &c)
                    c.int(Int64(x.genderMatches))
                    Self.field(f.ageMatches, &c)
                    c.int(Int64(x.ageMatches))
                    if let d = x.distanceKm {
                        Self.field(f.distanceKm, &c)
                        c.double(d, .distance)
                    }
                    c.byte(UInt8(ascii: "}"))
                }
            }
        }
        w.closeKeyedList()
        return true
    }

    /// `,"name":` through a cursor.
    @inline(__always)
    private static func field(_ k: JSONWriter.FieldName, _ c: inout JSONCursor) {
        c.byte(UInt8(ascii: ","))
        c.key(k)
    }

    /// The most bytes of a `sessions` item besides its session id: braces, commas, seven
    /// field names, two numbers of at most `JSONCursor.maxDoubleBytes` and four integers of at
    /// most `JSONCursor.maxIntBytes` (generous).
    private static let sessionItemBound = 128 + 2 * JSONCursor.maxDoubleBytes + 4 * JSONCursor.maxIntBytes

    /// The `player_stats` field names, encoded once.
    private enum StatsField {
        static let key = JSONWriter.FieldName("key"), played = JSONWriter.FieldName("played")
        static let upcoming = JSONWriter.FieldName("upcoming"), created = JSONWriter.FieldName("created")
        static let hoursPlayed = JSONWriter.FieldName("hoursPlayed"), bySport = JSONWriter.FieldName("bySport")
        static let friends = JSONWriter.FieldName("friends")
    }

    /// The `sessions` items' field names, encoded once (200,000 players × 8 items × 7 names)
    /// and read once per record (every read of a global is a `swift_once` check).
    private struct SessionsFields {
        let session = JSONWriter.FieldName("session"), score = JSONWriter.FieldName("score")
        let sportWeight = JSONWriter.FieldName("sportWeight"), friends = JSONWriter.FieldName("friends")
        let genderMatches = JSONWriter.FieldName("genderMatches"), ageMatches = JSONWriter.FieldName("ageMatches")
        let distanceKm = JSONWriter.FieldName("distanceKm")
    }

    private static let sessionsFields = SessionsFields()

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

    /// Appends the `player_stats` record (every player has one) to `w`, leaving it in the buffer.
    package func writeStats(_ u: Int, _ st: Stats, to w: inout JSONWriter) {
        typealias F = StatsField
        w.beginObject()
        w.field(F.key, players[u].id)
        w.field(F.played, st.played)
        w.field(F.upcoming, st.upcoming)
        w.field(F.created, st.created)
        w.field(F.hoursPlayed, Double(st.minutesPlayed) / 60)
        w.key(F.bySport)
        w.beginObject()
        for e in st.bySport { w.field(sportNames[Int(e.sport)], e.count) }
        w.endObject()
        w.field(F.friends, st.friends)
        w.endObject()
        w.endRecord()
    }
}
