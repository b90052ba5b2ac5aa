import Testing
@testable import TonightExports
@testable import TonightRanking

/// The skill-level tie-break (ranking.md, issue 16) with any number of distinct levels. A
/// player's played levels are a 64-bit mask; the levels are free text in the export, so an
/// exporter can send more than 64 of them, and then bits are shared and each match must be
/// confirmed on the level itself. (The mask once gave every level after the 64th no bit: such
/// a level never counted as played.)
@Suite struct PlaymateSkillLevelTests {
    static let asOf: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z

    /// `levels` past sessions at levels L1…Ln (read in that order, so numbered 1…n); player
    /// P0 played only the one at level `played`. Two open tennis sessions tie on the score
    /// (P0 played tennis once): "early" at level `early`, an hour before "late" at `late`.
    static func ranker(levels: Int, played: Int, early: Int, late: Int) -> PlaymateRanker {
        let players = [PlaymatePlayer(id: "P0", birthday: nil, gender: nil, lat: 40.0, lon: -74.0),
                       PlaymatePlayer(id: "P1", birthday: nil, gender: nil, lat: nil, lon: nil)]
        func session(_ id: String, level: Int, at: Int64, joined: [Int32]) -> PlaymateSession {
            var s = PlaymateSession(id: id, sport: "tennis", sportLabel: "Tennis", skillLevel: "L\(level)", creatorID: "P1", creator: 1,
                                    occursAt: at, durationMin: 60, lat: 40.01, lon: -74.01, locationName: nil, capacity: 10)
            s.joined = joined
            return s
        }
        let past = (1...levels).map { k in session("past-\(k)", level: k, at: asOf - 86_400, joined: k == played ? [0] : []) }
        let open = [session("early", level: early, at: asOf + 86_400, joined: []),
                    session("late", level: late, at: asOf + 86_400 + 3_600, joined: [])]
        return PlaymateRanker(players: players, sessions: past + open, settings: RankingSettings(asOf: asOf, runDate: 20_454))
    }

    static func order(_ r: PlaymateRanker) -> [String] {
        var scratch = PlaymateScratch(sessions: r.sessions.count)
        return r.suggestions(for: 0, scratch: &scratch).map { r.sessions[Int($0.session)].id }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var levels, played, early, late: Int
        var first: String
        var testDescription: String { "\(levels) levels, played L\(played), early L\(early), late L\(late): \(first) first" }
    }

    static let cases: [Case] = [
        // The played level wins the tie over the earlier session.
        Case(levels: 3, played: 2, early: 1, late: 2, first: "late"),
        Case(levels: 64, played: 64, early: 1, late: 64, first: "late"),
        Case(levels: 65, played: 65, early: 1, late: 65, first: "late"),
        Case(levels: 200, played: 150, early: 3, late: 150, first: "late"),
        // Levels 1 and 65 share a bit: only the played one counts.
        Case(levels: 65, played: 65, early: 65, late: 1, first: "early"),
        Case(levels: 65, played: 1, early: 65, late: 1, first: "late"),
        Case(levels: 130, played: 2, early: 3, late: 66, first: "early"),
        Case(levels: 130, played: 130, early: 2, late: 130, first: "late"),
        // Neither at a played level: time decides.
        Case(levels: 130, played: 5, early: 6, late: 7, first: "early"),
    ]

    @Test(arguments: cases)
    func playedLevelBreaksTheTie(_ c: Case) {
        let r = Self.ranker(levels: c.levels, played: c.played, early: c.early, late: c.late)
        let got = Self.order(r)
        #expect(got == (c.first == "late" ? ["late", "early"] : ["early", "late"]))
    }
}
