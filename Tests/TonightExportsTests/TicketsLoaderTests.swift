import Foundation
import Testing
import TonightTesting
import TonightCore
import TonightGeo
@testable import TonightExports

@Suite struct TicketsLoaderTests {
    func directory(_ files: [String: String]) -> URL {
        let dir = temporaryDirectory("tonight-tickets")
        for (name, text) in files { try! Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    static let zips = try! ZIPPoints.bundled()
    /// A loader for these tests' small exports, many of them without favourites
    /// (`exports.allowEmpty`; the rule itself: `EmptyExportTests`).
    var loader: TicketsLoader {
        var l = TicketsLoader(knownArtists: [1, 2, 3], knownEvents: [0xAA, 0xBB], zips: TicketsLoaderTests.zips)
        l.allowEmpty = true
        return l
    }

    @Test func validExports() throws {
        let dir = directory([
            "users.csv": "max_price,user_id,home_zip,lat,lon,radius_km,extra\n50,u1,10001,,,,x\n,u2,,40.5,-73.9,25,\n,\"u,3\",99999,,,,\n",
            "favorites.csv": "user_id,artist_id\nu1,1\nu1,2\nu1,1\nu2,9\nghost,1\n",
            "follows.csv": "user_id,event_id\nu1,00000000000000aa\nu2,00000000000000CC\n",
        ])
        let r = try loader.load(directory: dir)
        #expect(r.users.records.map(\.id) == ["u1", "u2", "u,3"])
        #expect(r.users.records[0].location == "postal" && r.users.records[0].maxPrice == 50 && r.users.records[0].lat != nil)
        #expect(r.users.records[1].location == "coordinates" && r.users.records[1].radiusKm == 25)
        #expect(r.users.records[2].location == "none" && r.users.records[2].homeZip == "99999")
        #expect(r.users.records[0].favorites == [1, 2])
        #expect(r.users.records[0].follows == [0xAA])
        #expect(r.users.records[1].follows == [0xCC])  // kept for removed alerts
        #expect(r.counts["unknown-artist"] == 1 && r.counts["unknown-user"] == 1 && r.counts["duplicate-favorite"] == 1)
        #expect(r.counts["unknown-event-followed"] == 1 && r.counts["ungeocoded-zip"] == 1)
        #expect(r.rejects.isEmpty)
    }

    /// A spreadsheet that read `home_zip` as a number writes 02134 as 2134 (about one US ZIP in
    /// fourteen starts with 0: New England, New Jersey, Puerto Rico). Such a user stays
    /// unplaced (geocoding.md's ZIP is five digits, leading zeros kept), and the count says
    /// why beside `ungeocoded-zip`, so that the export gets fixed (nine-digit codes too). A
    /// short ZIP that is no ZIP padded (`1`, `9999`) is not counted as such.
    @Test func zipsThatLostTheirLeadingZerosAreCountedAsSuch() throws {
        let r = try loader.load(directory: directory([
            "users.csv": "user_id,home_zip\nu1,2134\nu2,02134\nu3,601\nu4, 7869 \nu5,1\nu6,9999\nu7,2134-1234\nu8,x2134\nu9,21341234\n",
            "favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\n",
        ]))
        #expect(r.users.records.map(\.location) == ["none", "postal", "none", "none", "none", "none", "none", "none", "none"])
        #expect(r.counts["ungeocoded-zip"] == 8)
        #expect(r.counts["zip-leading-zeros-lost"] == 4, "\(r.counts)")
        #expect(r.examples["zip-leading-zeros-lost"] == ["u1 (home_zip 2134)", "u3 (home_zip 601)", "u4 (home_zip 7869)", "u9 (home_zip 21341234)"])
        #expect(r.rejects.isEmpty)
    }

    /// pandas writes an int column that has a blank (a left join's favourites) as floats: an
    /// artist id `2.0` is artist 2 (counted `decimal-integer`), on the plain and the quoted path.
    @Test(arguments: ["", "\""])
    func artistIDsWrittenAsFloats(_ quote: String) throws {
        var lenient = loader
        lenient.maxRejectShare = 1
        let r = try lenient.load(directory: directory([
            "users.csv": "user_id\nu1\n",
            "favorites.csv": "user_id,artist_id\nu1,\(quote)2.0\(quote)\nu1,3.00\nu1,1.5\nu1,1.\n",
            "follows.csv": "user_id,event_id\n",
        ]))
        #expect(r.users.records[0].favorites == [2, 3])
        #expect(r.counts["decimal-integer"] == 2, "\(r.counts)")
        #expect(r.rejects.map { "\($0.line) \($0.reason)" } == ["4 bad-id", "5 bad-id"])
    }

    /// pandas writes a ZIP column that has a blank as floats: `10007.0` is ZIP 10007 (counted
    /// `zip-as-decimal`); `2134.0` is a ZIP with its leading zeros lost, as `2134` is. Before,
    /// every such user was unplaced (every event in reach).
    @Test func zipsWrittenAsFloatsArePlaced() throws {
        let r = try loader.load(directory: directory([
            "users.csv": "user_id,home_zip\nu1,02134.0\nu2, 10007.00 \nu3,2134.0\nu4,10007.5\nu5,10007.\nu6,.0\nu7,10007-1234.0\nu8,100071234.0\n",
            "favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\n",
        ]))
        #expect(r.users.records.map(\.location) == ["postal", "postal", "none", "none", "none", "none", "none", "postal"])
        #expect(r.users.records[1].lat == r.users.records[7].lat && r.users.records[1].lat != nil)
        #expect(r.counts["zip-as-decimal"] == 3 && r.counts["ungeocoded-zip"] == 5, "\(r.counts)")
        #expect(r.counts["zip-leading-zeros-lost"] == 1 && r.examples["zip-leading-zeros-lost"] == ["u3 (home_zip 2134.0)"])
    }

    /// `lat` and `lon` written the wrong way round: for the eastern half of the US that is a
    /// valid point in Antarctica (Boston: −71.06, 42.36), accepted and placed where no event
    /// ever is. Such rows are counted (`coordinates-swapped`: far from every US ZIP, near one
    /// swapped) so the report says what to fix; the western half is out of range (a
    /// `bad-number` reject, as before). Not repaired (which rows are wrong is a guess). Points
    /// near ZIPs, far from both ways (Paris, McMurdo) and a home ZIP are not counted.
    @Test func coordinatesTheWrongWayRoundAreCounted() throws {
        let r = try loader.load(directory: directory([
            "users.csv": "user_id,lat,lon,home_zip\nboston,-71.06,42.36,\natlanta,-84.39,33.75,\nnyc,40.71,-74.01,\n"
                + "paris,48.86,2.35,\nmcmurdo,-77.85,166.67,\nzip,,,02134\n",
            "favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\n",
        ]))
        #expect(r.counts["coordinates-swapped"] == 2, "\(r.counts)")
        #expect(r.examples["coordinates-swapped"] == ["boston (lat -71.06, lon 42.36)", "atlanta (lat -84.39, lon 33.75)"])
        #expect(r.rejects.isEmpty && r.users.records.count == 6)
        #expect(r.users.records.first { $0.id == "boston" }?.location == "coordinates")  // counted, not moved
    }

    @Test func badRowsAreRejectedWithFileAndLine() throws {
        var users = "user_id,lat,lon,radius_km\n"
        for i in 0..<300 { users += "u\(i),,,\n" }
        users += "bad,abc,,\n,,,\nneg,,,-5\nu0,,,\n"
        var loader = self.loader
        loader.maxRejectShare = 0.05
        var favorites = "user_id,artist_id\n"
        for i in 0..<40 { favorites += "u\(i),1\n" }
        favorites += "u1,x\n"
        let r = try loader.load(directory: directory([
            "users.csv": users, "favorites.csv": favorites, "follows.csv": "user_id,event_id\n",
        ]))
        #expect(r.rejects.map { "\($0.file):\($0.line) \($0.reason)" } == [
            "users.csv:302 bad-number", "users.csv:303 missing-field", "users.csv:304 bad-number", "users.csv:305 duplicate-id",
            "favorites.csv:42 bad-id",
        ])
        #expect(r.users.count == 300)
    }

