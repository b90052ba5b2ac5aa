import Foundation
import Testing
import TonightCore
import TonightGeo
@testable import TonightExports

@Suite struct TicketsLoaderTests {
    func directory(_ files: [String: String]) -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-tickets-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try! Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    static let geocoder = Geocoder()
    let loader = TicketsLoader(knownArtists: [1, 2, 3], knownEvents: [0xAA, 0xBB], geocoder: TicketsLoaderTests.geocoder)

    @Test func validExports() throws {
        let dir = directory([
            "users.csv": "max_price,user_id,home_zip,lat,lon,radius_km,extra\n50,u1,10001,,,,x\n,u2,,40.5,-73.9,25,\n,\"u,3\",99999,,,,\n",
            "favorites.csv": "user_id,artist_id\nu1,1\nu1,2\nu1,1\nu2,9\nghost,1\n",
            "follows.csv": "user_id,event_id\nu1,00000000000000aa\nu2,00000000000000CC\n",
        ])
        let r = try loader.load(directory: dir)
        #expect(r.users.map(\.id) == ["u1", "u2", "u,3"])
        #expect(r.users[0].location == "postal" && r.users[0].maxPrice == 50 && r.users[0].lat != nil)
        #expect(r.users[1].location == "coordinates" && r.users[1].radiusKm == 25)
        #expect(r.users[2].location == "none" && r.users[2].homeZip == "99999")
        #expect(r.users[0].favorites == [1, 2])
        #expect(r.users[0].follows == [0xAA])
        #expect(r.users[1].follows == [0xCC])  // kept for removed alerts
        #expect(r.counts["unknown-artist"] == 1 && r.counts["unknown-user"] == 1 && r.counts["duplicate-favorite"] == 1)
        #expect(r.counts["unknown-event-followed"] == 1 && r.counts["ungeocoded-zip"] == 1)
        #expect(r.rejects.isEmpty)
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
            let e = error as? TonightError
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
        #expect(fast.users.map(\.favorites) == slow.users.map(\.favorites))
        #expect(fast.rejects == slow.rejects)
        #expect(fast.rejects.map { "\($0.line) \($0.reason)" } == ["202 missing-field", "204 bad-id", "205 missing-field"])
        #expect(fast.counts["unknown-user"] == 1)
        #expect(fast.users[3].favorites == [1, 2])  // "u3,2,extra": extra fields are ignored
    }
}
