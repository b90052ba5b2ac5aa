/// A session suggested to a player (dataset `sessions`).
public struct SessionItem: Codable, Sendable, Equatable {
    /// Session id.
    public var session: String
    public var score: Double
    public var sportWeight: Int
    public var friends: Int
    public var genderMatches: Int
    public var ageMatches: Int
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
    public var hoursPlayed: Double
    /// Played sessions per sport.
    public var bySport: [String: Int]
    /// Number of friends.
    public var friends: Int
}
