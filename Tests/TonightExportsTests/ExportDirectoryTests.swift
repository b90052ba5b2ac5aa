import Foundation
import Testing
import TonightCore
import TonightTesting
@testable import TonightExports

/// Files in an export folder that the loaders do not read are said, not dropped: the second
/// part of a split export beside `users.csv` was read by nobody and its users got no lists,
/// with `warnings=0`.
@Suite struct ExportDirectoryTests {
    static let users = HostileExportTests.users(["h,40,-74,10,"])

    @Test func filesThatLookLikeExportsAreListed() throws {
        let dir = HostileExportTests.directory([
            "users.csv": "", "users-000000000001.csv": "", "Users.csv": "", "users.csv.gz": "", "users (1).csv": "",
            "favourites.csv": "", "follows.TSV": "", ".users.csv.swp": "", "_SUCCESS": "", "README.txt": "",
        ])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("parts.csv"), withIntermediateDirectories: true)
        #expect(ExportDirectory.unread(in: dir, known: TicketsLoader.fileNames)
            == ["Users.csv", "favourites.csv", "follows.TSV", "users (1).csv", "users-000000000001.csv", "users.csv.gz"])
        #expect(FileIO.lookalikes(of: "users.csv", in: dir) == ["Users.csv", "users (1).csv", "users-000000000001.csv", "users.csv.gz"])
    }

    @Test func aSplitTicketsExportIsCountedAndNamed() throws {
        let r = try HostileExportTests.load(["users.csv": Self.users, "users-000000000001.csv": "user_id\nlost\n"])
        #expect(r.counts["unread-file"] == 1)
        #expect(r.examples["unread-file"] == ["'users-000000000001.csv' (the job reads users.csv, favorites.csv, follows.csv, dismissed.csv)"])
        let clean = try HostileExportTests.load(["users.csv": Self.users])
        #expect(clean.counts["unread-file"] == nil && clean.examples["unread-file"] == nil)
    }

    @Test func aMissingFileNamesWhatIsThereInstead() throws {
        let e = #expect(throws: TonightError.self) {
            try HostileExportTests.load(["users-000000000000.csv": Self.users, "users-000000000001.csv": "user_id\nlost\n"])
        }
        #expect(e?.message == "export file users.csv is missing; found instead: 'users-000000000000.csv', 'users-000000000001.csv'", "\(String(describing: e))")
        #expect(e?.hint?.contains("join its parts into one file") == true)
        let none = #expect(throws: TonightError.self) { try HostileExportTests.load([:]) }
        #expect(none?.message == "export file users.csv is missing")
        #expect(none?.hint == "the Tickets Tonight export must hold users.csv, favorites.csv, follows.csv, dismissed.csv (user-data.md)")
    }

    @Test func aPlaymateFileBesideTheExportIsCountedAndAMissingOneNamed() throws {
        let r = try HostileExportTests.playmate(["sessions.csv.1": "s9,Tennis,p1,2026-02-01T18:00:00Z,60,40,-74,4\n"])
        #expect(r.counts["unread-file"] == 1)
        #expect(r.examples["unread-file"]?.first?.hasPrefix("'sessions.csv.1' (the job reads players.csv, quiz.csv") == true)
        var loader = PlaymateLoader(runDate: 20_468)
        loader.maxRejectShare = 1
        let dir = HostileExportTests.directory(["Players.csv": "user_id\np1\n"])
        let e = #expect(throws: TonightError.self) { try loader.load(directory: dir) }
        #expect(e?.message == "export file players.csv is missing; found instead: 'Players.csv'", "\(String(describing: e))")
    }

    /// An optional column the header lacks is said, with the columns no rule reads beside it:
    /// `latitude`/`longitude` for `lat`/`lon` lost every user's coordinates without a word.
    @Test func anAbsentOptionalColumnIsSaidWithTheColumnsNotRead() throws {
        let near = try HostileExportTests.load(["users.csv": HostileExportTests.users(header: "user_id,latitude,longitude,radius_km,email", [])])
        #expect(near.counts["absent-column"] == 1)
        #expect(near.examples["absent-column"] == ["users.csv: no home_zip, lat, lon, max_price (columns not read: 'latitude', 'longitude', 'email')"])
        #expect(near.users.count == 200)
        let all = try HostileExportTests.load(["users.csv": "user_id,home_zip,lat,lon,radius_km,max_price,email\ng1,,40,-74,10,,a@b\n"])
        #expect(all.counts["absent-column"] == nil && all.examples["absent-column"] == nil, "every optional column there: nothing to say")
        // The helper's sessions.csv has no skill_level and no location_name (both optional).
        let playmate = try HostileExportTests.playmate([:])
        #expect(playmate.examples["absent-column"] == ["sessions.csv: no skill_level, location_name"], "\(playmate.examples)")
        var loader = PlaymateLoader(runDate: 20_468)
        loader.maxRejectShare = 1
        loader.allowEmpty = true  // sessions.csv below is header-only
        let dir = HostileExportTests.directory([
            "players.csv": "user_id,birthday,sex,lat,lon\np1,1990-01-01,Female,,\n", "quiz.csv": "user_id\n",
            "sessions.csv": "session_id,sport,skill_level,creator_id,occurs_at,duration_min,lat,lon,location_name,capacity\n",
            "session_players.csv": "session_id,user_id\n", "friends.csv": "user_id,friend_id\n",
        ])
        #expect(try loader.load(directory: dir).examples["absent-column"] == [
            "players.csv: no gender (columns not read: 'sex')", "quiz.csv: no lat, lon, play_sports, avoid_sports, genders, age_groups",
        ])
    }

    /// A file separated by semicolons (Excel in a locale with a decimal comma) or tabs has
    /// one column named after the whole header: the error says what the separator seems to be.
    @Test(arguments: [
        ("user_id;home_zip;lat;lon\ng1;10007;40,7;-74,0\n", "separated by ';' (Excel's CSV in a locale with a decimal comma)"),
        ("user_id\thome_zip\tlat\tlon\ng1\t10007\t40.7\t-74.0\n", "separated by tabs"),
        ("userid,home_zip\ng1,10007\n", nil),
    ] as [(String, String?)])
    func anotherSeparatorIsSaid(users: String, said: String?) throws {
        let e = #expect(throws: TonightError.self) { try HostileExportTests.load(["users.csv": users]) }
        #expect(e?.message.hasPrefix("required column 'user_id' is missing") == true, "\(String(describing: e))")
        if let said {
            #expect(e?.hint?.contains(said) == true && e?.hint?.contains("export the file with commas") == true, "\(String(describing: e?.hint))")
        } else {
            #expect(e?.hint == "check the export's column names (user-data.md)")
        }
    }
}
