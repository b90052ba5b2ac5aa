import Foundation
import TonightBase
import TonightExports
import TonightGeo

/// Per-thread scratch for suggestions: stamps instead of sets, a top-k buffer instead of a
/// sort. Make one per thread.
package struct PlaymateScratch {
    /// A session's marks for the player being ranked, side by side in one 16-byte value.
    struct Marks {
        /// The player is in it, or declined it.
        var member: UInt32 = 0
        /// `friends` counts the player's friends in it.
        var friend: UInt32 = 0
        /// Already scored.
        var done: UInt32 = 0
        var friends: UInt16 = 0
    }

    var marks: [Marks]
    var stamp: UInt32 = 0
    /// A filter of the sessions marked for the player being ranked (bit `s % 1024`): a scan
    /// reads a session's marks only where its bit is set. Most sessions a scan passes are not
    /// the player's, their friends' or declined ones, and their marks were a cache miss each.
    var marked = [UInt64](repeating: 0, count: PlaymateScratch.filterWords)
    static let filterWords = 16

    package init(sessions: Int) {
        marks = [Marks](repeating: Marks(), count: sessions)
    }

    mutating func next() {
        stamp &+= 1
        if stamp == 0 {
            for i in marks.indices { marks[i] = Marks() }
            stamp = 1
        }
        for w in marked.indices { marked[w] = 0 }
    }

    /// Records that session `s` has marks for this player.
    @inline(__always)
    mutating func mark(_ s: Int32) {
        marked[Int(s >> 6) & (Self.filterWords - 1)] |= 1 << UInt64(s & 63)
    }

    /// The marks of session `s` for this player (blank when its filter bit is clear).
    @inline(__always)
    func marks(_ s: Int32) -> Marks {
        marked[Int(s >> 6) & (Self.filterWords - 1)] & (1 << UInt64(s & 63)) == 0 ? Marks() : marks[Int(s)]
    }
}

extension PlaymateRanker {
    /// Rank order: score desc (near-ties equal), then sessions at a skill level the player has
    /// played before, then occurs_at, then session id (the last two as `timeRank`). Both
    /// tie-breaks are read into the suggestion when it is scored: the comparisons of a
    /// player's insertions touch no session.
    @inline(__always)
    func before(_ x: Suggestion, _ y: Suggestion) -> Bool {
        switch ScoreOrder.compare(x.score, y.score) {
        case -1: return true
        case 1: return false
        default:
            if x.playedLevel != y.playedLevel { return x.playedLevel }
            return x.timeRank < y.timeRank
        }
    }

    /// In a scan by time of equal scores, a refused session `s` ends the scan unless a later one
    /// could still win on the skill tie-break (`s` is not at a played level, and some are).
    @inline(__always)
    func lastOfItsKind(_ s: Int32, _ played: UInt64, _ playedLevels: [Int32]) -> Bool {
        played == 0 || atPlayedLevel(Int(s), played, playedLevels)
    }

    /// Whether session `s` is at a level the player has played: its bit in the player's mask,
    /// confirmed on the levels (`playedLevels`) when bits are shared (more than 64 levels).
    @inline(__always)
    func atPlayedLevel(_ s: Int, _ played: UInt64, _ playedLevels: [Int32]) -> Bool {
        guard skillBit[s] & played != 0 else { return false }
        return !skillBitsShared || playedLevels.contains(skillLevel[s])
    }

    /// Keeps the best `size` in order (insertion into a short sorted buffer).
    @inline(__always) @discardableResult
    func insert(_ x: Suggestion, into top: inout [Suggestion]) -> Bool {
        let size = settings.sessionsSize
        if top.count == size, let last = top.last, !before(x, last) { return false }
        var i = top.count
        while i > 0 && before(x, top[i - 1]) { i -= 1 }
        top.insert(x, at: i)
        if top.count > size { top.removeLast() }
        return true
    }

