import Foundation
import Testing
import TonightBase
import TonightCore
@testable import TonightExports

/// Playmate's coordinates given the wrong way round (an exporter that wrote `lon, lat`) are
/// counted and named as load-tickets counts users': the eastern US lands in Antarctica, where
/// a player or session was out of everyone's reach and nothing said so (before 2026-11-28).
@Suite struct SwappedCoordinatesTests {
    static func load(_ files: [String: String], looking: Bool = true) throws -> PlaymateExport {
        var loader = PlaymateLoader(runDate: CivilTime.parseDate(Array("2026-01-15".utf8))!)
        if looking { loader.zipPoints = TicketsLoaderTests.zips }
        return try loader.load(directory: HostileExportTests.directory(files))
    }

    static let files = [
        // Boston swapped, Paris (far from every US ZIP either way), New York, Paris swapped.
        "players.csv": "user_id,birthday,gender,lat,lon\np1,,,-71.06,42.36\np2,,,48.85,2.35\np3,,,40.7,-74\np4,,,2.35,48.85\n",
        "quiz.csv": "user_id,lat,lon,play_sports,avoid_sports,genders,age_groups\np3,-73.99,40.75,Tennis,,,\n",
        "sessions.csv": "session_id,sport,creator_id,occurs_at,duration_min,lat,lon,capacity\n"
            + "s1,Tennis,p1,2026-02-01T18:00:00Z,60,40.7,-74,4\ns2,Golf,p3,2026-02-01T18:00:00Z,60,-77.04,38.9,4\n",
        "session_players.csv": "session_id,user_id\n", "friends.csv": "user_id,friend_id\n",
    ]

    @Test func swappedPlacesAreCountedAndNamed() throws {
        let r = try Self.load(Self.files)
        #expect(r.rejects.isEmpty, "\(r.rejects)")
        #expect(r.counts["coordinates-swapped"] == 3, "\(r.counts)")
        #expect(r.examples["coordinates-swapped"] == [
            "players.csv:2 lat -71.06, lon 42.36", "quiz.csv:2 lat -73.99, lon 40.75", "sessions.csv:3 lat -77.04, lon 38.9",
        ], "\(r.examples)")
        // Counted, not moved: which rows are wrong is a guess.
        #expect(r.players[0].lat == -71.06 && r.players[2].quiz?.lat == -73.99 && r.sessions[1].lat == -77.04)
    }

    /// Five examples at most, however many rows.
    @Test func fiveExamples() throws {
        var files = Self.files
        files["players.csv"] = "user_id,lat,lon\n" + (1...9).map { "x\($0),-71.06,42.36\n" }.joined() + "p1,,\np3,,\n"
        let r = try Self.load(files)
        #expect(r.counts["coordinates-swapped"] == 11 && r.examples["coordinates-swapped"]?.count == 5, "\(r.counts)")
    }

    /// A loader given no ZIP points (a fuzz target's) looks for nothing.
    @Test func withoutZIPPointsNothingIsCounted() throws {
        #expect(try Self.load(Self.files, looking: false).counts["coordinates-swapped"] == nil)
    }
}
