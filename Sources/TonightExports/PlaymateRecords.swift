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
    /// What the player answered about suggested sessions (`feedback.csv`), when anything.
    package var feedback: PlaymateFeedback?
    /// Indices into the players table (directed: these are in this player's list).
    package var friends: [Int32] = []

    package init(id: String, birthday: Int?, gender: String?, lat: Double?, lon: Double?) {
        self.id = id
        self.birthday = birthday
        self.gender = gender
        self.lat = lat
        self.lon = lon
    }

    /// 2: `feedback`.
    package static var schemaVersion: Int { 2 }

    /// The fields; `friends` print as player ids in JSON (the encoder's `names`).
    package func encode(to e: inout RecordEncoder) {
        e.key(id)
        e.field("id", id)
        e.date("birthday", days: birthday)
        e.field("gender", gender)
        e.field("lat", lat)
        e.field("lon", lon)
        e.nested("quiz", quiz)
        e.nested("feedback", feedback)
        e.references("friends", friends)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(id: try r.readString(), birthday: try r.readOptionalInt64().map(Int.init), gender: try r.readOptionalString(),
                  lat: try r.readOptionalDouble(), lon: try r.readOptionalDouble())
        if try r.readBool() { quiz = try PlaymateQuiz(from: &r) }
        if try r.readBool() { feedback = try PlaymateFeedback(from: &r) }
        friends = try r.readInt32Array()
    }
}

/// Quiz answers; sports are normalised (trimmed, lower-cased) for case-insensitive matching.
package struct PlaymateQuiz: Sendable, Equatable, EncodableRecord {
    package var lat: Double?
    package var lon: Double?
    package var playSports: [String]
    package var avoidSports: [String]
    package var genders: [String]
    package var ageGroups: [String]

    package func encode(to e: inout RecordEncoder) {
        e.field("lat", lat)
        e.field("lon", lon)
        e.field("playSports", playSports)
        e.field("avoidSports", avoidSports)
        e.field("genders", genders)
        e.field("ageGroups", ageGroups)
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
        playSports = try r.readStringArray()
        avoidSports = try r.readStringArray()
        genders = try r.readStringArray()
        ageGroups = try r.readStringArray()
    }
}

/// A player's standing answers about sessions (`feedback.csv`, the last row of each session
/// counting): the sessions they declined, and the sports they declined a session for the
/// reason `sport` (treated as avoided, like the quiz's `avoid_sports`).
package struct PlaymateFeedback: Sendable, Equatable, EncodableRecord {
    /// Session ids answered `no` (any reason), in id order.
    package var declined: [String]
    /// Sports (normalised) of the sessions declined for the reason `sport`, sorted, no repeats.
    package var avoidSports: [String]

    package init(declined: [String], avoidSports: [String]) {
        self.declined = declined
        self.avoidSports = avoidSports
    }

    package func encode(to e: inout RecordEncoder) {
        e.field("declined", declined)
        e.field("avoidSports", avoidSports)
    }

    init(from r: inout BinaryReader) throws {
        declined = try r.readStringArray()
        avoidSports = try r.readStringArray()
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

    /// The fields; `sport` is published as written (`sportLabel`), `players` as player ids.
    package func encode(to e: inout RecordEncoder) {
        e.key(id)
        e.field("id", id)
        e.internal(sport)
        e.field("sport", sportLabel)
        e.field("skillLevel", skillLevel)
        e.field("creator", creatorID)
        e.internal(Int64(creator))
        e.instant("occursAt", occursAt)
        e.field("durationMin", durationMin)
        e.field("lat", lat)
        e.field("lon", lon)
        e.field("locationName", locationName)
        e.field("capacity", capacity)
        e.references("players", joined)
    }

    package init(from r: inout BinaryReader) throws {
        id = try r.readString()
        sport = try r.readString()
        sportLabel = try r.readString()
        skillLevel = try r.readOptionalString()
        creatorID = try r.readString()
        creator = try r.readInt32()
        occursAt = try r.readInt64()
        durationMin = try r.readOptionalInt64().map(Int.init)
        lat = try r.readDouble()
        lon = try r.readDouble()
        locationName = try r.readOptionalString()
        capacity = try r.readInt()
        joined = try r.readInt32Array()
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
