import Foundation
import TonightCore
import TonightExports
import TonightGeo

/// Playmate (recommendations.md): suggested sessions per player, with the app's quirks fixed
/// (real distance, a full tie-break, filters for everyone), and player statistics.
package struct PlaymateRanker: Sendable {
    package struct Suggestion: Sendable, Equatable {
        package var session: Int32
        package var score: Double
        package var sportWeight: Int
        package var friends: Int
        package var genderMatches: Int
        package var ageMatches: Int
        package var distanceKm: Double?
    }

    package struct Stats: Sendable, Equatable {
        package var played = 0
        package var upcoming = 0
        package var created = 0
        package var minutesPlayed = 0
        package var bySport: [String: Int] = [:]
        package var friends = 0
    }

    package let players: [PlaymatePlayer]
    package let sessions: [PlaymateSession]
    package let settings: RankingSettings
    /// Sessions each player is in (joined or created), any date.
    let memberOf: [[Int32]]
    /// Open future sessions (occurs after asOf, not full).
    let open: [Int32]
    /// Open sessions per 1°×1° cell.
    let grid: [Int64: [Int32]]
    /// Each player's age group on asOf's UTC date (nil without birthday).
    let ageGroup: [String?]
    /// Sessions each player created (any date).
    let created: [Int]

    package init(players: [PlaymatePlayer], sessions: [PlaymateSession], settings: RankingSettings) {
        self.players = players
        self.sessions = sessions
        self.settings = settings
        var memberOf = [[Int32]](repeating: [], count: players.count)
        var open: [Int32] = []
        var grid: [Int64: [Int32]] = [:]
        var created = [Int](repeating: 0, count: players.count)
        for (i, s) in sessions.enumerated() {
            if s.creator >= 0 { created[Int(s.creator)] += 1 }
            for p in Self.members(s) { memberOf[Int(p)].append(Int32(i)) }
            if s.occursAt > settings.asOf && Self.memberCount(s) < s.capacity {
                open.append(Int32(i))
                grid[Self.cell(s.lat, s.lon), default: []].append(Int32(i))
            }
        }
        self.memberOf = memberOf
        self.open = open
        self.grid = grid
        self.created = created
        let today = Int(CivilTime.floorDiv(settings.asOf, 86_400))
        ageGroup = players.map { p in p.birthday.map { Self.ageGroup(birthday: $0, on: today) } }
    }

    /// The session's known players: joined ones and the creator (when a known player).
    static func members(_ s: PlaymateSession) -> [Int32] {
        s.creator >= 0 && !s.joined.contains(s.creator) ? s.joined + [s.creator] : s.joined
    }

    /// Players for capacity: the joined rows plus the creator (known or not).
    static func memberCount(_ s: PlaymateSession) -> Int {
        s.joined.count + (s.creator >= 0 && s.joined.contains(s.creator) ? 0 : 1)
    }

    static func cell(_ lat: Double, _ lon: Double) -> Int64 { Int64(floor(lat) + 90) * 1000 + Int64(floor(lon) + 180) }

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
        let p = players[u]
        if let q = p.quiz, let la = q.lat, let lo = q.lon { return (la, lo) }
        if let la = p.lat, let lo = p.lon { return (la, lo) }
        return nil
    }

    /// The suggested sessions of player `u`, best first.
    package func suggestions(for u: Int) -> [Suggestion] {
        let p = players[u]
        var history: [String: Int] = [:]
        for s in memberOf[u] { history[sessions[Int(s)].sport, default: 0] += 1 }
        let play = Set(p.quiz?.playSports ?? []), avoid = Set(p.quiz?.avoidSports ?? [])
        let genders = Set(p.quiz?.genders ?? []), ages = Set(p.quiz?.ageGroups ?? [])
        let friends = Set(p.friends)
        let origin = origin(u)
        let radius = settings.sessionsRadiusKm
        var candidates: [Int32]
        if let (la, lo) = origin {
            candidates = []
            let dLat = radius / 110.5
            let dLon = min(180, radius / (111.32 * max(0.01, cos(min(89.0, abs(la) + dLat) * .pi / 180))))
            var y = floor(la - dLat)
            while y <= floor(la + dLat) {
                var x = floor(lo - dLon)
                while x <= floor(lo + dLon) {
                    let w = x < -180 ? x + 360 : (x >= 180 ? x - 360 : x)
                    candidates += grid[Self.cell(y, w)] ?? []
                    x += 1
                }
                y += 1
            }
            candidates = Array(Set(candidates))
        } else {
            candidates = open
        }
        var out: [Suggestion] = []
        for i in candidates {
            let s = sessions[Int(i)]
            guard !avoid.contains(s.sport) else { continue }
            let members = Self.members(s)
            guard !members.contains(Int32(u)), s.creator != Int32(u) else { continue }
            var distance: Double?
            if let (la, lo) = origin {
                let d = GeoDistance.km(la, lo, s.lat, s.lon)
                guard d <= radius else { continue }
                distance = d
            }
            let weight = (history[s.sport] ?? 0) + (play.contains(s.sport) ? 10 : 0)
            var f = 0, g = 0, a = 0
            for m in members {
                if friends.contains(m) { f += 1 }
                if let mg = players[Int(m)].gender, genders.contains(mg) { g += 1 }
                if let ag = ageGroup[Int(m)], ages.contains(ag) { a += 1 }
            }
            let score = settings.weightSport * Double(weight) + settings.weightFriends * Double(f)
                + settings.weightGender * Double(g) + settings.weightAge * Double(a)
            out.append(Suggestion(session: i, score: score, sportWeight: weight, friends: f, genderMatches: g, ageMatches: a,
                                  distanceKm: distance))
        }
        out.sort { x, y in
            switch ScoreOrder.compare(x.score, y.score) {
            case -1: return true
            case 1: return false
            default:
                let a = sessions[Int(x.session)], b = sessions[Int(y.session)]
                if a.occursAt != b.occursAt { return a.occursAt < b.occursAt }
                return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
            }
        }
        return Array(out.prefix(settings.sessionsSize))
    }

    /// The statistics of player `u` (zeros included).
    package func stats(for u: Int) -> Stats {
        var st = Stats()
        for i in memberOf[u] {
            let s = sessions[Int(i)]
            if s.occursAt <= settings.asOf {
                st.played += 1
                st.minutesPlayed += s.durationMin ?? 0
                st.bySport[s.sport, default: 0] += 1  // normalised: one sport written two ways counts once
            } else {
                st.upcoming += 1
            }
        }
        st.created = created[u]
        st.friends = players[u].friends.count
        return st
    }
}

