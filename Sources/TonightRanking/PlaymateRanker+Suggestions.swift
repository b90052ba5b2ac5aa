import Foundation
import TonightBase
import TonightExports
import TonightGeo

/// Per-thread scratch for suggestions: stamps instead of sets, a top-k buffer instead of a
/// sort. Make one per thread.
package struct PlaymateScratch {
    var friendCount: [UInt16]
    var friendStamp: [UInt32]
    var memberStamp: [UInt32]
    var doneStamp: [UInt32]
    var stamp: UInt32 = 0

    package init(sessions: Int) {
        friendCount = [UInt16](repeating: 0, count: sessions)
        friendStamp = [UInt32](repeating: 0, count: sessions)
        memberStamp = [UInt32](repeating: 0, count: sessions)
        doneStamp = [UInt32](repeating: 0, count: sessions)
    }

    mutating func next() {
        stamp &+= 1
        if stamp == 0 {
            for i in friendStamp.indices { friendStamp[i] = 0; memberStamp[i] = 0; doneStamp[i] = 0 }
            stamp = 1
        }
    }
}

extension PlaymateRanker {
    /// Rank order: score desc (near-ties equal), then sessions at a skill level the player has
    /// played before (`played`: their levels' bits), then occurs_at, then session id.
    @inline(__always)
    func before(_ x: Suggestion, _ y: Suggestion, played: UInt64) -> Bool {
        switch ScoreOrder.compare(x.score, y.score) {
        case -1: return true
        case 1: return false
        default:
            let px = skillBit[Int(x.session)] & played != 0, py = skillBit[Int(y.session)] & played != 0
            if px != py { return px }
            let a = sessions[Int(x.session)], b = sessions[Int(y.session)]
            if a.occursAt != b.occursAt { return a.occursAt < b.occursAt }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    /// In a scan by time of equal scores, a refused session `s` ends the scan unless a later one
    /// could still win on the skill tie-break (`s` is not at a played level, and some are).
    @inline(__always)
    func lastOfItsKind(_ s: Int32, _ played: UInt64) -> Bool {
        played == 0 || skillBit[Int(s)] & played != 0
    }

    /// Keeps the best `size` in order (insertion into a short sorted buffer).
    @inline(__always) @discardableResult
    func insert(_ x: Suggestion, into top: inout [Suggestion], played: UInt64) -> Bool {
        let size = settings.sessionsSize
        if top.count == size, let last = top.last, !before(x, last, played: played) { return false }
        var i = top.count
        while i > 0 && before(x, top[i - 1], played: played) { i -= 1 }
        top.insert(x, at: i)
        if top.count > size { top.removeLast() }
        return true
    }

    /// The suggested sessions of player `u`, best first (recommendations.md).
    package func suggestions(for u: Int, scratch: inout PlaymateScratch) -> [Suggestion] {
        scratch.next()
        let stamp = scratch.stamp
        let p = players[u]
        var weight = [Int](repeating: 0, count: sportNames.count)
        // The skill levels of the sessions the player has played (occurs_at ≤ asOf).
        var played: UInt64 = 0
        for s in memberOf[u] {
            weight[Int(sportOf[Int(s)])] += 1
            scratch.memberStamp[Int(s)] = stamp
            if sessions[Int(s)].occursAt <= settings.asOf { played |= skillBit[Int(s)] }
        }
        for name in Set(p.quiz?.playSports ?? []) { if let id = sportIDs[name] { weight[Int(id)] += 10 } }  // once per sport
        var avoided = [Bool](repeating: false, count: sportNames.count)
        for name in (p.quiz?.avoidSports ?? []) + (p.feedback?.avoidSports ?? []) {
            if let id = sportIDs[name] { avoided[Int(id)] = true }
        }
        // Declined sessions (feedback.csv) are excluded the way joined ones are; they add no weight.
        for s in declinedOf[Int32(u)] ?? [] { scratch.memberStamp[Int(s)] = stamp }
        var genderMask: UInt16 = 0, ageMask: UInt16 = 0
        for g in p.quiz?.genders ?? [] { if let i = Self.genders.firstIndex(of: g) { genderMask |= 1 << i } }
        for a in p.quiz?.ageGroups ?? [] { if let i = Self.ageGroups.firstIndex(of: a) { ageMask |= 1 << i } }
        for f in p.friends {
            for s in memberOf[Int(f)] where isOpen[Int(s)] {
                if scratch.friendStamp[Int(s)] != stamp {
                    scratch.friendStamp[Int(s)] = stamp
                    scratch.friendCount[Int(s)] = 0
                }
                scratch.friendCount[Int(s)] += 1
            }
        }
        let origin = origin(u)
        let originCos = origin.map { GeoDistance.cosLatitude($0.0) } ?? 0
        let radius = settings.sessionsRadiusKm
        // A latitude/longitude box around the circle: sessions outside it are skipped before
        // the exact haversine (a conservative bound: the box holds the whole circle).
        let boxLat = (radius + 1) / 110.5
        let boxLon = origin.map { o in (radius + 1) / (111.32 * max(0.01, cos(min(89.9, abs(o.0) + boxLat) * .pi / 180))) } ?? 0

        /// Scores open session `s` for u, or nil if a filter excludes it.
        func evaluate(_ s: Int32) -> Suggestion? {
            let i = Int(s)
            guard !avoided[Int(sportOf[i])], scratch.memberStamp[i] != stamp, creatorOf[i] != Int32(u) else { return nil }
            var distance: Double?
            if let (la, lo) = origin {
                let slat = sessionLat[i], slon = sessionLon[i]
                var dl = abs(slon - lo)
                if dl > 180 { dl = 360 - dl }
                guard abs(slat - la) <= boxLat, dl <= boxLon else { return nil }
                let d = GeoDistance.km(la, lo, cosLat1: originCos, slat, slon, cosLat2: sessionCos[i])
                guard d <= radius else { return nil }
                distance = d
            }
            let w = weight[Int(sportOf[i])]
            let f = scratch.friendStamp[i] == stamp ? Int(scratch.friendCount[i]) : 0
            var g = 0, a = 0
            if genderMask != 0 || ageMask != 0 {
                // The members' counts of the groups the player asked for.
                let counts = i * Self.groupsPerSession
                var m = genderMask
                while m != 0 {
                    g += Int(groupCounts[counts + m.trailingZeroBitCount])
                    m &= m - 1
                }
                m = ageMask
                while m != 0 {
                    a += Int(groupCounts[counts + Self.genders.count + m.trailingZeroBitCount])
                    m &= m - 1
                }
            }
            let score = settings.weightSport * Double(w) + settings.weightFriends * Double(f)
                + settings.weightGender * Double(g) + settings.weightAge * Double(a)
            return Suggestion(session: s, score: score, sportWeight: w, friends: f, genderMatches: g, ageMatches: a,
                              distanceKm: distance)
        }

        var top: [Suggestion] = []
        top.reserveCapacity(settings.sessionsSize + 1)
        let coefficient = (genderMask != 0 ? settings.weightGender : 0) + (ageMask != 0 ? settings.weightAge : 0)
        // The candidate lists: the grid cells around the origin, or everything without one.
        var cells: [SessionLists] = []
        if let (la, lo) = origin {
            GeoGrid.span(lat: la, lon: lo, radiusKm: radius)?.forEachIndex(in: gridKeys) { cells.append(grid[$0]) }
        } else {
            cells = [everywhere]
        }
        // 1. Sessions with a friend in them: scored exactly.
        for f in p.friends {
            for s in memberOf[Int(f)] where isOpen[Int(s)] && scratch.doneStamp[Int(s)] != stamp {
                scratch.doneStamp[Int(s)] = stamp
                if let x = evaluate(s) { insert(x, into: &top, played: played) }
            }
        }
        // 2. Sessions of a weighted sport (no friends): 5.2·w + at most coefficient × players.
        //    With coefficient 0 they all score 5.2·w: the earliest win, so scan by time and stop
        //    at the first one that cannot enter; otherwise scan by players (desc) and stop once
        //    the bound falls below the current last.
        for (sport, w) in weight.enumerated() where w > 0 && !avoided[sport] {
            let base = settings.weightSport * Double(w)
            for c in cells {
                if coefficient == 0 {
                    for s in c.bySportTime[sport] ?? [] where scratch.doneStamp[Int(s)] != stamp {
                        if let x = evaluate(s), !insert(x, into: &top, played: played), lastOfItsKind(s, played) { break }
                    }
                } else {
                    for s in c.bySportPlayers[sport] ?? [] where scratch.doneStamp[Int(s)] != stamp {
                        let bound = base + coefficient * Double(memberCount[Int(s)])
                        if top.count == settings.sessionsSize, let last = top.last, bound < last.score * (1 - 1e-8) { break }
                        if let x = evaluate(s) { insert(x, into: &top, played: played) }
                    }
                }
            }
        }
        // 3. The rest (no sport weight, no friend): at most coefficient × players.
        for c in cells {
            if coefficient == 0 {
                if top.count == settings.sessionsSize, let last = top.last, last.score > 0 { break }
                for s in c.byTime where scratch.doneStamp[Int(s)] != stamp && weight[Int(sportOf[Int(s)])] == 0 {
                    if let x = evaluate(s), !insert(x, into: &top, played: played), lastOfItsKind(s, played) { break }
                }
            } else {
                for s in c.byPlayers where scratch.doneStamp[Int(s)] != stamp && weight[Int(sportOf[Int(s)])] == 0 {
                    let bound = coefficient * Double(memberCount[Int(s)])
                    if top.count == settings.sessionsSize, let last = top.last, bound < last.score * (1 - 1e-8) { break }
                    if let x = evaluate(s) { insert(x, into: &top, played: played) }
                }
            }
        }
        return top
    }
}
