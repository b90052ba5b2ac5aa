import Foundation
import Testing
import TonightTesting
import TonightCore
@testable import TonightExports
import TonightBase

/// `feedback.csv` (issue 16): the standing answer of each player and session is the last row;
/// bad answers and reasons are rejects with their line; unknown players and sessions are
/// counted; the file is optional.
@Suite struct PlaymateFeedbackTests {
    static let base = [
        "players.csv": "user_id,birthday,gender,lat,lon\np1,,,,\np2,,,,\np3,,,,\n",
        "quiz.csv": "user_id,lat,lon,play_sports,avoid_sports,genders,age_groups\n",
        "sessions.csv": "session_id,sport,creator_id,occurs_at,lat,lon,capacity\n"
            + "s1,Tennis,p3,2026-02-01T18:00:00Z,40,-74,4\ns2, tennis ,p3,2026-02-02T18:00:00Z,40,-74,4\n"
            + "s3,Golf,p3,2026-02-03T18:00:00Z,40,-74,4\n",
        "session_players.csv": "session_id,user_id\n",
        "friends.csv": "user_id,friend_id\n",
    ]

    static func load(_ feedback: String?, maxRejectShare: Double = 1) throws -> PlaymateExport {
        var files = base
        files["feedback.csv"] = feedback
        var loader = PlaymateLoader(runDate: CivilTime.parseDate(Array("2026-01-15".utf8))!)
        loader.maxRejectShare = maxRejectShare
        return try loader.load(directory: HostileExportTests.directory(files))
    }

    static func feedback(_ r: PlaymateExport, _ player: String) -> PlaymateFeedback? {
        r.players.first { $0.id == player }?.feedback
    }

    @Test func theLastAnswerOfAPairStands() throws {
        let r = try Self.load("""
            user_id,session_id,answer,reason
            p1,s1,no,sport
            p1,s3,no,time
            p2,s1,no,sport
            p2,s1,yes,
            p2,s3,NO, Place\u{20}
            p1,s2,no,

            """)
        #expect(Self.feedback(r, "p1") == PlaymateFeedback(declined: ["s1", "s2", "s3"], avoidSports: ["tennis"]))
        #expect(Self.feedback(r, "p2") == PlaymateFeedback(declined: ["s3"], avoidSports: []))
        #expect(Self.feedback(r, "p3") == nil)
        #expect(r.counts["feedback-repeated"] == 1)
        #expect(r.rows["feedback.csv"] == 6)
        #expect(r.rejects.isEmpty)
    }

    /// Sports compare case-insensitively (user-data.md): a session's sport and a quiz's
    /// avoided sport written in other cases get one key, also where the lower case is not the
    /// folding (ß, Cherokee, final sigma; until 2026-11-28 they were three pairs of sports).
    @Test func sportsInAnyCaseAreOneSport() throws {
        var files = Self.base
        files["sessions.csv"] = "session_id,sport,creator_id,occurs_at,lat,lon,capacity\n"
            + "s1,Stra\u{DF}enfu\u{DF}ball,p3,2026-02-01T18:00:00Z,40,-74,4\ns2,STRASSENFUSSBALL,p3,2026-02-02T18:00:00Z,40,-74,4\n"
            + "s3,\u{13A0}\u{13A1},p3,2026-02-03T18:00:00Z,40,-74,4\ns4,\u{AB70}\u{AB71},p3,2026-02-03T18:00:00Z,40,-74,4\n"
        files["quiz.csv"] = "user_id,lat,lon,play_sports,avoid_sports,genders,age_groups\np1,40,-74,\u{AB70}\u{AB71},strassenfussball,,\n"
        let r = try PlaymateLoader(runDate: CivilTime.parseDate(Array("2026-01-15".utf8))!).load(directory: HostileExportTests.directory(files))
        let sport = Dictionary(uniqueKeysWithValues: r.sessions.map { ($0.id, $0.sport) })
        #expect(sport["s1"] == sport["s2"] && sport["s3"] == sport["s4"] && sport["s1"] != sport["s3"], "\(sport)")
        let quiz = try #require(r.players.first { $0.id == "p1" }?.quiz)
        #expect(quiz.avoidSports == [sport["s1"]!] && quiz.playSports == [sport["s3"]!], "\(quiz)")
        #expect(r.sessions.first { $0.id == "s1" }?.sportLabel == "Stra\u{DF}enfu\u{DF}ball")  // shown as written
    }

