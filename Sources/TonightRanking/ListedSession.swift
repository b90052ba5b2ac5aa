import TonightBase

/// An open session as the suggestion scans hold it: everything `evaluate` reads of a session
/// (its place, sport, creator, known players and their counts per gender and age group) in one
/// value of the scan list itself, so that scoring a session reads no other line of memory.
///
/// History: the fields `evaluate` reads were first one value per session (`HotSession`, one
/// line instead of five arrays: alone within noise, 5.94 vs 6.01 s); then the place, players
/// and sport moved here, so that the sessions outside the
/// box around a player's circle are skipped without reading the session (those misses were a
/// third of the scans' time). The rest followed on 2026-11-26 (realistic `full`): with the
/// player's marks behind a filter (`PlaymateScratch.marked`), the last miss of `evaluate` was
/// the session's row of `groupCounts` (three quarters of its samples).
struct ListedSession: Sendable {
    var lat: Double
    var lon: Double
    /// `GeoDistance.cosLatitude(lat)`: with the player's, computed once, a distance takes two
    /// cosines fewer and has the same bits.
    var cosLat: Double
    var session: Int32
    /// Known players (`membersOf[s].count`): the scans by players bound a score with it.
    var memberCount: Int32
    /// The dense sport id (`sportOf`).
    var sport: Int32
    var creator: Int32
    /// The session's place among the open sessions by occurs_at then id (the rank order's
    /// last tie-breaks, as one integer; `Int32.max` for a session that is not open).
    var timeRank: Int32
    /// The known players per group (`PlaymateRanker.groupCounts`' row: 3 genders, then 9 age
    /// groups), a byte each: groups 0–7 in `groupsLow`, 8–11 in `groupsHigh`. Exact when
    /// `memberCount < 255` (a group never counts more than the known players); otherwise
    /// clamped, and `groupCount` is not to be used.
    private var groupsLow: UInt64
    private var groupsHigh: UInt32

    /// Whether `groupCount` is exact (else read `PlaymateRanker.groupCounts`).
    var groupCountsPacked: Bool { memberCount < 255 }

    /// The known players of group `k` (0..<12), when `groupCountsPacked`.
    @inline(__always)
    func groupCount(_ k: Int) -> Int {
        k < 8 ? Int(truncatingIfNeeded: groupsLow >> UInt64(8 * k)) & 0xFF
            : Int(truncatingIfNeeded: groupsHigh >> UInt32(8 * (k - 8))) & 0xFF
    }

    /// Session `session` at (`lat`, `lon`) with its row of group counts.
    init(session: Int32, lat: Double, lon: Double, sport: Int32, creator: Int32, memberCount: Int32, timeRank: Int32,
         groups: ArraySlice<Int32>) {
        precondition(groups.count == PlaymateRanker.groupsPerSession)
        (self.lat, self.lon, cosLat, self.session, self.timeRank) = (lat, lon, GeoDistance.cosLatitude(lat), session, timeRank)
        (self.memberCount, self.sport, self.creator) = (memberCount, sport, creator)
        var low: UInt64 = 0, high: UInt32 = 0
        for (k, c) in groups.enumerated() {
            let byte = UInt8(clamping: c)
            if k < 8 { low |= UInt64(byte) << UInt64(8 * k) } else { high |= UInt32(byte) << UInt32(8 * (k - 8)) }
        }
        (groupsLow, groupsHigh) = (low, high)
    }
}

/// Open sessions in the orders suggestions scan them: by occurs_at then id; by players
/// (desc) then that order; and both per sport.
struct SessionLists: Sendable {
    var byTime: [ListedSession]
    var byPlayers: [ListedSession]
    /// Per dense sport id (`sportOf`), empty for a sport without open sessions here.
    var bySportTime: [[ListedSession]]
    var bySportPlayers: [[ListedSession]]
}
