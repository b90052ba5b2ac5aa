import Foundation
import TonightBase
import TonightCore
import TonightExports
import TonightGeo

/// Playmate (recommendations.md): suggested sessions per player, with the app's quirks fixed
/// (real distance, a full tie-break, filters for everyone), and player statistics. A class:
/// its sort orders and per-player closures capture it by one reference (a struct of some
/// twenty arrays was copied, every array retained and released, at each capture).
package final class PlaymateRanker: Sendable {
    package struct Suggestion: Sendable, Equatable {
        package var session: Int32
        package var score: Double
        package var sportWeight: Int
        package var friends: Int
        package var genderMatches: Int
        package var ageMatches: Int
        package var distanceKm: Double?
        /// The rank order's tie-breaks, read once when the session is scored: whether it is at
        /// a skill level the player has played, and its place by occurs_at then id.
        var playedLevel = false
        var timeRank: Int32 = .max
    }

    package struct Stats: Sendable, Equatable {
        package var played = 0
        package var upcoming = 0
        package var created = 0
        package var minutesPlayed = 0
        /// Past sessions per sport (dense sport ids, `sportNames`), in the byte order of the
        /// sports' names: the order `player_stats` writes them in.
        package var bySport: [SportCount] = []
        package var friends = 0
    }

    /// A sport (its dense id) and a count.
    package struct SportCount: Sendable, Equatable {
        package var sport: Int32
        package var count: Int
    }

    package let players: [PlaymatePlayer]
    package let sessions: [PlaymateSession]
    package let settings: RankingSettings
    /// Sessions each player is in (joined or created), any date, in session order: flat lists
    /// (`FlatLists`), so that a walk of a friend's sessions retains nothing and its two misses
    /// (the list's start, its first session) can be asked for ahead (`prefetchHeads`).
    let memberOf: FlatLists<Int32>
    /// Open future sessions (occurs after asOf, not full).
    let open: [Int32]
    /// Open sessions per 1°×1° cell, in the orders suggestions scan them.
    let grid: [SessionLists]
    /// The `GeoGrid` cell of each of `grid`'s lists, sorted.
    let gridKeys: [Int64]
    /// All open sessions in the same orders (players without an origin).
    let everywhere: SessionLists
    /// Each player's age group on asOf's UTC date (nil without birthday).
    let ageGroup: [String?]
    /// Sessions each player created (any date).
    let created: [Int]
    /// Sports as dense ids (normalised names), per session.
    let sportIDs: [String: Int32]
    let sportNames: [String]
    /// Each sport id's place in the byte order of the names, and the ids in that order.
    let sportRank: [Int32]
    let sportByRank: [Int32]
    let sportOf: [Int32]
    let isOpen: [Bool]
    /// Each session's skill level: 0 for none, else its number among the distinct levels
    /// (1, 2, … as the sessions are read).
    let skillLevel: [Int32]
    /// Each session's level as a bit of a player's mask of played levels: level k at bit
    /// (k − 1) mod 64, none at no bit. With more than 64 levels bits are shared, and a match
    /// is confirmed on the levels themselves (`atPlayedLevel`).
    let skillBit: [UInt64]
    let skillBitsShared: Bool
    /// Each session as the scan lists hold it (`ListedSession`: everything a score reads), also
    /// for the sessions scored by id (those with a friend in them).
    let listedOf: [ListedSession]
    /// Known players of each session (joined and creator).
    let membersOf: [[Int32]]
    /// Per session, its known players per gender (3) then per age group (9): what the gender
    /// and age matches of a player's filters sum, without walking the members.
    let groupCounts: [Int32]
    static let groupsPerSession = 12
    /// Per player with feedback: the sessions it declined (feedback.csv), never suggested again.
    let declinedOf: [Int32: [Int32]]
    /// Each session's id as its JSON string (quoted, escaped): list `i` is session `i`'s.
    /// Encoded once for the `sessions` items, which copy it (1.6 M items on realistic `full`).
    let sessionIDJSON: FlatLists<UInt8>

    static let genders = ["Female", "Male", "Non-binary"]
    static let ageGroups = ["Under 12", "12-17", "18-24", "25-34", "35-44", "45-54", "55-64", "65-74", "75+"]

    package init(players: [PlaymatePlayer], sessions: [PlaymateSession], settings: RankingSettings) {
        self.players = players
        self.sessions = sessions
        self.settings = settings
        // The two halves that need nothing of each other, one core each (the same tables
        // whatever the width: each half runs as one job).
        let (m, f) = Parallel.pair(
            { SessionMembers(sessions, players: players.count, settings: settings) },
            { ItemFacts(players, sessions, settings: settings) })
        memberOf = m.memberOf
        let open = m.open, cellOf = m.cellOf
        self.open = open
        created = m.created
        sessionIDJSON = m.sessionIDJSON
        ageGroup = f.ageGroup
        let sportNames = f.sportNames, sportOf = f.sportOf
        sportIDs = f.sportIDs
        self.sportNames = sportNames
        let byName = sportNames.indices.sorted { sportNames[$0].utf8.lexicographicallyPrecedes(sportNames[$1].utf8) }
        var sportRank = [Int32](repeating: 0, count: sportNames.count)
        for (r, id) in byName.enumerated() { sportRank[id] = Int32(r) }
        self.sportRank = sportRank
        sportByRank = byName.map { Int32($0) }
        self.sportOf = sportOf
        var isOpen = [Bool](repeating: false, count: sessions.count)
        for s in open { isOpen[Int(s)] = true }
        self.isOpen = isOpen
        skillLevel = f.skillLevel
        skillBit = f.skillLevel.map { $0 == 0 ? 0 : 1 << UInt64(($0 - 1) & 63) }
        skillBitsShared = f.levels > 64
        let membersOf = m.membersOf
        self.membersOf = membersOf
        declinedOf = f.declinedOf
        // Per session, its known players per gender and per age group.
        let genderOf = f.genderOf, ageOf = f.ageOf
        var groupCounts = [Int32](repeating: 0, count: sessions.count * Self.groupsPerSession)
        for (s, members) in membersOf.enumerated() {
            for m in members {
                if genderOf[Int(m)] >= 0 { groupCounts[s * Self.groupsPerSession + genderOf[Int(m)]] += 1 }
                if ageOf[Int(m)] >= 0 { groupCounts[s * Self.groupsPerSession + Self.genders.count + ageOf[Int(m)]] += 1 }
            }
        }
        self.groupCounts = groupCounts
        // The open sessions by occurs_at then id, once: every list below sorts by this rank.
        let openByTime = open.sorted { a, b in
            let x = sessions[Int(a)].occursAt, y = sessions[Int(b)].occursAt
            return x != y ? x < y : sessions[Int(a)].id.utf8.lexicographicallyPrecedes(sessions[Int(b)].id.utf8)
        }
        var timeRank = [Int32](repeating: .max, count: sessions.count)
        for (r, s) in openByTime.enumerated() { timeRank[Int(s)] = Int32(r) }
        let groups = Self.groupsPerSession
        let listedOf = sessions.indices.map { i in
            ListedSession(session: Int32(i), lat: sessions[i].lat, lon: sessions[i].lon, sport: sportOf[i], creator: sessions[i].creator,
                          memberCount: Int32(membersOf[i].count), timeRank: timeRank[i], groups: groupCounts[(i * groups)..<((i + 1) * groups)])
        }
        self.listedOf = listedOf
        let members = membersOf
        let sport = sportOf
        func lists(_ ids: [Int32]) -> SessionLists {
            let byTime = ids.sorted { timeRank[Int($0)] < timeRank[Int($1)] }
            // Ties by place in `byTime`, which is the open sessions' (unique) time rank: a
            // dictionary of places per cell was most of this function.
            let byPlayers = byTime.sorted { a, b in
                let x = members[Int(a)].count, y = members[Int(b)].count
                return x != y ? x > y : timeRank[Int(a)] < timeRank[Int(b)]
            }
            func listed(_ s: Int32) -> ListedSession { listedOf[Int(s)] }
            var bySportTime = [[ListedSession]](repeating: [], count: sportNames.count)
            var bySportPlayers = bySportTime
            for s in byTime { bySportTime[Int(sport[Int(s)])].append(listed(s)) }
            for s in byPlayers { bySportPlayers[Int(sport[Int(s)])].append(listed(s)) }
            return SessionLists(byTime: byTime.map(listed), byPlayers: byPlayers.map(listed), bySportTime: bySportTime,
                                bySportPlayers: bySportPlayers)
        }
        gridKeys = cellOf.keys.sorted()
        grid = gridKeys.map { lists(cellOf[$0]!) }
        everywhere = lists(open)
    }

    /// The session's known players: joined ones and the creator (when a known player).
    static func members(_ s: PlaymateSession) -> [Int32] {
        s.creator >= 0 && !s.joined.contains(s.creator) ? s.joined + [s.creator] : s.joined
    }

    /// Players for capacity: the joined rows plus the creator (known or not).
    static func memberCount(_ s: PlaymateSession) -> Int {
        s.joined.count + (s.creator >= 0 && s.joined.contains(s.creator) ? 0 : 1)
    }


    /// Completed years on `day` (days since the epoch) → the app's age group.
    package static func ageGroup(birthday: Int, on day: Int) -> String {
        let b = CivilTime.civil(days: birthday), d = CivilTime.civil(days: day)
        var age = d.year - b.year
        if (d.month, d.day) < (b.month, b.day) { age -= 1 }
        switch age {
        case ..<12: return "Under 12"
        case 12...17: return "12-17"
        case 18...24: return "18-24"
        case 25...34: return "25-34"
        case 35...44: return "35-44"
        case 45...54: return "45-54"
        case 55...64: return "55-64"
        case 65...74: return "65-74"
        default: return "75+"
        }
    }

    /// The player's origin: quiz coordinates, else profile, else none.
    package func origin(_ u: Int) -> (Double, Double)? {
        // Read in place (a copy of the player retained its strings and arrays).
        if let la = players[u].quiz?.lat, let lo = players[u].quiz?.lon { return (la, lo) }
        if let la = players[u].lat, let lo = players[u].lon { return (la, lo) }
        return nil
    }

    /// The statistics of player `u` (zeros included).
    package func stats(for u: Int) -> Stats {
        var st = Stats()
        // The past sessions' sports by the rank of their names, counted in runs once sorted
        // (a dictionary by name hashed every sport's name, then was sorted for writing).
        var ranks: [Int32] = []
        for j in memberOf.range(u) {
            let i = memberOf.values[j]
            // Fields read in place: a copy of the session retained and released its strings.
            if sessions[Int(i)].occursAt <= settings.asOf {
                st.played += 1
                st.minutesPlayed += sessions[Int(i)].durationMin ?? 0
                // Normalised: one sport written two ways counts once.
                ranks.append(sportRank[Int(sportOf[Int(i)])])
            } else {
                st.upcoming += 1
            }
        }
        ranks.sort()
        var k = 0
        while k < ranks.count {
            var end = k + 1
            while end < ranks.count && ranks[end] == ranks[k] { end += 1 }
            st.bySport.append(SportCount(sport: sportByRank[Int(ranks[k])], count: end - k))
            k = end
        }
        st.created = created[u]
        st.friends = players[u].friends.count
        return st
    }
}
