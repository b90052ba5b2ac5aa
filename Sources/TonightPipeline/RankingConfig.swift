import TonightCore
import TonightRanking

/// The ranking constants from the config (recommendations.md keys).
enum RankingConfig {
    static let ticketsKeys = [
        "recommendations.horizonDays", "recommendations.excludedStatuses", "recommendations.radiusKm",
        "recommendations.popularityPrior", "recommendations.explore.includeFavorites",
        "recommendations.explore.timeDecayDays", "recommendations.explore.distanceDecayKm",
        "recommendations.explore.perArtist", "recommendations.explore.size", "recommendations.explore.minItems",
        "recommendations.feed.size", "recommendations.tonight.from", "recommendations.tonight.until",
        "recommendations.tonight.size",
    ]
    static let playmateKeys = [
        "recommendations.sessions.radiusKm", "recommendations.sessions.size", "recommendations.sessions.weights.sport",
        "recommendations.sessions.weights.friends", "recommendations.sessions.weights.gender",
        "recommendations.sessions.weights.age",
    ]

    static func settings(_ c: TonightConfig, asOf: Int64, runDate: Int) throws -> RankingSettings {
        var s = RankingSettings(asOf: asOf, runDate: runDate)
        s.horizonDays = c.double("recommendations.horizonDays")
        s.excludedStatuses = Set(c.intList("recommendations.excludedStatuses").map(Int64.init))
        s.radiusKm = c.double("recommendations.radiusKm")
        s.popularityPrior = c.double("recommendations.popularityPrior")
        s.includeFavorites = c.bool("recommendations.explore.includeFavorites")
        s.timeDecayDays = c.double("recommendations.explore.timeDecayDays")
        s.distanceDecayKm = c.double("recommendations.explore.distanceDecayKm")
        s.perArtist = c.int("recommendations.explore.perArtist")
        s.exploreSize = c.int("recommendations.explore.size")
        s.minItems = c.int("recommendations.explore.minItems")
        s.feedSize = c.int("recommendations.feed.size")
        s.tonightFrom = try clock(c, "recommendations.tonight.from")
        s.tonightUntil = try clock(c, "recommendations.tonight.until")
        s.tonightSize = c.int("recommendations.tonight.size")
        s.sessionsRadiusKm = c.double("recommendations.sessions.radiusKm")
        s.sessionsSize = c.int("recommendations.sessions.size")
        s.weightSport = c.double("recommendations.sessions.weights.sport")
        s.weightFriends = c.double("recommendations.sessions.weights.friends")
        s.weightGender = c.double("recommendations.sessions.weights.gender")
        s.weightAge = c.double("recommendations.sessions.weights.age")
        return s
    }

    /// `HH:MM` → seconds after midnight.
    static func clock(_ c: TonightConfig, _ key: String) throws -> Int {
        let parts = c.string(key).split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else {
            throw TonightError(.usage, "setting \(key) is '\(c.string(key))', not HH:MM", hint: "e.g. 17:00")
        }
        return h * 3600 + m * 60
    }
}
