/// Every constant of recommendations.md, with the spec's defaults (the pipeline fills them
/// from the config).
package struct RankingSettings: Sendable {
    package var asOf: Int64
    /// The run date D (days since the epoch).
    package var runDate: Int
    package var horizonDays = 60.0
    package var excludedStatuses: Set<Int64> = []
    package var radiusKm = 80.0
    package var popularityPrior = 50.0
    package var includeFavorites = true
    package var timeDecayDays = 21.0
    package var distanceDecayKm = 40.0
    package var perArtist = 2
    package var exploreSize = 50
    package var minItems = 10
    package var feedSize = 100
    /// Seconds after local midnight of D, and before local midnight of D+1 + `tonightUntil`.
    package var tonightFrom = 17 * 3600
    package var tonightUntil = 4 * 3600
    package var tonightSize = 3
    package var sessionsRadiusKm = 80.4672
    package var sessionsSize = 8
    package var weightSport = 5.2
    package var weightFriends = 2.3
    package var weightGender = 1.2
    package var weightAge = 1.9

    package init(asOf: Int64, runDate: Int) {
        self.asOf = asOf
        self.runDate = runDate
    }
}

/// Score order with near-ties: two scores whose relative difference is below 1e-9 are
/// equal, and the next sort key decides (recommendations.md).
package enum ScoreOrder {
    /// -1 if a ranks before b (higher), 1 if after, 0 if a near-tie.
    @inline(__always)
    package static func compare(_ a: Double, _ b: Double) -> Int {
        let scale = max(abs(a), abs(b))
        if abs(a - b) <= 1e-9 * scale { return 0 }
        return a > b ? -1 : 1
    }
}
