import TonightCore
import TonightRanking

/// The ranking constants from the config (recommendations.md keys): each key is bound to the
/// setting it fills once, and the keys a stage lists for its fingerprint are those bindings'.
enum RankingConfig {
    /// A config key and how its value goes into `RankingSettings`.
    struct Binding: Sendable {
        let key: any AnyConfigKey
        let apply: @Sendable (TonightConfig, inout RankingSettings) -> Void

        init<V>(_ key: ConfigKey<V>, _ apply: @escaping @Sendable (V, inout RankingSettings) -> Void) {
            self.key = key
            self.apply = { config, settings in apply(config[key], &settings) }
        }
    }

    private typealias R = ConfigKeys.Recommendations

    static let tickets: [Binding] = [
        Binding(R.horizonDays) { $1.horizonDays = $0 },
        Binding(R.excludedStatuses) { $1.excludedStatuses = Set($0.map(Int64.init)) },
        Binding(R.radiusKm) { $1.radiusKm = $0 },
        Binding(R.popularityPrior) { $1.popularityPrior = $0 },
        Binding(R.Explore.includeFavorites) { $1.includeFavorites = $0 },
        Binding(R.Explore.timeDecayDays) { $1.timeDecayDays = $0 },
        Binding(R.Explore.distanceDecayKm) { $1.distanceDecayKm = $0 },
        Binding(R.Explore.perArtist) { $1.perArtist = $0 },
        Binding(R.Explore.size) { $1.exploreSize = $0 },
        Binding(R.Explore.minItems) { $1.minItems = $0 },
        Binding(R.Feed.size) { $1.feedSize = $0 },
        Binding(R.Tonight.from) { $1.tonightFrom = clock($0) },
        Binding(R.Tonight.until) { $1.tonightUntil = clock($0) },
        Binding(R.Tonight.size) { $1.tonightSize = $0 },
    ]

    static let playmate: [Binding] = [
        Binding(R.Sessions.radiusKm) { $1.sessionsRadiusKm = $0 },
        Binding(R.Sessions.size) { $1.sessionsSize = $0 },
        Binding(R.Sessions.weightSport) { $1.weightSport = $0 },
        Binding(R.Sessions.weightFriends) { $1.weightFriends = $0 },
        Binding(R.Sessions.weightGender) { $1.weightGender = $0 },
        Binding(R.Sessions.weightAge) { $1.weightAge = $0 },
    ]

    static var ticketsKeys: [any AnyConfigKey] { tickets.map(\.key) }
    static var playmateKeys: [any AnyConfigKey] { playmate.map(\.key) }

    /// The settings of both apps' rankings from the config.
    static func settings(_ c: TonightConfig, asOf: Int64, runDate: Int) throws -> RankingSettings {
        var s = RankingSettings(asOf: asOf, runDate: runDate)
        for b in tickets + playmate { b.apply(c, &s) }
        return s
    }

    /// `HH:MM` (checked when the config was read) → seconds after midnight.
    static func clock(_ text: String) -> Int {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 3600 + parts[1] * 60 : 0
    }
}