    /// An export written in Latin-1 or Windows-1252 (against user-data.md's UTF-8): the rows
    /// whose free text is not UTF-8 are rejected with their line and column, never published
    /// with U+FFFD in place of the bytes (until 2026-11-28, "Caf\u{FFFD}"); UTF-8 text and the
    /// other rows load.
    @Test func textThatIsNotUTF8IsRejected() throws {
        var files = Self.base
        files["sessions.csv"] = nil
        files["quiz.csv"] = nil
        let dir = HostileExportTests.directory(files)
        let sessions = Array("session_id,sport,creator_id,occurs_at,lat,lon,capacity,location_name,skill_level\n".utf8)
            + Array("s1,Tennis,p3,2026-02-01T18:00:00Z,40,-74,4,Caf".utf8) + [0xE9] + Array(",\n".utf8)  // Latin-1 é
            + Array("s2,Tennis,p3,2026-02-01T18:00:00Z,40,-74,4,Café,\n".utf8)  // UTF-8 é
            + Array("s3,P".utf8) + [0xE9] + Array("tanque,p3,2026-02-01T18:00:00Z,40,-74,4,,\n".utf8)
            + Array("s4,Golf,p3,2026-02-01T18:00:00Z,40,-74,4,Park,".utf8) + [0x93, 0x41, 0x94] + Array("\n".utf8)  // cp1252 quotes
            + Array("s5,Golf,p3,2026-02-01T18:00:00Z,40,-74,4,x".utf8) + [0xE2, 0x82] + Array(",\n".utf8)  // cut sequence
        try Data(sessions).write(to: dir.appendingPathComponent("sessions.csv"))
        let quiz = Array("user_id,lat,lon,play_sports,avoid_sports,genders,age_groups\np1,40,-74,Tennis|P".utf8) + [0xE9]
            + Array("tanque,,,\np2,40,-74,Tennis|Pétanque,,,\n".utf8)
        try Data(quiz).write(to: dir.appendingPathComponent("quiz.csv"))
        var loader = PlaymateLoader(runDate: CivilTime.parseDate(Array("2026-01-15".utf8))!)
        loader.maxRejectShare = 1
        let r = try loader.load(directory: dir)
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "quiz.csv:2 bad-utf8", "sessions.csv:2 bad-utf8", "sessions.csv:4 bad-utf8", "sessions.csv:5 bad-utf8", "sessions.csv:6 bad-utf8",
        ], "\(r.rejects)")
        #expect(r.rejects.map(\.detail).contains { $0.contains("column 'location_name'") && $0.contains("0xE9 at byte 4") }, "\(r.rejects.map(\.detail))")
        #expect(r.rejects.map(\.detail).contains { $0.contains("column 'location_name'") && $0.contains("0xE2 at byte 2") })
        #expect(r.sessions.map(\.id) == ["s2"] && r.sessions.first?.locationName == "Café")
        #expect(r.players.first { $0.id == "p2" }?.quiz?.playSports == ["tennis", "pétanque"])
        #expect(r.players.first { $0.id == "p1" }?.quiz == nil)
    }

    /// The quiz's lists split at the `|` scalar, also where a combining mark follows it (one
    /// `Character` with the bar): two sports, as the cross-check's definition reads them.
    @Test func quizListsSplitAtTheBarScalar() throws {
        var files = Self.base
        files["quiz.csv"] = "user_id,lat,lon,play_sports,avoid_sports,genders,age_groups\np1,40,-74,Tennis|\u{301}Golf| Judo ,,Female|Male,\n"
        let r = try PlaymateLoader(runDate: CivilTime.parseDate(Array("2026-01-15".utf8))!).load(directory: HostileExportTests.directory(files))
        let quiz = try #require(r.players.first { $0.id == "p1" }?.quiz)
        #expect(quiz.playSports.count == 3, "\(quiz.playSports)")
        #expect(quiz.genders == ["Female", "Male"])
    }

    @Test func theFileIsOptional() throws {
        let r = try Self.load(nil)
        #expect(r.players.allSatisfy { $0.feedback == nil })
        #expect(r.rows["feedback.csv"] == nil)
    }

    @Test func badRowsAreRejectsAndUnknownIdsAreCounted() throws {
        let r = try Self.load("""
            user_id,session_id,answer,reason
            p1,s1,maybe,time
            p1,s1,no,weather
            ,s1,no,
            p1,,no,
            ghost,s1,no,sport
            p1,gone,no,sport
            p1,s3,no,other

            """)
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "feedback.csv:2 bad-value", "feedback.csv:3 bad-value", "feedback.csv:4 missing-field", "feedback.csv:5 missing-field",
        ])
        #expect(r.rejects[0].detail.contains("'maybe' is not yes or no"))
        #expect(r.counts["feedback-unknown-player"] == 1)
        #expect(r.counts["feedback-unknown-session"] == 1)
        #expect(Self.feedback(r, "p1") == PlaymateFeedback(declined: ["s3"], avoidSports: []))
    }

    @Test func tooManyBadRowsFailTheStageNamingTheFile() throws {
        #expect {
            try Self.load("user_id,session_id,answer,reason\np1,s1,maybe,\np1,s2,no,sport\n", maxRejectShare: 0.01)
        } throws: { error in
            let e = (error as? FailureWithRejects)?.error
            return e?.file?.hasSuffix("feedback.csv") == true && e?.line == 2
        }
        #expect(throws: (any Error).self) { try Self.load("user_id,session_id,reason\np1,s1,sport\n") }  // no answer column
    }
}
