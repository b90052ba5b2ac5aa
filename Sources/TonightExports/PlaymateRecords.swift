import TonightCore

/// A Playmate player with profile, quiz answers and friends (user-data.md).
package struct PlaymatePlayer: Sendable, Equatable, BinaryRecord {
    package var id: String
    /// Days since 1970-01-01.
    package var birthday: Int?
    package var gender: String?
    package var lat: Double?
    package var lon: Double?
    package var quiz: PlaymateQuiz?
    /// Indices into the players table (directed: these are in this player's list).
    package var friends: [Int32] = []

    package init(id: String, birthday: Int?, gender: String?, lat: Double?, lon: Double?) {
        self.id = id
        self.birthday = birthday
        self.gender = gender
        self.lat = lat
        self.lon = lon
    }

    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        w.write(id)
        w.write(birthday.map(Int64.init))
        w.write(gender)
        w.write(lat)
        w.write(lon)
        w.write(quiz != nil)
        if let quiz { quiz.encode(to: &w) }
        w.write(friends.map(Int64.init))
    }

    package init(from r: inout BinaryReader) throws {
        self.init(id: try r.readString(), birthday: try r.readOptionalInt64().map(Int.init), gender: try r.readOptionalString(),
                  lat: try r.readOptionalDouble(), lon: try r.readOptionalDouble())
        if try r.readBool() { quiz = try PlaymateQuiz(from: &r) }
        friends = try r.readInt64Array().map { Int32($0) }
    }
}

/// Quiz answers; sports are normalised (trimmed, lower-cased) for case-insensitive matching.
package struct PlaymateQuiz: Sendable, Equatable {
    package var lat: Double?
    package var lon: Double?
    package var playSports: [String]
    package var avoidSports: [String]
    package var genders: [String]
    package var ageGroups: [String]

    func encode(to w: inout BinaryWriter) {
        w.write(lat)
        w.write(lon)
        for list in [playSports, avoidSports, genders, ageGroups] {
            w.write(UInt64(list.count))
            for s in list { w.write(s) }
        }
    }

    init(lat: Double?, lon: Double?, playSports: [String], avoidSports: [String], genders: [String], ageGroups: [String]) {
        self.lat = lat
        self.lon = lon
        self.playSports = playSports
        self.avoidSports = avoidSports
        self.genders = genders
        self.ageGroups = ageGroups
    }

    init(from r: inout BinaryReader) throws {
        lat = try r.readOptionalDouble()
        lon = try r.readOptionalDouble()
        var lists: [[String]] = []
        for _ in 0..<4 { lists.append(try (0..<Int(try r.readUInt64())).map { _ in try r.readString() }) }
        playSports = lists[0]
        avoidSports = lists[1]
        genders = lists[2]
        ageGroups = lists[3]
    }
}

/// A session with its players (the joined ones; the creator is `creator`).
package struct PlaymateSession: Sendable, Equatable, BinaryRecord {
    package var id: String
    /// Normalised sport (trimmed, lower-cased); `sportLabel` as written.
    package var sport: String
    package var sportLabel: String
    package var skillLevel: String?
    package var creatorID: String
    /// Index of the creator in the players table, -1 if not a known player.
    package var creator: Int32
    package var occursAt: Int64
    package var durationMin: Int?
    package var lat: Double
    package var lon: Double
    package var locationName: String?
    package var capacity: Int
    /// Joined players (indices into the players table), without the creator, no repeats.
    package var joined: [Int32] = []

    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        w.write(id)
        w.write(sport)
        w.write(sportLabel)
        w.write(skillLevel)
        w.write(creatorID)
        w.write(Int64(creator))
        w.write(occursAt)
        w.write(durationMin.map(Int64.init))
        w.write(lat)
        w.write(lon)
        w.write(locationName)
        w.write(capacity)
        w.write(joined.map(Int64.init))
    }

    package init(from r: inout BinaryReader) throws {
        id = try r.readString()
        sport = try r.readString()
        sportLabel = try r.readString()
        skillLevel = try r.readOptionalString()
        creatorID = try r.readString()
        creator = Int32(try r.readInt64())
        occursAt = try r.readInt64()
        durationMin = try r.readOptionalInt64().map(Int.init)
        lat = try r.readDouble()
        lon = try r.readDouble()
        locationName = try r.readOptionalString()
        capacity = try r.readInt()
        joined = try r.readInt64Array().map { Int32($0) }
    }

    init(id: String, sport: String, sportLabel: String, skillLevel: String?, creatorID: String, creator: Int32, occursAt: Int64,
         durationMin: Int?, lat: Double, lon: Double, locationName: String?, capacity: Int) {
        self.id = id
        self.sport = sport
        self.sportLabel = sportLabel
        self.skillLevel = skillLevel
        self.creatorID = creatorID
        self.creator = creator
        self.occursAt = occursAt
        self.durationMin = durationMin
        self.lat = lat
        self.lon = lon
        self.locationName = locationName
        self.capacity = capacity
    }
}

extension PlaymatePlayer {
    package func writeJSON(to w: inout JSONWriter, ids: (Int32) -> String) {
        w.beginObject()
        w.field("key", id)
        w.field("id", id)
        if let birthday { w.field("birthday", CivilTime.formatDate(days: birthday)) }
        w.field("gender", gender)
        w.field("lat", lat)
        w.field("lon", lon)
        if let q = quiz {
            w.key("quiz")
            w.beginObject()
            w.field("lat", q.lat)
            w.field("lon", q.lon)
            w.field("playSports", strings: q.playSports)
            w.field("avoidSports", strings: q.avoidSports)
            w.field("genders", strings: q.genders)
            w.field("ageGroups", strings: q.ageGroups)
            w.endObject()
        }
        w.field("friends", strings: friends.map(ids))
        w.endObject()
    }
}

extension PlaymateSession {
    package func writeJSON(to w: inout JSONWriter, ids: (Int32) -> String) {
        w.beginObject()
        w.field("key", id)
        w.field("id", id)
        w.field("sport", sportLabel)
        w.field("skillLevel", skillLevel)
        w.field("creator", creatorID)
        w.field("occursAt", CivilTime.formatUTC(occursAt))
        if let durationMin { w.field("durationMin", durationMin) }
        w.field("lat", lat)
        w.field("lon", lon)
        w.field("locationName", locationName)
        w.field("capacity", capacity)
        w.field("players", strings: joined.map(ids))
        w.endObject()
    }
}
