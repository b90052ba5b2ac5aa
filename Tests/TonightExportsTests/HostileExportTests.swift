import Foundation
import Testing
import TonightTesting
import TonightCore
import TonightGeo
@testable import TonightExports
import TonightBase

/// Exports an attacker or a broken exporter would send: every numeric field has a range, ids
/// are ids, a header names each column once, every row has the header's fields, and an
/// unterminated quote stops the stage at the line where it opened.
@Suite struct HostileExportTests {
    static func directory(_ files: [String: String]) -> URL {
        let dir = temporaryDirectory("tonight-hostile")
        for (name, text) in files { try! Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    static var loader: TicketsLoader {
        var l = TicketsLoader(knownArtists: [1, 2], knownEvents: [0xAA], zips: TicketsLoaderTests.zips)
        l.maxRejectShare = 1
        l.allowEmpty = true  // the files beside the one under test may be header-only (`EmptyExportTests`)
        return l
    }

    /// 200 good users and then `rows`, so that a few rejects stay under any share.
    static func users(header: String = "user_id,lat,lon,radius_km,max_price", _ rows: [String]) -> String {
        header + "\n" + (0..<200).map { "g\($0),40,-74,10,\n" }.joined() + rows.map { $0 + "\n" }.joined()
    }

    static func load(_ files: [String: String]) throws -> TicketsExport {
        var all = ["favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\n"]
        for (k, v) in files { all[k] = v }
        return try loader.load(directory: directory(all))
    }

    /// (`nan` is a null marker, an absent radius: `NullMarkerTests`.)
    @Test(arguments: ["99999999999999999999", "1e15", "100000000", "40075.5", "0", "-5", "-inf", "inf", "0x10", "1e400"])
    func radiusOutsideItsRangeIsRejected(_ radius: String) throws {
        let r = try Self.load(["users.csv": Self.users(["h,40,-74,\(radius),"])])
        #expect(r.rejects.map(\.reason) == ["bad-number"], "\(radius)")
        #expect(r.rejects.first?.detail.contains("radius_km") == true)
        #expect(r.users.count == 200)
    }

    @Test(arguments: ["20000", "20015.1", "40075", "0.001"])
    func radiusInsideItsRangeIsKept(_ radius: String) throws {
        let r = try Self.load(["users.csv": Self.users(["h,40,-74,\(radius),"])])
        #expect(r.rejects.isEmpty)
        #expect(r.users.records.last?.radiusKm == Double(radius))
    }

    @Test func maxPriceRange() throws {
        let r = try Self.load(["users.csv": Self.users(["a,,,,-1", "b,,,,1e7", "c,,,,1000000", "d,,,,0"])])
        #expect(r.rejects.map { "\($0.line) \($0.reason)" } == ["202 bad-number", "203 bad-number"])
        #expect(r.users.count == 202)
    }

    /// Budgets as PostgreSQL's `money` type writes them (a spreadsheet's currency format
    /// alike) are their numbers, counted `money-format`; before 2026-11-28 each was a
    /// `bad-number` reject, and an export of such a column failed the night. Another
    /// locale's grouping, a sign before the dollar or a space after it stay rejects.
    @Test func budgetsWrittenAsMoney() throws {
        let r = try Self.load(["users.csv": Self.users([
            "a,,,,$25.00", "b,,,,\"$1,025.50\"", "c,,,,$300", "d,,,,\"$1,000,000.00\"", "e,,,,\"$1,000,000.01\"",
            "f,,,,\"$1,02\"", "g,,,,-$5.00", "h,,,,$ 5", "i,,,,\"$25,00\"",
        ])])
        #expect(r.rejects.map { "\($0.line) \($0.reason)" } == ["206 bad-number", "207 bad-number", "208 bad-number", "209 bad-number", "210 bad-number"],
                "\(r.rejects)")
        let prices = Dictionary(uniqueKeysWithValues: r.users.records.map { ($0.id, $0.maxPrice) })
        #expect(prices["a"] == 25 && prices["b"] == 1025.5 && prices["c"] == 300 && prices["d"] == 1_000_000, "\(prices)")
        #expect(r.counts["money-format"] == 5, "\(r.counts)")  // the one out of range is counted too
    }

    /// A quote that never closes: the stage stops at the line where it opened, whether it is
    /// near the start or the end, instead of swallowing the rest as one reject.
    @Test(arguments: [5, 190])
    func unterminatedQuoteStopsAtItsLine(_ at: Int) throws {
        var lines = (0..<200).map { "u\($0),40,-74,10," }
        lines[at] = "\"u\(at),40,-74,10,"
        let text = "user_id,lat,lon,radius_km,max_price\n" + lines.joined(separator: "\n") + "\n"
        let e = #expect(throws: TonightError.self) { try Self.load(["users.csv": text]) }
        #expect(e?.line == at + 2, "\(String(describing: e))")
        #expect(e?.message.contains("does not close") == true)
        #expect(e?.exitCode == 65)
        // The same in a pair file.
        var favorites = "user_id,artist_id\n" + (0..<100).map { "g\($0),1\n" }.joined()
        favorites += "\"g1,1\n" + (0..<50).map { "g\($0),2\n" }.joined()
        let f = #expect(throws: TonightError.self) {
            try Self.load(["users.csv": Self.users([]), "favorites.csv": favorites])
        }
        #expect(f?.line == 102 && f?.file?.hasSuffix("favorites.csv") == true, "\(String(describing: f))")
    }

