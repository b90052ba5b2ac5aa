import Testing
@testable import TonightExports
@testable import TonightRanking

/// The gender and age matches of a suggestion come from the byte counts packed into each
/// scan-list entry (`ListedSession`), and from the full counts for a session of 255 known
/// players or more, where a byte would clamp. The generated data sets never have such
/// sessions; an exporter with a bug (or a very big event) can.
@Suite struct PlaymateGroupCountTests {
    static let asOf: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z

    /// Player 0 asks for women nearby; players 1...`crowd` are women. Session 0 has all of
    /// them, session 1 the first ten.
    static func ranker(crowd: Int) -> PlaymateRanker {
        var asker = PlaymatePlayer(id: "P0", birthday: nil, gender: nil, lat: 40.0, lon: -74.0)
        asker.quiz = PlaymateQuiz(lat: nil, lon: nil, playSports: [], avoidSports: [], genders: ["Female"], ageGroups: [])
        let players = [asker] + (1...crowd).map { PlaymatePlayer(id: "P\($0)", birthday: nil, gender: "Female", lat: nil, lon: nil) }
        func session(_ id: String, _ joined: [Int32]) -> PlaymateSession {
            var s = PlaymateSession(id: id, sport: "tennis", sportLabel: "Tennis", skillLevel: nil, creatorID: "", creator: -1,
                                    occursAt: asOf + 86_400, durationMin: 60, lat: 40.01, lon: -74.01, locationName: nil, capacity: 100_000)
            s.joined = joined
            return s
        }
        let sessions = [session("S-crowd", (1...crowd).map(Int32.init)), session("S-small", (1...10).map(Int32.init))]
        return PlaymateRanker(players: players, sessions: sessions, settings: RankingSettings(asOf: asOf, runDate: 20_454))
    }

    @Test(arguments: [254, 255, 300, 70_000])
    func everyMemberOfACrowdedSessionCounts(crowd: Int) throws {
        let ranker = Self.ranker(crowd: crowd)
        var scratch = PlaymateScratch(sessions: ranker.sessions.count)
        let got = ranker.suggestions(for: 0, scratch: &scratch)
        #expect(got.map(\.session) == [0, 1])
        #expect(got.map(\.genderMatches) == [crowd, 10])
        #expect(got.first?.score == 1.2 * Double(crowd))
    }

    @Test func packedCountsReadBackExactly() {
        let counts: [Int32] = [0, 1, 2, 127, 128, 200, 253, 254, 9, 10, 250, 7]
        func listed(members: Int32) -> ListedSession {
            ListedSession(session: 5, lat: 60, lon: 2, sport: 3, creator: 4, memberCount: members, timeRank: 6, groups: counts[...])
        }
        let l = listed(members: 254)
        #expect(l.groupCountsPacked)
        #expect((0..<12).map(l.groupCount) == counts.map(Int.init))
        #expect((l.session, l.memberCount, l.sport, l.creator, l.timeRank) == (5, 254, 3, 4, 6))
        #expect(abs(l.cosLat - 0.5) < 1e-12)
        #expect(!listed(members: 255).groupCountsPacked)
    }
}
