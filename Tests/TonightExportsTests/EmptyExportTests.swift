import Foundation
import Testing
import TonightBase
import TonightCore
@testable import TonightExports

/// An export that holds its header and no rows (a query that failed after the header, a copy
/// cut short) fails the load stage unless `exports.allowEmpty`; before 2026-11-28 it was read
/// as an app without users, and a first night published an empty list for everyone.
@Suite struct EmptyExportTests {
    static let tickets = [
        "users.csv": "user_id,home_zip,lat,lon\nu1,10007,,\nu2,,40.7,-74\n",
        "favorites.csv": "user_id,artist_id\nu1,1\n", "follows.csv": "user_id,event_id\nu2,00000000000000AA\n",
    ]

    static func loadTickets(_ files: [String: String], allowEmpty: Bool = false) throws -> TicketsExport {
        var loader = TicketsLoader(knownArtists: [1], knownEvents: [0xAA], zips: TicketsLoaderTests.zips)
        loader.allowEmpty = allowEmpty
        return try loader.load(directory: HostileExportTests.directory(files))
    }

    static let playmate = [
        "players.csv": "user_id,birthday,gender,lat,lon\np1,1990-01-01,Female,,\n",
        "quiz.csv": "user_id,lat,lon,play_sports,avoid_sports,genders,age_groups\np1,,,Tennis,,,\n",
        "sessions.csv": "session_id,sport,creator_id,occurs_at,duration_min,lat,lon,capacity\ns1,Tennis,p1,2026-02-01T18:00:00Z,60,40,-74,4\n",
        "session_players.csv": "session_id,user_id\ns1,p1\n",
        "friends.csv": "user_id,friend_id\np1,p2\n",
    ]

    static func loadPlaymate(_ files: [String: String], allowEmpty: Bool = false) throws -> PlaymateExport {
        var loader = PlaymateLoader(runDate: CivilTime.parseDate(Array("2026-01-15".utf8))!)
        loader.allowEmpty = allowEmpty
        return try loader.load(directory: HostileExportTests.directory(files))
    }

    /// The file with its first line only (`cut`), or with trailing blank lines after it.
    static func headerOnly(_ text: String, blankLines: Bool) -> String {
        String(text.prefix { $0 != "\n" }) + (blankLines ? "\n\n\r\n" : "\n")
    }

    @Test(arguments: ["users.csv", "favorites.csv"], [false, true])
    func aTicketsFileWithoutRowsFailsTheStage(_ name: String, blankLines: Bool) throws {
        var files = Self.tickets
        files[name] = Self.headerOnly(files[name]!, blankLines: blankLines)
        let error = #expect(throws: TonightError.self) { try Self.loadTickets(files) }
        #expect(error?.kind == .invalidInput && error?.line == 1 && error?.file?.hasSuffix("/" + name) == true, "\(String(describing: error))")
        #expect(error?.message == "\(name) holds a header and no rows: read as it is, the night would publish empty lists")
        #expect(error?.hint?.contains("exports.allowEmpty: true") == true)
        let allowed = try Self.loadTickets(files, allowEmpty: true)
        #expect(allowed.rows[name] == 0 && allowed.rejects.isEmpty)
    }

    @Test(arguments: ["players.csv", "sessions.csv"])
    func aPlaymateFileWithoutRowsFailsTheStage(_ name: String) throws {
        var files = Self.playmate
        files[name] = Self.headerOnly(files[name]!, blankLines: false)
        let error = #expect(throws: TonightError.self) { try Self.loadPlaymate(files) }
        #expect(error?.kind == .invalidInput && error?.line == 1 && error?.file?.hasSuffix("/" + name) == true, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("\(name) holds a header and no rows") == true)
        let allowed = try Self.loadPlaymate(files, allowEmpty: true)
        #expect(allowed.rows[name] == 0)
    }