    @Test func aFileOfOnlyBadRowsStopsTheStage() throws {
        let dir = directory([
            "users.csv": "user_id,lat,lon\n,1,2\n,3,4\n", "favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\n",
        ])
        #expect {
            try loader.load(directory: dir)
        } throws: { error in
            let e = (error as? FailureWithRejects)?.error
            return e?.exitCode == 65 && e?.file?.hasSuffix("users.csv") == true && e?.line == 2
        }
    }

    @Test func missingColumnOrFile() throws {
        #expect(throws: TonightError.self) {
            try loader.load(directory: directory(["users.csv": "id\nx\n", "favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\n"]))
        }
        #expect(throws: TonightError.self) {
            try loader.load(directory: directory(["users.csv": "user_id\nx\n"]))
        }
    }
}

extension TicketsLoaderTests {
    /// The quote-free fast path and the general reader give the same favourites and rejects.
    @Test func fastAndGeneralPairPathsAgree() throws {
        var users = "user_id\n"
        for i in 0..<200 { users += "u\(i)\n" }
        var plain = "user_id,artist_id\r\n"
        for i in 0..<200 { plain += "u\(i),\(i % 3 + 1)\r\n" }
        plain += "u1\r\n\r\nu2,x\r\n,3\r\nu3,2,extra\r\nghost,1\r\n"
        // The same rows with one harmless quoted field: the general reader must be used.
        let quoted = plain.replacingOccurrences(of: "u0,1", with: "\"u0\",1")
        var a = loader
        a.maxRejectShare = 0.5
        let fast = try a.load(directory: directory(["users.csv": users, "favorites.csv": plain, "follows.csv": "user_id,event_id\n"]))
        let slow = try a.load(directory: directory(["users.csv": users, "favorites.csv": quoted, "follows.csv": "user_id,event_id\n"]))
        #expect(fast.users.records.map(\.favorites) == slow.users.records.map(\.favorites))
        #expect(fast.rejects == slow.rejects)
        // "u1" and "u3,2,extra" have not the header's two fields (RFC 4180): rejected.
        #expect(fast.rejects.map { "\($0.line) \($0.reason)" } == ["202 bad-csv", "204 bad-id", "205 missing-field", "206 bad-csv"])
        #expect(fast.counts["unknown-user"] == 1)
        #expect(fast.users.records[3].favorites == [1])
    }

