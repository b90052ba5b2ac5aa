import Testing
@testable import TonightExports

/// Coordinates 0, 0 ("null island": a coordinate column whose nulls became zeros) are no place;
/// before, such a user was placed in the Gulf of Guinea with no event in reach.
@Suite struct NullIslandTests {
    @Test func usersAtNullIslandArePlacedByTheirZIPOrNowhere() throws {
        var loader = TicketsLoader(knownArtists: [1], knownEvents: [0xAA], zips: TicketsLoaderTests.zips)
        loader.maxRejectShare = 1
        loader.allowEmpty = true
        let r = try loader.load(directory: HostileExportTests.directory([
            "users.csv": "user_id,home_zip,lat,lon\nu1,10007,0,0\nu2,,0.0,-0\nu3,10007,0,5\nu4,10007,,\n",
            "favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\n",
        ]))
        #expect(r.users.records.map(\.location) == ["postal", "none", "coordinates", "postal"])
        #expect(r.users.records[0].lat == r.users.records[3].lat)
        #expect(r.counts["null-island"] == 2, "\(r.counts)")
    }

    @Test func playersQuizzesAndSessions() throws {
        let r = try HostileExportTests.playmate([
            "players.csv": "x1,,,0,0\nx2,,,0.000,0.0\nx3,,,1,0\n",
            "quiz.csv": "p1,0,0,Tennis,,,\n",
            "sessions.csv": "t1,Tennis,p1,2026-02-01T18:00:00Z,60,0,0,4\nt2,Tennis,p1,2026-02-01T18:00:00Z,60,0,1,4\n",
        ])
        let x = Dictionary(uniqueKeysWithValues: r.players.map { ($0.id, $0) })
        #expect(x["x1"]?.lat == nil && x["x2"]?.lat == nil && x["x3"]?.lat == 1)
        #expect(r.players[1].quiz?.lat == nil && r.players[1].quiz?.playSports.count == 1)
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == ["sessions.csv:202 bad-coordinates"], "\(r.rejects)")
        #expect(r.sessions.contains { $0.id == "t2" } && !r.sessions.contains { $0.id == "t1" })
        #expect(r.counts["null-island"] == 3, "\(r.counts)")  // the rejected session is a reject, not counted
    }
}
