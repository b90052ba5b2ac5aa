import TonightBase
import TonightCore
import TonightExports
import TonightGeo

extension PlaymateRanker {
    /// What the sessions' member lists give, built on one core beside `ItemFacts` (the two
    /// halves of `init` that need nothing of each other: the stage's first ~0.23 s ran on one
    /// core while the other waited).
    struct SessionMembers: Sendable {
        /// Known players of each session (joined, then the creator when known and not joined).
        var membersOf: [[Int32]]
        /// Each player's sessions, in session order.
        var memberOf: FlatLists<Int32>
        /// Sessions each player created.
        var created: [Int]
        /// Open future sessions, and the same per 1° cell, in session order.
        var open: [Int32] = []
        var cellOf: [Int64: [Int32]] = [:]
        /// Each session's id as its JSON string.
        var sessionIDJSON = FlatLists<UInt8>()

        init(_ sessions: [PlaymateSession], players: Int, settings: RankingSettings) {
            membersOf = sessions.map(PlaymateRanker.members)
            created = [Int](repeating: 0, count: players)
            for (i, s) in sessions.enumerated() {
                if s.creator >= 0 { created[Int(s.creator)] += 1 }
                if s.occursAt > settings.asOf && PlaymateRanker.memberCount(s) < s.capacity {
                    open.append(Int32(i))
                    cellOf[GeoGrid.cell(s.lat, s.lon), default: []].append(Int32(i))
                }
            }
            // Each player's sessions by a counting sort over the member lists: an array per
            // player appended to, then flattened, was a third of this half.
            memberOf = FlatLists(inverting: membersOf, count: players)
            var text: [UInt8] = []
            for s in sessions {
                text.removeAll(keepingCapacity: true)
                JSONKey.appendEncoded(s.id, to: &text)
                sessionIDJSON.append(text)
            }
        }
    }

    /// Per-player and per-session facts read from single fields: the other half of `init`.
    struct ItemFacts: Sendable {
        /// Each player's age group on asOf's UTC date (nil without birthday).
        var ageGroup: [String?]
        /// Sports as dense ids in order of first appearance, and each session's.
        var sportIDs: [String: Int32] = [:]
        var sportNames: [String] = []
        var sportOf: [Int32] = []
        /// Each session's skill level: 0 for none, else its number among the distinct
        /// levels (1, 2, … as the sessions are read); `levels` of them.
        var skillLevel: [Int32]
        var levels: Int
        /// Per player with feedback: the sessions it declined.
        var declinedOf: [Int32: [Int32]] = [:]
        /// Each player's gender and age group as indexes into `genders` and `ageGroups`
        /// (-1 if unknown).
        var genderOf: [Int]
        var ageOf: [Int]

        init(_ players: [PlaymatePlayer], _ sessions: [PlaymateSession], settings: RankingSettings) {
            let today = Int(CivilTime.floorDiv(settings.asOf, 86_400))
            ageGroup = players.map { p in p.birthday.map { PlaymateRanker.ageGroup(birthday: $0, on: today) } }
            sportOf.reserveCapacity(sessions.count)
            for s in sessions {
                if sportIDs[s.sport] == nil {
                    sportIDs[s.sport] = Int32(sportNames.count)
                    sportNames.append(s.sport)
                }
                sportOf.append(sportIDs[s.sport]!)
            }
            var levels: [String: Int32] = [:]
            skillLevel = sessions.map { s -> Int32 in
                guard let level = s.skillLevel, !level.isEmpty else { return 0 }
                if let k = levels[level] { return k }
                let k = Int32(levels.count + 1)
                levels[level] = k
                return k
            }
            self.levels = levels.count
            if players.contains(where: { $0.feedback != nil }) {
                let sessionIndex = Dictionary(sessions.enumerated().map { ($1.id, Int32($0)) }, uniquingKeysWith: { a, _ in a })
                for (u, p) in players.enumerated() {
                    guard let declined = p.feedback?.declined, !declined.isEmpty else { continue }
                    declinedOf[Int32(u)] = declined.compactMap { sessionIndex[$0] }
                }
            }
            genderOf = players.map { p in p.gender.flatMap { PlaymateRanker.genders.firstIndex(of: $0) } ?? -1 }
            let ageGroup = self.ageGroup
            ageOf = ageGroup.map { g in g.flatMap { PlaymateRanker.ageGroups.firstIndex(of: $0) } ?? -1 }
        }
    }
}