    /// A pair row's user is found whether it is the previous row's, one of the next users of
    /// users.csv (compared before the hash table), further on, earlier in the file, or
    /// unknown: every user's follows are its own rows, in file order.
    @Test(arguments: [0, 1, 2])
    func pairRowsFindTheirUsersWhereverTheyAre(round: Int) throws {
        let n = 400
        var users = "user_id\n"
        // Ids of one length that differ in one byte, and a few of another length.
        for i in 0..<n { users += i % 50 == 7 ? "user-\(i)-long\n" : String(format: "usr%05d\n", i) }
        let ids = users.split(separator: "\n").dropFirst().map(String.init)
        var rng = SystemRandomNumberGenerator()
        var follows = "user_id,event_id\n"
        var expected = [[UInt64]](repeating: [], count: n)
        var event: UInt64 = 0x1000
        var unknown = 0
        func row(_ u: Int) {
            event += 1
            follows += "\(ids[u]),\(String(event, radix: 16, uppercase: true).leftPadded(16))\n"
            expected[u].append(event)
        }
        var u = 0
        while u < n {
            for _ in 0..<Int.random(in: 1...3, using: &rng) { row(u) }
            if Int.random(in: 0..<10, using: &rng) == 0 {
                follows += "ghost\(u),00000000000000AA\n"
                unknown += 1
            }
            if Int.random(in: 0..<12, using: &rng) == 0 { row(Int.random(in: 0..<n, using: &rng)) }  // anywhere
            // Gaps within the look-ahead and beyond it.
            u += [1, 1, 2, 3, 5, 9, 15, 16, 17, 40][Int.random(in: 0..<10, using: &rng)]
        }
        let r = try loader.load(directory: directory(["users.csv": users, "favorites.csv": "user_id,artist_id\n", "follows.csv": follows]))
        #expect(r.users.records.map(\.id) == ids)
        #expect(r.users.records.map(\.follows) == expected)
        #expect((r.counts["unknown-user"] ?? 0) == unknown)
        #expect(r.rejects.isEmpty)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

extension TicketsLoaderTests {
    /// users.csv: the quote-free fast path and the RFC 4180 reader give the same users and
    /// rejects; a lone CR (a line end to the reader) sends a part back to the reader.
    @Test(arguments: ["\n", "\r\n"])
    func fastAndGeneralUserPathsAgree(_ end: String) throws {
        var plain = "user_id,home_zip,lat,lon,radius_km,max_price" + end
        for i in 0..<200 { plain += "u\(i),\(10001 + i % 5),,,\(i % 4 == 0 ? "25" : ""),\(i % 3)" + end }
        // 200 users (lines 2-201), then c1 (202), three rejects (203-205), a blank line, "short"
        // (207: one field where the header has six, rejected).
        plain += "c1,,40.7,-74.0,," + end + "bad,,91,0,," + end + "neg,,,,-1," + end + "u3,,,,," + end + end + "short" + end
        let quoted = plain.replacingOccurrences(of: "u7,", with: "\"u7\",")
        let lone = plain.replacingOccurrences(of: "u9,", with: "u9x\ru9,")
        var a = loader
        a.maxRejectShare = 0.5
        let follows = "user_id,event_id\n"
        let fast = try a.load(directory: directory(["users.csv": plain, "favorites.csv": "user_id,artist_id\n", "follows.csv": follows]))
        let slow = try a.load(directory: directory(["users.csv": quoted, "favorites.csv": "user_id,artist_id\n", "follows.csv": follows]))
        #expect(fast.users.records == slow.users.records)
        #expect(fast.rejects == slow.rejects)
        #expect(fast.rejects.map { "\($0.line) \($0.reason)" } == ["203 bad-coordinates", "204 bad-number", "205 duplicate-id", "207 bad-csv"])
        #expect(fast.users.count == 201 && fast.users.records[200].location == "coordinates")
        #expect(fast.users.records[0].radiusKm == 25 && fast.users.records[0].location == "postal")
        // The lone CR ends a record for the reader: "u9x" is a record of one field (rejected),
        // and line numbers shift by one after it.
        let withCR = try a.load(directory: directory(["users.csv": lone, "favorites.csv": "user_id,artist_id\n", "follows.csv": follows]))
        #expect(withCR.rejects.contains { $0.line == 11 && $0.reason == "bad-csv" })
        #expect(withCR.users.records.contains { $0.id == "u9" })
        #expect(withCR.users.count == 201)
    }
}

extension TicketsLoaderTests {
    /// Header-only exports of a new app with no users yet (`exports.allowEmpty`; without it,
    /// `EmptyExportTests`): an empty table, written and read back as an empty `users` table.
    @Test func anExportWithNoUsers() throws {
        let dir = directory([
            "users.csv": "user_id,home_zip\n", "favorites.csv": "user_id,artist_id\n", "follows.csv": "user_id,event_id\r\n",
        ])
        let r = try loader.load(directory: dir)
        #expect(r.users.count == 0 && r.rejects.isEmpty && r.rows["users.csv"] == 0)
        let url = dir.appendingPathComponent("users.bin")
        try r.users.write(to: url)
        #expect(try BinaryTable.read(TicketsUser.self, table: "users", from: url).isEmpty)
    }
}