    /// A young app has no follows, dismissals, quiz answers, members or friends yet.
    @Test func theOtherFilesMayBeEmpty() throws {
        var tickets = Self.tickets
        tickets["follows.csv"] = "user_id,event_id\n"
        tickets["dismissed.csv"] = "user_id,event_id\n"
        let t = try Self.loadTickets(tickets)
        #expect(t.rows["follows.csv"] == 0 && t.rows["dismissed.csv"] == 0 && t.users.count == 2)
        var playmate = Self.playmate
        for name in ["quiz.csv", "session_players.csv", "friends.csv"] { playmate[name] = Self.headerOnly(playmate[name]!, blankLines: false) }
        playmate["feedback.csv"] = "session_id,user_id,answer,reason\n"
        let p = try Self.loadPlaymate(playmate)
        #expect(p.players.count == 1 && p.sessions.count == 1 && p.rows["quiz.csv"] == 0 && p.rows["feedback.csv"] == 0)
    }

    /// A file whose rows are all rejected is the reject rule's (every row bad fails it), not this one's.
    @Test func aFileOfBadRowsIsTheRejectRules() throws {
        var files = Self.tickets
        files["users.csv"] = "user_id,home_zip,lat,lon\nu1,,91,0\n"
        let error = #expect(throws: (any Error).self) { try Self.loadTickets(files) }
        #expect("\(String(describing: error))".contains("1 of 1 rows rejected"), "\(String(describing: error))")
    }

    /// A left join's rows (`u2,`: an export that lists every user, those without a favourite
    /// with an empty `artist_id`) are no pairs, counted `empty-value`; before 2026-11-28 each
    /// was a `missing-field` reject, and the night failed where more than 1 % of rows were
    /// such. Plain and quoted files take different readers (`PairRowReader.readPlain`).
    @Test(arguments: [false, true])
    func leftJoinRowsAreNoPairs(quoted: Bool) throws {
        var files = Self.tickets
        files["users.csv"] = "user_id\n" + (1...10).map { "u\($0)\n" }.joined()
        files["favorites.csv"] = "user_id,artist_id\nu1,1\n" + (2...10).map { "u\($0),\n" }.joined() + "u3, \t\n"
            + (quoted ? "\"u4\",\"\"\n" : "")
        files["follows.csv"] = "user_id,event_id\nu1,00000000000000AA\nu2,\n"
        let r = try Self.loadTickets(files)
        #expect(r.rejects.isEmpty, "\(r.rejects)")
        #expect(r.counts["empty-value"] == (quoted ? 12 : 11), "\(r.counts)")
        let users = r.users.records
        #expect(users[0].favorites == [1] && users[0].follows == [0xAA] && users.dropFirst().allSatisfy { $0.favorites.isEmpty && $0.follows.isEmpty })
    }

    /// An empty value does not excuse the key: a key that is no id is still `bad-id`, an empty
    /// one `missing-field`.
    @Test func anEmptyValueKeepsItsKeysRules() throws {
        var files = Self.tickets
        files["favorites.csv"] = "user_id,artist_id\nu1,1\n,\n\"u\u{7}\",\n"
        var loader = TicketsLoader(knownArtists: [1], knownEvents: [0xAA], zips: TicketsLoaderTests.zips)
        loader.maxRejectShare = 1
        let r = try loader.load(directory: HostileExportTests.directory(files))
        #expect(r.rejects.map { "\($0.line) \($0.reason)" } == ["3 missing-field", "4 bad-id"], "\(r.rejects)")
        #expect(r.counts["empty-value"] == nil)
    }

    /// A favourites file whose every row is a left join's (an export whose join lost the
    /// artists) is as empty as a header-only one.
    @Test func favoritesWhoseEveryRowHasNoArtistFailTheStage() throws {
        var files = Self.tickets
        files["favorites.csv"] = "user_id,artist_id\nu1,\nu2,\n"
        let error = #expect(throws: TonightError.self) { try Self.loadTickets(files) }
        #expect(error?.message == "favorites.csv holds no artist_id: each of its 2 rows has it empty; read as it is, the night would publish empty lists",
                "\(String(describing: error))")
        #expect(try Self.loadTickets(files, allowEmpty: true).counts["empty-value"] == 2)
    }

    /// Playmate's pair files: a session without members, a player without friends.
    @Test func playmateLeftJoinRows() throws {
        var files = Self.playmate
        files["session_players.csv"] = "session_id,user_id\ns1,p1\ns2,\n"
        files["friends.csv"] = "user_id,friend_id\np1,\n"
        let r = try Self.loadPlaymate(files)
        #expect(r.rejects.isEmpty && r.counts["empty-value"] == 2, "\(r.rejects) \(r.counts)")
        #expect(r.players[0].friends.isEmpty)
    }
}
