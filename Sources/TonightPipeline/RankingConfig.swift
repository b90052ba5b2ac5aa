import TonightCore
import TonightRanking

/// The ranking constants from the config (recommendations.md keys).
enum RankingConfig {
    static let ticketsKeys: [any AnyConfigKey] = [
        R.horizonDays, R.excludedStatuses, R.radiusKm, R.popularityPrior, R.Explore.includeFavorites, R.Explore.timeDecayDays,
        R.Explore.distanceDecayKm, R.Explore.perArtist, R.Explore.size, R.Explore.minItems, R.Feed.size, R.Tonight.from,
        R.Tonight.until, R.Tonight.size,
    ]
    static let playmateKeys: [any AnyConfigKey] = [
        R.Sessions.radiusKm, R.Sessions.size, R.Sessions.weightSport, R.Sessions.weightFriends, R.Sessions.weightGender,
        R.Sessions.weightAge,
    ]

    private typealias R = ConfigKeys.Recommendations

    static func settings(_ c: TonightConfig, asOf: Int64, runDate: Int) throws -> RankingSettings {
        var s = RankingSettings(asOf: asOf, runDate: runDate)
        s.horizonDays = c[ConfigKeys.Recommendations.horizonDays]
        s.excludedStatuses = Set(c[ConfigKeys.Recommendations.excludedStatuses].map(Int64.init))
        s.radiusKm = c[ConfigKeys.Recommendations.radiusKm]
        s.popularityPrior = c[ConfigKeys.Recommendations.popularityPrior]
        s.includeFavorites = c[ConfigKeys.Recommendations.Explore.includeFavorites]
        s.timeDecayDays = c[ConfigKeys.Recommendations.Explore.timeDecayDays]
        s.distanceDecayKm = c[ConfigKeys.Recommendations.Explore.distanceDecayKm]
        s.perArtist = c[ConfigKeys.Recommendations.Explore.perArtist]
        s.exploreSize = c[ConfigKeys.Recommendations.Explore.size]
        s.minItems = c[ConfigKeys.Recommendations.Explore.minItems]
        s.feedSize = c[ConfigKeys.Recommendations.Feed.size]
        s.tonightFrom = clock(c[R.Tonight.from])
        s.tonightUntil = clock(c[R.Tonight.until])
        s.tonightSize = c[ConfigKeys.Recommendations.Tonight.size]
        s.sessionsRadiusKm = c[ConfigKeys.Recommendations.Sessions.radiusKm]
        s.sessionsSize = c[ConfigKeys.Recommendations.Sessions.size]
        s.weightSport = c[ConfigKeys.Recommendations.Sessions.weightSport]
        s.weightFriends = c[ConfigKeys.Recommendations.Sessions.weightFriends]
        s.weightGender = c[ConfigKeys.Recommendations.Sessions.weightGender]
        s.weightAge = c[ConfigKeys.Recommendations.Sessions.weightAge]
        return s
    }

    /// `HH:MM` (checked when the config was read) → seconds after midnight.
    static func clock(_ text: String) -> Int {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 3600 + parts[1] * 60 : 0
    }
}
