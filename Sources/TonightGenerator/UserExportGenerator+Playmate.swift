import TonightCore
import TonightBase

extension UserExportGenerator {
    mutating func playmate(_ files: inout [String: ByteBuffer], _ planted: inout [PlantedFault], faults: Bool, prefix: String) {
        let n = scale.players
        var players = ByteBuffer(capacity: n * 64)
        var quiz = ByteBuffer(capacity: n * 80)
        var sessions = ByteBuffer(capacity: scale.sessions * 120)
        var members = ByteBuffer(capacity: scale.sessions * 60)
        var friends = ByteBuffer(capacity: n * 60)
        players.add("user_id,birthday,gender,lat,lon\n")
        quiz.add("user_id,lat,lon,play_sports,avoid_sports,genders,age_groups\n")
        sessions.add("session_id,sport,skill_level,creator_id,occurs_at,duration_min,lat,lon,location_name,capacity\n")
        members.add("session_id,user_id\n")
        friends.add("user_id,friend_id\n")
        var ids: [String] = []
        var homes: [(Double, Double)] = []
        ids.reserveCapacity(n)
        // Players live around a few hundred venue cities.
        let hubs = Array(feed.venues.prefix(max(1, min(feed.venues.count, 300))))
        var playerLines = 2
        for i in 0..<n {
            let id = objectID(i, salt: 2)
            ids.append(id)
            let hub = hubs[rng.skewed(hubs.count, k: 1.5)]
            let home = (hub.lat + (rng.unit() - 0.5) * 0.5, hub.lon + (rng.unit() - 0.5) * 0.5)
            homes.append(home)
            players.add(id)
            players.add(",")
            if rng.chance(0.9) {
                let day = CivilTime.days(year: rng.int(1950...2014), month: rng.int(1...12), day: rng.int(1...28))
                players.add(CivilTime.formatDate(days: day))
            }
            players.add(",")
            if rng.chance(0.9) { players.add(rng.pick(Self.genders)) }
            players.add(",")
            if rng.chance(0.7) {
                players.add(String(format: "%.6f,%.6f", home.0, home.1))
            } else {
                players.add(",")
            }
            players.add("\n")
            playerLines += 1
            if rng.chance(0.6) {
                quiz.add(id)
                quiz.add(",")
                if rng.chance(0.7) { quiz.add(String(format: "%.6f,%.6f", home.0 + 0.01, home.1 - 0.01)) } else { quiz.add(",") }
                quiz.add(",")
                quiz.addCSV(pickList(Self.sports, 1...3, caseNoise: true))
                quiz.add(",")
                quiz.addCSV(rng.chance(0.5) ? pickList(Self.sports, 1...2, caseNoise: false) : "")
                quiz.add(",")
                quiz.addCSV(pickList(Self.genders, 1...3, caseNoise: false))
                quiz.add(",")
                quiz.addCSV(pickList(Self.ageGroups, 1...3, caseNoise: false))
                quiz.add("\n")
            }
            if faults && i == n / 2 {
                players.add("\(id)z,1990-13-45,Female,,\n")
                planted.append(PlantedFault(file: prefix + "playmate/players.csv", line: playerLines, reason: "bad-date"))
                playerLines += 1
            }
        }
        // Friends lists (directed), drawn once every id exists.
        for i in 0..<n {
            var seen = Set<Int>()
            for _ in 0..<(rng.chance(0.7) ? rng.int(1...12) : 0) {
                let f = min(n - 1, max(0, i + rng.int(-300...300)))
                guard f != i, seen.insert(f).inserted else { continue }
                friends.add(ids[i])
                friends.add(",")
                friends.add(ids[f])
                friends.add("\n")
            }
        }
        var sessionLines = 2
        var upcoming: [(id: String, creator: Int)] = []
        for s in 0..<scale.sessions {
            let sid = "S" + objectID(s, salt: 3)
            let creator = rng.int(0..<n)
            let past = rng.chance(0.8)
            let occurs = asOf + (past ? -Int64(rng.int(1...365 * 24)) * 3600 : Int64(rng.int(1...30 * 24)) * 3600)
            let capacity = rng.int(2...16)
            let home = homes[creator]
            if !past { upcoming.append((sid, creator)) }
            sessions.add(sid)
            sessions.add(",")
            sessions.add(rng.chance(0.05) ? " " + rng.pick(Self.sports).lowercased() : rng.pick(Self.sports))
            sessions.add(",")
            sessions.add(["Beginner", "Intermediate", "Advanced", ""][rng.int(0..<4)])
            sessions.add(",")
            sessions.add(ids[creator])
            sessions.add(",")
            sessions.add(CivilTime.formatUTC(occurs / 1800 * 1800))
            sessions.add(",")
            sessions.add(String([30, 45, 60, 90, 120][rng.int(0..<5)]))
            sessions.add(",")
            sessions.add(String(format: "%.6f,%.6f", home.0 + (rng.unit() - 0.5) * 0.3, home.1 + (rng.unit() - 0.5) * 0.3))
            sessions.add(",")
            sessions.addCSV(rng.chance(0.2) ? "Court \(rng.int(1...9)), \(rng.pick(NameFactory.lastNames)) Park" : "\(rng.pick(NameFactory.lastNames)) Park")
            sessions.add(",")
            sessions.add(String(capacity))
            sessions.add("\n")
            sessionLines += 1
            let joined = rng.int(0...capacity)  // sometimes one more than fits with the creator: full
            var taken = Set([creator])
            for _ in 0..<max(0, joined - 1) {
                let p = min(n - 1, max(0, creator + rng.int(-200...200)))
                guard taken.insert(p).inserted else { continue }
                members.add(sid)
                members.add(",")
                members.add(ids[p])
                members.add("\n")
            }
            if faults && s == scale.sessions / 2 {
                sessions.add("\(sid)x,Tennis,,\(ids[creator]),2026-01-20T18:00:00Z,60,40.0,-74.0,Park,-3\n")
                planted.append(PlantedFault(file: prefix + "playmate/sessions.csv", line: sessionLines, reason: "bad-number"))
                sessionLines += 1
            }
        }
        files["playmate/players.csv"] = players
        files["playmate/quiz.csv"] = quiz
        files["playmate/sessions.csv"] = sessions
        files["playmate/session_players.csv"] = members
        files["playmate/friends.csv"] = friends
        files["playmate/feedback.csv"] = feedback(ids: ids, upcoming: upcoming, &planted, faults: faults, prefix: prefix)
    }