    /// The suggested sessions of player `u`, best first (recommendations.md).
    package func suggestions(for u: Int, scratch: inout PlaymateScratch) -> [Suggestion] {
        scratch.next()
        let stamp = scratch.stamp
        // The player's fields are read in place: a copy of the player retained and released
        // its id, quiz, feedback and friends (~1 % of the stage).
        let friends = players[u].friends
        var weight = [Int](repeating: 0, count: sportNames.count)
        // The skill levels of the sessions the player has played (occurs_at ≤ asOf).
        var mask: UInt64 = 0
        var levels: [Int32] = []  // only where bits are shared
        // The friends' lists of sessions are walked below (twice): their first misses asked
        // for now, overlapped with the player's own.
        memberOf.prefetchHeads(friends)
        for j in memberOf.range(u) {
            let s = memberOf.values[j]
            weight[Int(sportOf[Int(s)])] += 1
            scratch.marks[Int(s)].member = stamp
            scratch.mark(s)
            if sessions[Int(s)].occursAt <= settings.asOf {
                mask |= skillBit[Int(s)]
                if skillBitsShared && skillLevel[Int(s)] != 0 { levels.append(skillLevel[Int(s)]) }
            }
        }
        // Constants for the closures below (a captured `var` is boxed).
        let played = mask, playedLevels = levels
        if let plays = players[u].quiz?.playSports {
            // Once per name (a name repeated counts once): a quiz names a few sports, compared
            // pairwise without a set's allocation and hashing; a longer list (an exporter's
            // bug, or hostile) through a set, so that it costs linear time.
            if plays.count <= 8 {
                for (k, name) in plays.enumerated() where !plays[..<k].contains(name) {
                    if let id = sportIDs[name] { weight[Int(id)] += 10 }
                }
            } else {
                for name in Set(plays) { if let id = sportIDs[name] { weight[Int(id)] += 10 } }
            }
        }
        var avoided = [Bool](repeating: false, count: sportNames.count)
        for name in players[u].quiz?.avoidSports ?? [] { if let id = sportIDs[name] { avoided[Int(id)] = true } }
        for name in players[u].feedback?.avoidSports ?? [] { if let id = sportIDs[name] { avoided[Int(id)] = true } }
        // Declined sessions (feedback.csv) are excluded the way joined ones are; they add no weight.
        for s in declinedOf[Int32(u)] ?? [] {
            scratch.marks[Int(s)].member = stamp
            scratch.mark(s)
        }
        var genderMask: UInt16 = 0, ageMask: UInt16 = 0
        for g in players[u].quiz?.genders ?? [] { if let i = Self.genders.firstIndex(of: g) { genderMask |= 1 << i } }
        for a in players[u].quiz?.ageGroups ?? [] { if let i = Self.ageGroups.firstIndex(of: a) { ageMask |= 1 << i } }
        for f in friends {
            for j in memberOf.range(Int(f)) {
                let s = memberOf.values[j]
                guard isOpen[Int(s)] else { continue }
                if scratch.marks[Int(s)].friend != stamp {
                    scratch.marks[Int(s)].friend = stamp
                    scratch.marks[Int(s)].friends = 0
                    scratch.mark(s)
                }
                scratch.marks[Int(s)].friends += 1
            }
        }
        let origin = origin(u)
        let originCos = origin.map { GeoDistance.cosLatitude($0.0) } ?? 0
        let radius = settings.sessionsRadiusKm
        // Whether a session is within the radius is decided by bounds of the haversine term
        // where they are clear (no libm): only sessions near the circle's edge take `km`.
        let reach = GeoDistance.reachLimit(radiusKm: radius), inside = GeoDistance.insideLimit(radiusKm: radius)
        // A latitude/longitude box around the circle: sessions outside it are skipped before
        // the exact haversine (a conservative bound: the box holds the whole circle).
        let boxLat = (radius + 1) / 110.5
        let boxLon = origin.map { o in (radius + 1) / (111.32 * max(0.01, cos(min(89.9, abs(o.0) + boxLat) * .pi / 180))) } ?? 0

        /// Whether a point is in the box around the origin (a player without one has none).
        @inline(__always)
        func inBox(_ lat: Double, _ lon: Double, _ la: Double, _ lo: Double) -> Bool {
            var dl = abs(lon - lo)
            if dl > 180 { dl = 360 - dl }
            return abs(lat - la) <= boxLat && dl <= boxLon
        }

        /// Outside the box (never, without an origin): `evaluate` would refuse it, so a scan
        /// skips it without reading the session.
        @inline(__always)
        func outside(_ e: ListedSession) -> Bool {
            guard let (la, lo) = origin else { return false }
            return !inBox(e.lat, e.lon, la, lo)
        }

        /// Scores open session `h.session` for u, or nil if a filter excludes it. Reads the
        /// session's marks only when the filter says it may have some.
        func evaluate(_ h: ListedSession) -> Suggestion? {
            let s = h.session, i = Int(s)
            guard !avoided[Int(h.sport)], h.creator != Int32(u) else { return nil }
            let marks = scratch.marks(s)
            guard marks.member != stamp else { return nil }
            if let (la, lo) = origin {
                guard inBox(h.lat, h.lon, la, lo) else { return nil }
                // The distance is not in the score: only whether it is within the radius, the
                // exact `km <= radius` test, decided without libm where a bound settles it.
                // The suggestions kept get their distance at the end (`withDistances`).
                if GeoDistance.haversineUpperBound(la, lo, cosLat1: originCos, h.lat, h.lon, cosLat2: h.cosLat) > inside {
                    if GeoDistance.haversineLowerBound(la, lo, cosLat1: originCos, h.lat, h.lon, cosLat2: h.cosLat) > reach { return nil }
                    guard GeoDistance.km(la, lo, cosLat1: originCos, h.lat, h.lon, cosLat2: h.cosLat) <= radius else { return nil }
                }
            }
            let w = weight[Int(h.sport)]
            let f = marks.friend == stamp ? Int(marks.friends) : 0
            var g = 0, a = 0
            if genderMask != 0 || ageMask != 0 {
                // The members' counts of the groups the player asked for: from the list entry,
                // or for a session of 255 known players or more (a byte may clamp) from the
                // full counts.
                let row = i * Self.groupsPerSession, packed = h.groupCountsPacked
                @inline(__always) func count(_ k: Int) -> Int { packed ? h.groupCount(k) : Int(groupCounts[row + k]) }
                var m = genderMask
                while m != 0 {
                    g += count(m.trailingZeroBitCount)
                    m &= m - 1
                }
                m = ageMask
                while m != 0 {
                    a += count(Self.genders.count + m.trailingZeroBitCount)
                    m &= m - 1
                }
            }
            let score = settings.weightSport * Double(w) + settings.weightFriends * Double(f)
                + settings.weightGender * Double(g) + settings.weightAge * Double(a)
            return Suggestion(session: s, score: score, sportWeight: w, friends: f, genderMatches: g, ageMatches: a,
                              distanceKm: nil, playedLevel: atPlayedLevel(i, played, playedLevels), timeRank: h.timeRank)
        }

        var top: [Suggestion] = []
        top.reserveCapacity(settings.sessionsSize + 1)
        let coefficient = (genderMask != 0 ? settings.weightGender : 0) + (ageMask != 0 ? settings.weightAge : 0)
        // The candidate lists: the grid cells around the origin, or everything without one.
        // Indexes into `grid` (-1: `everywhere`); the lists are read in place, where a copy
        // of each cell's `SessionLists` retained and released its four arrays.
        var cells: [Int] = []
        if let (la, lo) = origin {
            GeoGrid.span(lat: la, lon: lo, radiusKm: radius)?.forEachIndex(in: gridKeys) { cells.append($0) }
        } else {
            cells = [-1]
        }
        // 1. Sessions with a friend in them: scored exactly.
        for f in friends {
            for j in memberOf.range(Int(f)) {
                let s = memberOf.values[j]
                guard isOpen[Int(s)] && scratch.marks[Int(s)].done != stamp else { continue }
                scratch.marks[Int(s)].done = stamp
                if let x = evaluate(listedOf[Int(s)]) { insert(x, into: &top) }
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
                    for e in (c < 0 ? everywhere.bySportTime[sport] : grid[c].bySportTime[sport]) where !outside(e) && scratch.marks(e.session).done != stamp {
                        if let x = evaluate(e), !insert(x, into: &top), lastOfItsKind(e.session, played, playedLevels) { break }
                    }
                } else {
                    // The bound first: it falls along the list (players desc), so a session
                    // skipped before it would have stopped the scan no sooner.
                    for e in (c < 0 ? everywhere.bySportPlayers[sport] : grid[c].bySportPlayers[sport]) {
                        let bound = base + coefficient * Double(e.memberCount)
                        if top.count == settings.sessionsSize, let last = top.last, bound < last.score * (1 - 1e-8) { break }
                        guard !outside(e), scratch.marks(e.session).done != stamp else { continue }
                        if let x = evaluate(e) { insert(x, into: &top) }
                    }
                }
            }
        }
        // 3. The rest (no sport weight, no friend): at most coefficient × players.
        for c in cells {
            if coefficient == 0 {
                if top.count == settings.sessionsSize, let last = top.last, last.score > 0 { break }
                for e in (c < 0 ? everywhere.byTime : grid[c].byTime) where weight[Int(e.sport)] == 0 && !outside(e) && scratch.marks(e.session).done != stamp {
                    if let x = evaluate(e), !insert(x, into: &top), lastOfItsKind(e.session, played, playedLevels) { break }
                }
            } else {
                for e in (c < 0 ? everywhere.byPlayers : grid[c].byPlayers) where weight[Int(e.sport)] == 0 {
                    let bound = coefficient * Double(e.memberCount)
                    if top.count == settings.sessionsSize, let last = top.last, bound < last.score * (1 - 1e-8) { break }
                    guard !outside(e), scratch.marks(e.session).done != stamp else { continue }
                    if let x = evaluate(e) { insert(x, into: &top) }
                }
            }
        }
        if let (la, lo) = origin { withDistances(&top, from: la, lo, cosLat: originCos) }
        return top
    }

    /// The suggestions' distances from the player's origin: `km`, as the scans' test
    /// computes it (the same points: each session's `listedOf` entry, which its lists copy).
    func withDistances(_ top: inout [Suggestion], from lat: Double, _ lon: Double, cosLat: Double) {
        for k in top.indices {
            let h = listedOf[Int(top[k].session)]
            top[k].distanceKm = GeoDistance.km(lat, lon, cosLat1: cosLat, h.lat, h.lon, cosLat2: h.cosLat)
        }
    }
}