extension PlaymateRanker {
    /// The `sessions` record of snapshots.md, or nil for an empty list.
    package func sessionsJSON(_ u: Int, _ list: [Suggestion], _ w: inout JSONWriter) -> [UInt8]? {
        guard !list.isEmpty else { return nil }
        w.beginObject()
        w.field("key", players[u].id)
        w.key("items")
        w.beginArray()
        for x in list {
            w.beginObject()
            w.field("session", sessions[Int(x.session)].id)
            w.field("score", x.score)
            w.field("sportWeight", x.sportWeight)
            w.field("friends", x.friends)
            w.field("genderMatches", x.genderMatches)
            w.field("ageMatches", x.ageMatches)
            w.field("distanceKm", x.distanceKm)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.take()
    }

    /// The `player_stats` record (every player has one).
    package func statsJSON(_ u: Int, _ st: Stats, _ w: inout JSONWriter) -> [UInt8] {
        w.beginObject()
        w.field("key", players[u].id)
        w.field("played", st.played)
        w.field("upcoming", st.upcoming)
        w.field("created", st.created)
        w.field("hoursPlayed", Double(st.minutesPlayed) / 60)
        w.key("bySport")
        w.beginObject()
        for (k, v) in st.bySport.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { w.field(k, v) }
        w.endObject()
        w.field("friends", st.friends)
        w.endObject()
        return w.take()
    }
}
