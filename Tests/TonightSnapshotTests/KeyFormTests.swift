import Foundation
import Testing
@testable import TonightSnapshot

/// The manifest's `keyForm`: the prefix length and the geohash cell length the pipeline's
/// settings gave a dataset's keys. Until 2026-11-28 the reader assumed the defaults (4 and 4):
/// a snapshot built with `catalog.suggestMaxPrefix: 3` answered every search of 4 scalars or
/// more with nothing, and a cell of the wrong length, or a date that does not exist, read as
/// an open planner date.
@Suite struct KeyFormTests {
    static func record(_ key: String, _ body: String) -> (String, [UInt8]) {
        (key, Array(#"{"key":"\#(key)",\#(body)}"#.utf8))
    }

    static let artists = #""items":[{"id":1,"name":"Abcdef","favorites":9},{"id":2,"name":"Abcxyz","favorites":5}]"#
    static let events = #""items":[{"event":"00000000000000A1","name":"Abcdef Live","startsAt":"2026-02-01T20:00:00Z","venue":5,"city":"Chicago","popularity":0.9}]"#

    /// Prefix datasets cut at `cut` scalars, cells of 5 characters; `declared` false writes a
    /// manifest without `keyForm`, as before 2026-11-28.
    static func snapshot(cut: Int = 3, declared: Bool = true, forms: [String: SnapshotManifest.KeyForm]? = nil) throws -> Snapshot {
        let root = temporaryDirectory("snap-keyform")
        let prefixes = (1...cut).map { String("abcdef".prefix($0)) }
        let session = #""items":[{"session":"s1","sport":"Tennis","occursAt":"2026-01-20T18:00:00Z","durationMin":60,"lat":37.77,"lon":-122.42,"spotsLeft":1}]"#
        let day = #""cell":"9q8yy","date":"2026-01-20","total":1,"categories":[],"events":[]"#
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001", datasets: [
            "artist_suggest": prefixes.map { record($0, artists) },
            "event_search": prefixes.map { record($0, events) },
            "open_sessions": [record("9q8yy", session)],
            "planner": [record("9q8yy/2026-01-20", day)],
        ], keyForms: !declared ? [:] : forms ?? [
            "artist_suggest": .init(maxPrefixScalars: cut), "event_search": .init(maxPrefixScalars: cut),
            "open_sessions": .init(geohashLength: 5), "planner": .init(geohashLength: 5),
        ])
        return try Snapshot.open(id: id, in: root)
    }

    static func refused(_ body: () throws -> some Any) -> Bool {
        do {
            _ = try body()
            return false
        } catch {
            return (error as? SnapshotError)?.code == .invalidArgument
        }
    }

    @Test func searchesUseTheSnapshotsPrefixLength() throws {
        let s = try Self.snapshot(cut: 3)
        // Longer than the snapshot's prefixes: the list of "abc" filtered by name.
        #expect(try s.suggestArtists(prefix: "abcd").map(\.id) == [1])
        #expect(try s.suggestArtists(prefix: "abc").map(\.id) == [1, 2])
        #expect(try s.searchEvents(prefix: "abcde").map(\.event) == ["00000000000000A1"])
        // A shorter length is allowed (the list of "ab", filtered); a longer one could only
        // find nothing.
        #expect(try s.suggestArtists(prefix: "abcx", maxPrefix: 2).map(\.id) == [2])
        #expect(Self.refused { try s.suggestArtists(prefix: "abcd", maxPrefix: 4) })
        #expect(Self.refused { try s.searchEvents(prefix: "abcd", maxPrefix: 4) })
        #expect(try s.suggestArtists(prefix: "abcd", maxPrefix: 3).map(\.id) == [1])
    }

