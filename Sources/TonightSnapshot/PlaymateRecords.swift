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
