/// A session suggested to a player (dataset `sessions`).
public struct SessionItem: Codable, Sendable, Equatable {
    /// Session id.
    public var session: String
    /// The ranking score (higher first).
    public var score: Double
    /// Sessions of the sport played, plus 10 if it is a quiz favourite.
    public var sportWeight: Int
    /// Players in the user's friends list.
    public var friends: Int
    /// Players of a gender the user asked for.
    public var genderMatches: Int
    /// Players of an age group the user asked for.
    public var ageMatches: Int
    /// Great-circle km from the user, when both places are known.
    public var distanceKm: Double?
}

/// A player's statistics (dataset `player_stats`; every player has one).
public struct PlayerStats: Codable, Sendable, Equatable {
    /// Sessions played (occurred by asOf).
    public var played: Int
    /// Upcoming sessions the player is in.
    public var upcoming: Int
    /// Sessions created.
    public var created: Int
    /// Hours of played sessions.
    public var hoursPlayed: Double
    /// Played sessions per sport.
    public var bySport: [String: Int]
    /// Number of friends.
    public var friends: Int
}

/// A Playmate session (dataset `playmate_sessions`, every session by id, past ones included).
public struct PlaymateSessionRecord: Codable, Sendable, Equatable {
    /// Session id.
    public var id: String
    /// The sport as the creator wrote it.
    public var sport: String
    /// The skill level, if given.
    public var skillLevel: String?
    /// The creator's player id, when the creator is a known player.
    public var creator: String?
    /// When it starts (ISO 8601 UTC).
    public var occursAt: String
    /// Planned minutes, if given.
    public var durationMin: Int?
    /// Where it is.
    public var lat: Double
    /// Where it is.
    public var lon: Double
    /// The place's name, if given.
    public var locationName: String?
    /// Most players.
    public var capacity: Int
    /// Players in it (joined rows plus the creator), the count compared with `capacity`.
    public var players: Int
    /// The known players in it (ids of `player_stats`).
    public var members: [String]
}