    /// A quoted field may hold a line break or a comma: that is not a runaway.
    @Test func shortQuotedFieldsAreFine() throws {
        let header = "user_id,lat,lon,radius_km,home_zip"
        let r = try Self.load(["users.csv": Self.users(header: header, ["m,,,,\"10001\n\n\"", "\"a,b\",,,,"])])
        #expect(r.rejects.isEmpty)
        #expect(r.users.records.suffix(2).map(\.id) == ["m", "a,b"])
        #expect(r.users.records[200].homeZip == "10001")
    }

    @Test func duplicateHeaderNamesAreAnError() throws {
        let e = #expect(throws: TonightError.self) {
            try Self.load(["users.csv": "user_id,lat,lon,LAT\nu1,1,2,3\n"])
        }
        #expect(e?.message.contains("column 'lat' appears twice in the header (columns 2 and 4)") == true, "\(String(describing: e))")
        #expect(e?.line == 1)
    }

    /// An export in UTF-16 or UTF-32 (Excel's "Unicode text") is refused as such, on its first
    /// line; until 2026-11-28 it failed on a missing column with the header's NUL bytes in the
    /// message. A header that names its columns with control characters is quoted.
    @Test(arguments: [("utf-16", "UTF-16 (little-endian"), ("utf-16-be-bom", "UTF-16 (big-endian"), ("utf-16-le", "UTF-16 (little-endian, without a byte order mark)"),
                      ("utf-32", "UTF-32 (little-endian"), ("utf-32-be-bom", "UTF-32 (big-endian")])
    func exportsInAnotherEncodingAreRefused(_ encoding: String, _ named: String) throws {
        let text = Self.users(["u,40,-74,10,"])
        let data: Data = switch encoding {
        case "utf-16": Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!
        case "utf-16-be-bom": Data([0xFE, 0xFF]) + text.data(using: .utf16BigEndian)!
        case "utf-16-le": text.data(using: .utf16LittleEndian)!
        case "utf-32": Data([0xFF, 0xFE, 0, 0]) + text.data(using: .utf32LittleEndian)!
        default: Data([0, 0, 0xFE, 0xFF]) + text.data(using: .utf32BigEndian)!
        }
        let dir = Self.directory(["favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\n"])
        try data.write(to: dir.appendingPathComponent("users.csv"))
        let e = #expect(throws: TonightError.self) { try Self.loader.load(directory: dir) }
        #expect(e?.message.contains(named) == true && e?.message.contains("not UTF-8") == true, "\(String(describing: e))")
        #expect(e?.line == 1 && e?.file?.hasSuffix("users.csv") == true)
        #expect(e.map { !"\($0)".unicodeScalars.contains { $0.value == 0 || $0 == "\u{FFFD}" } } == true)
    }

    @Test func headerNamesAreQuotedInErrors() throws {
        let e = #expect(throws: TonightError.self) {
            try Self.load(["users.csv": "us\u{1b}[2jer_id,lat\nu1,1\n"])
        }
        #expect(e?.message.contains("us\\u{1B}[2jer_id") == true && e?.message.contains("\u{1b}") == false, "\(String(describing: e))")
    }

    /// A header of 200,000 columns without the required one: the message lists the first 20
    /// names and counts the rest (it listed every one: a 1.7 MB line).
    @Test func aHugeHeaderIsListedInPart() throws {
        let header = (0..<200_000).map { "c\($0)" }.joined(separator: ",")
        let e = #expect(throws: TonightError.self) {
            try Self.load(["users.csv": header + "\n"])
        }
        let text = e.map { "\($0)" } ?? ""
        #expect(text.contains("required column 'user_id' is missing (header: c0, c1, c10, c100, c1000, c10000"), "\(text.prefix(300))")
        #expect(text.contains(", … (199980 more))"), "\(text.prefix(600))")
        #expect(text.utf8.count < 1_000, "\(text.utf8.count) bytes")
    }

    @Test func rowsWithTheWrongNumberOfFieldsAreRejected() throws {
        let r = try Self.load([
            "users.csv": Self.users(["few,40,-74", "many,40,-74,10,,x", "\"quoted\",40,-74,10,,extra"]),
            "favorites.csv": "user_id,artist_id\n" + (0..<50).map { "g\($0),1\n" }.joined() + "g1,2,3\ng2\n\"g3\",1,x\n",
        ])
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "users.csv:202 bad-csv", "users.csv:203 bad-csv", "users.csv:204 bad-csv",
            "favorites.csv:52 bad-csv", "favorites.csv:53 bad-csv", "favorites.csv:54 bad-csv",
        ])
        #expect(r.rejects[0].detail == "3 fields, the header has 5")
    }

    /// Ids that are not ids are rejected as `bad-id`, in users.csv and in the pair files
    /// (where an unknown but valid id is only counted).
    @Test func idsThatAreNotIds() throws {
        let huge = String(repeating: "x", count: 1 << 20)
        let badUTF8 = "bad\u{FFFD}"  // replaced below by an invalid byte
        var users = Self.users(["\(huge),,,,", "nul\u{0}id,,,,", "\(badUTF8),,,,", "é\(String(repeating: "x", count: 63)),,,,"])
        var bytes = Array(users.utf8)
        let marker = Array("bad\u{FFFD}".utf8)
        if let at = (0..<(bytes.count - marker.count)).first(where: { Array(bytes[$0..<($0 + marker.count)]) == marker }) {
            bytes.replaceSubrange((at + 3)..<(at + marker.count), with: [0xC3, 0x28])
        }
        users = String(decoding: bytes, as: UTF8.self)
        let dir = Self.directory([
            "favorites.csv": "user_id,artist_id\n" + (0..<100).map { "g\($0),1\n" }.joined() + "\(huge),1\nghost,1\nnul\u{0},1\n",
            "follows.csv": "user_id,event_id\n",
        ])
        try Data(bytes).write(to: dir.appendingPathComponent("users.csv"))
        let r = try Self.loader.load(directory: dir)
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "users.csv:202 bad-id", "users.csv:203 bad-id", "users.csv:204 bad-id",
            "favorites.csv:102 bad-id", "favorites.csv:104 bad-id",
        ])
        // 64 characters (not bytes) is the limit: the accented id is kept as written.
        #expect(r.users.records.last?.id == "é" + String(repeating: "x", count: 63))
        #expect(r.counts["unknown-user"] == 1)
        // Messages repeat at most 80 characters of what they quote.
        #expect(r.rejects[0].detail.count < 200)
    }

    /// Ids that hold a scalar that does not print (user-data.md: printable characters) are
    /// `bad-id` through the loaders, not only in `Field.id` (`FieldRuleDefinitionTests`):
    /// until 2026-11-28 these users were published under such keys.
    @Test func idsThatDoNotPrintAreRejected() throws {
        let r = try Self.load([
            "users.csv": Self.users(["\u{202E}kcatta,,,,", "a\u{85}b,,,,", "a\u{A0}b,,,,", "Zoë,,,,"]),
            "favorites.csv": "user_id,artist_id\n" + (0..<200).map { "g\($0),1\n" }.joined() + "x\u{200B},1\n",
        ])
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "users.csv:202 bad-id", "users.csv:203 bad-id", "users.csv:204 bad-id", "favorites.csv:202 bad-id",
        ])
        #expect(r.users.records.last?.id == "Zoë")
    }

    static func playmate(_ files: [String: String]) throws -> PlaymateExport {
        var all = [
            "players.csv": "user_id,birthday,gender,lat,lon\n" + (0..<200).map { "p\($0),1990-01-01,Female,,\n" }.joined(),
            "quiz.csv": "user_id,lat,lon,play_sports,avoid_sports,genders,age_groups\n",
            "sessions.csv": "session_id,sport,creator_id,occurs_at,duration_min,lat,lon,capacity\n"
                + (0..<200).map { "s\($0),Tennis,p1,2026-02-01T18:00:00Z,60,40,-74,4\n" }.joined(),
            "session_players.csv": "session_id,user_id\n",
            "friends.csv": "user_id,friend_id\n",
        ]
        for (k, v) in files { all[k] = (all[k] ?? "") + v }
        var loader = PlaymateLoader(runDate: CivilTime.parseDate(Array("2026-01-15".utf8))!)
        loader.maxRejectShare = 1
        return try loader.load(directory: directory(all))
    }

    @Test func playmateNumbersHaveRanges() throws {
        let r = try Self.playmate([
            "players.csv": "x1,2099-01-01,,,\nx2,1850-05-05,,,\nx3,2026-01-15,,,\n",
            "sessions.csv": "t1,Tennis,p1,2026-02-01T18:00:00Z,100000000000000000,40,-74,4\n"
                + "t2,Tennis,p1,2026-02-01T18:00:00Z,60,40,-74,0\n"
                + "t3,Tennis,p1,2026-02-01T18:00:00Z,60,40,-74,1001\n"
                + "t4,Tennis,p1,1800-02-01T18:00:00Z,60,40,-74,4\n"
                + "t5,Tennis,p1,2026-02-01T18:00:00Z,1440,40,-74,1000\n",
        ])
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "players.csv:202 bad-date", "players.csv:203 bad-date",
            "sessions.csv:202 bad-number", "sessions.csv:203 bad-number", "sessions.csv:204 bad-number", "sessions.csv:205 bad-date",
        ])
        #expect(r.sessions.last?.durationMin == 1440)
    }

    @Test func playmateIdsThatAreNotIds() throws {
        let long = String(repeating: "q", count: 100)
        let r = try Self.playmate([
            "quiz.csv": "\(long),,,,,,\nnul\u{0},,,,,,\nghost,,,,,,\n",
            "friends.csv": "p1,\(long)\np1,ghost\n" + (0..<20).map { "p2,p\($0 + 3)\n" }.joined(),
            "session_players.csv": "s1,\(long)\n" + (0..<20).map { "s2,p\($0 + 2)\n" }.joined(),
        ])
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "quiz.csv:2 bad-id", "quiz.csv:3 bad-id", "session_players.csv:2 bad-id", "friends.csv:2 bad-id",
        ])
        #expect(r.counts["quiz-unknown-user"] == 1 && r.counts["friend-unknown-user"] == 1)
    }

    /// A session with thousands of member rows (repeats among them) loads in linear time,
    /// each player once.
    @Test func manyRepeatedMembers() throws {
        let rows = (0..<60_000).map { "s1,p\($0 % 200)\n" }.joined()
        let r = try Self.playmate(["session_players.csv": rows])
        #expect(r.sessions[1].joined.count == 199)  // p1 created it
        #expect(r.counts["member-duplicate"] == 60_000 - 199)
    }

    /// A date column exported as a timestamp (`DATETIME`, `timestamp`, a JavaScript `Date`):
    /// midnight, with or without a fraction of zeros and a zone, is the date written, counted
    /// `birthday-as-timestamp`; another time of day is a reject that says why.
    @Test func birthdaysWrittenAsTimestamps() throws {
        let r = try Self.playmate([
            "players.csv": "a1,1990-01-05 00:00:00,,,\na2,1990-01-05T00:00:00.000Z,,,\na3,2000-02-29 00:00:00+00,,,\n"
                + "a4,1980-06-30T00:00:00-05:00,,,\na5,1990-01-04T23:00:00Z,,,\na6,1990-01-05T00:00:00.001Z,,,\n"
                + "a7,2099-01-01 00:00:00,,,\na8,1990-01-05T00:00:00+15:00,,,\n",
        ])
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "players.csv:206 bad-date", "players.csv:207 bad-date", "players.csv:208 bad-date", "players.csv:209 bad-date",
        ])
        #expect(r.rejects.first?.detail.contains("has a time of day") == true, "\(r.rejects)")
        #expect(r.rejects.last?.detail.contains("not a real YYYY-MM-DD") == true, "\(r.rejects)")
        let birthdays = Dictionary(uniqueKeysWithValues: r.players.map { ($0.id, $0.birthday.map { CivilTime.formatDate(days: $0) }) })
        #expect(birthdays["a1"] == "1990-01-05" && birthdays["a2"] == "1990-01-05" && birthdays["a3"] == "2000-02-29"
                && birthdays["a4"] == "1980-06-30", "\(birthdays.filter { $0.key.hasPrefix("a") })")
        #expect(r.counts["birthday-as-timestamp"] == 5, "\(r.counts)")  // a7 too, then out of range
    }

    /// An instant as an integer column's export, `Date.now()` or `time.time()` write it:
    /// seconds (9 or 10 digits, with a fraction or not) or milliseconds (12 or 13 digits) since
    /// 1970, a fraction of a second rounded up; counted `instant-as-epoch`. 11 digits, a
    /// fraction on milliseconds, a sign or an exponent stay rejects.
    @Test func sessionsWrittenAsEpochs() throws {
        let row = { (id: String, when: String) in "\(id),Tennis,p1,\(when),60,40,-74,4\n" }
        let r = try Self.playmate([
            "sessions.csv": row("e1", "1769968800") + row("e2", "1769968800.25") + row("e3", "1769968800000")
                + row("e4", "1769968800001") + row("e5", "17699688000") + row("e6", "1769968800000.5")
                + row("e7", "-1769968800") + row("e8", "1.7699688e9") + row("e9", "123456789"),
        ])
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "sessions.csv:206 bad-date", "sessions.csv:207 bad-date", "sessions.csv:208 bad-date", "sessions.csv:209 bad-date",
            "sessions.csv:210 bad-date",
        ])
        #expect(r.rejects.first?.detail.contains("milliseconds since 1970") == true, "\(r.rejects)")
        #expect(r.rejects.last?.detail.contains("is not between") == true, "\(r.rejects)")  // 1973
        let at = Dictionary(uniqueKeysWithValues: r.sessions.map { ($0.id, CivilTime.formatUTC($0.occursAt)) })
        #expect(at["e1"] == "2026-02-01T18:00:00Z" && at["e2"] == "2026-02-01T18:00:01Z" && at["e3"] == "2026-02-01T18:00:00Z"
                && at["e4"] == "2026-02-01T18:00:01Z", "\(at.filter { $0.key.hasPrefix("e") })")
        #expect(r.counts["instant-as-epoch"] == 5, "\(r.counts)")  // e9 too, then out of range
    }
}
