import Testing
@testable import TonightExports
@testable import TonightRanking

/// A sport the quiz names adds 10 to its sport weight once, however often the name is repeated
/// (recommendations.md): short lists are deduplicated pairwise, long ones (an exporter's bug,
/// or hostile: a list of thousands must not cost a player quadratic time) through a set. Both
/// paths must agree, on both sides of the length where one hands over to the other.
@Suite struct PlaymateQuizSportsTests {
    static let asOf: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z

    /// Player P0 near one open tennis session and one open golf session, quiz naming `plays`.
    static func weights(_ plays: [String]) -> [String: Int] {
        var p0 = PlaymatePlayer(id: "P0", birthday: nil, gender: nil, lat: 40.0, lon: -74.0)
        p0.quiz = PlaymateQuiz(lat: nil, lon: nil, playSports: plays, avoidSports: [], genders: [], ageGroups: [])
        let players = [p0, PlaymatePlayer(id: "P1", birthday: nil, gender: nil, lat: nil, lon: nil)]
        func session(_ id: String, _ sport: String) -> PlaymateSession {
            PlaymateSession(id: id, sport: sport, sportLabel: sport, skillLevel: nil, creatorID: "P1", creator: 1,
                            occursAt: asOf + 86_400, durationMin: 60, lat: 40.01, lon: -74.01, locationName: nil, capacity: 10)
        }
        let r = PlaymateRanker(players: players, sessions: [session("t", "tennis"), session("g", "golf")],
                               settings: RankingSettings(asOf: asOf, runDate: 20_454))
        var scratch = PlaymateScratch(sessions: r.sessions.count)
        var out: [String: Int] = [:]
        for x in r.suggestions(for: 0, scratch: &scratch) { out[r.sessions[Int(x.session)].id] = x.sportWeight }
        return out
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var plays: [String]
        var tennis: Int
        var golf: Int
        var testDescription: String { "\(plays.count) names: tennis \(tennis), golf \(golf)" }
    }

    static let others = (1...12).map { "sport\($0)" }

    static let cases: [Case] = [
        Case(plays: ["tennis"], tennis: 10, golf: 0),
        Case(plays: ["tennis", "tennis"], tennis: 10, golf: 0),
        Case(plays: ["tennis", "golf", "tennis", "golf"], tennis: 10, golf: 10),
        // 8 names (pairwise) and 9 (through a set), the repeat last.
        Case(plays: Array(others.prefix(6)) + ["tennis", "tennis"], tennis: 10, golf: 0),
        Case(plays: Array(others.prefix(7)) + ["tennis", "tennis"], tennis: 10, golf: 0),
        Case(plays: Array(repeating: "golf", count: 5_000) + others + ["tennis"], tennis: 10, golf: 10),
        Case(plays: [], tennis: 0, golf: 0),
    ]

    @Test(arguments: cases)
    func aRepeatedNameCountsOnce(_ c: Case) {
        let got = Self.weights(c.plays)
        #expect(got["t"] == c.tennis)
        #expect(got["g"] == c.golf)
    }
}