    /// A manifest without `keyForm` keeps the old default of 4 scalars.
    @Test func olderManifestsKeepTheDefault() throws {
        let s = try Self.snapshot(cut: 4, declared: false)
        #expect(try s.suggestArtists(prefix: "abcde").map(\.id) == [1])
        #expect(try s.suggestArtists(prefix: "abcde", maxPrefix: 6).isEmpty)
    }

    @Test func cellsOfAnotherLengthOrAlphabetAreRefused() throws {
        for declared in [true, false] {  // the first key tells when the manifest does not
            let s = try Self.snapshot(declared: declared)
            #expect(try s.openSessions(cell: "9q8yy").map(\.session) == ["s1"])
            #expect(try s.plannerDay(cell: "9q8yy", date: "2026-01-20")?.total == 1)
            #expect(try s.plannerDays(cell: "9q8yy", from: "2026-01-19", days: 3).map(\.date) == ["2026-01-20"])
            for cell in ["9q8y", "9q8yyy", "9Q8YY", "9q8ya", "", "9q8y/"] {
                #expect(Self.refused { try s.openSessions(cell: cell) }, "\(cell)")
                #expect(Self.refused { try s.plannerDay(cell: cell, date: "2026-01-20") }, "\(cell)")
                #expect(Self.refused { try s.plannerDays(cell: cell, from: "2026-01-19", days: 3) }, "\(cell)")
            }
            for date in ["2026-02-30", "2026-1-20", "20260120", "2026-01-20/x"] {
                #expect(Self.refused { try s.plannerDay(cell: "9q8yy", date: date) }, "\(date)")
            }
            // A day without events is still an open date.
            #expect(try s.plannerDay(cell: "9q8yy", date: "2026-01-21") == nil)
        }
    }

    /// `verify` checks every key against the manifest's `keyForm`.
    @Test(arguments: [
        ("artist_suggest", SnapshotManifest.KeyForm(maxPrefixScalars: 2), "a prefix of 3 Unicode scalars"),
        ("open_sessions", SnapshotManifest.KeyForm(geohashLength: 4), "not a geohash cell of 4 characters"),
        ("planner", SnapshotManifest.KeyForm(geohashLength: 6), "not a geohash cell of 6 characters"),
    ])
    func verifyChecksKeysAgainstTheManifest(dataset: String, form: SnapshotManifest.KeyForm, problem: String) throws {
        let good = try Self.snapshot()
        #expect(good.verify().isValid)
        var forms: [String: SnapshotManifest.KeyForm] = [
            "artist_suggest": .init(maxPrefixScalars: 3), "open_sessions": .init(geohashLength: 5), "planner": .init(geohashLength: 5),
        ]
        forms[dataset] = form
        let report = try Self.snapshot(forms: forms).verify()
        #expect(!report.isValid)
        #expect(report.problems.count == 1)
        #expect(report.problems.allSatisfy { $0.message.contains(problem) && $0.file.hasSuffix(dataset + ".ndjson.zst") },
                "\(report.problems.map(\.message))")
    }

    @Test(arguments: [#"{"maxPrefixScalars":0}"#, #"{"geohashLength":13}"#, #"{"geohashLength":0}"#])
    func aKeyFormOutOfRangeIsAMalformedManifest(_ form: String) throws {
        let root = temporaryDirectory("snap-keyform-bad")
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001", datasets: [
            "nearby": [Self.record("9q8y", #""items":[]"#)],
        ], keyForms: ["nearby": .init(geohashLength: 4)])
        let path = root.appendingPathComponent(id).appendingPathComponent("manifest.json")
        let text = try String(contentsOf: path, encoding: .utf8)
        #expect(text.contains(#""keyForm":{"geohashLength":4}"#))
        try text.replacingOccurrences(of: #""keyForm":{"geohashLength":4}"#, with: #""keyForm":"# + form)
            .write(to: path, atomically: true, encoding: .utf8)
        #expect { try SnapshotManifest.read(path.path) } throws: { ($0 as? SnapshotError)?.code == .malformed }
    }
}