    /// `feedback.csv`: about 8 % of players answered 1–4 upcoming sessions of players near
    /// them in the id order (as suggestions would be), mostly `no`, with the reasons' mix
    /// skewed to `sport` and `time`; a few answers repeat (the last one stands). Drawn from
    /// a stream of its own, so the other files do not change with it.
    private func feedback(ids: [String], upcoming: [(id: String, creator: Int)], _ planted: inout [PlantedFault],
                          faults: Bool, prefix: String) -> ByteBuffer {
        var rng = self.rng.fork(0xFEED)
        var out = ByteBuffer(capacity: ids.count * 4)
        out.add("user_id,session_id,answer,reason\n")
        guard !upcoming.isEmpty else { return out }
        let byCreator = upcoming.sorted { $0.creator < $1.creator }
        let reasons = ["sport", "sport", "sport", "time", "time", "place", "people", "other", ""]
        var lines = 2
        for (i, id) in ids.enumerated() where rng.chance(0.08) {
            // Sessions whose creators are near i in the id order (players near each other).
            var lo = 0, hi = byCreator.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if byCreator[mid].creator < i - 300 { lo = mid + 1 } else { hi = mid }
            }
            let span = max(1, min(byCreator.count - lo, 40))
            for _ in 0..<rng.int(1...4) {
                let session = byCreator[min(byCreator.count - 1, lo + rng.int(0..<span))].id
                let no = rng.chance(0.7)
                let answer = no ? (rng.chance(0.05) ? "No" : "no") : "yes"
                out.add("\(id),\(session),\(answer),\(no ? rng.pick(reasons) : "")\n")
                lines += 1
            }
        }
        if faults {
            out.add("\(ids[ids.count / 3]),\(upcoming[0].id),maybe,time\n")
            planted.append(PlantedFault(file: prefix + "playmate/feedback.csv", line: lines, reason: "bad-value"))
        }
        return out
    }

    private mutating func pickList(_ from: [String], _ count: ClosedRange<Int>, caseNoise: Bool) -> String {
        var picked: [String] = []
        for _ in 0..<rng.int(count) {
            let v = rng.pick(from)
            if !picked.contains(v) { picked.append(caseNoise && rng.chance(0.1) ? v.lowercased() : v) }
        }
        return picked.joined(separator: "|")
    }
}
