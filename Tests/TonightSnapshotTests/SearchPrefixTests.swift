import Foundation
import Testing
@testable import TonightSnapshot

/// The reader's search as you type past the precomputed prefixes (`maxPrefix` scalars): the
/// list of the first `maxPrefix` scalars is filtered by the whole typed key, scalar by scalar
/// as the pipeline cuts prefixes (recommendations.md: prefixes of Unicode scalar values), not
/// by `Character`s, which fuse a letter with a following combining mark that NFKC leaves
/// apart (`q̇`: q + U+0307, which has no precomposed form).
@Suite struct SearchPrefixTests {
    static let snapshot: Snapshot = {
        let root = temporaryDirectory("snap-search")
        func record(_ key: String, _ items: String) -> (String, [UInt8]) { (key, Array(#"{"key":"\#(key)","items":[\#(items)]}"#.utf8)) }
        let artists = #"{"id":1,"name":"Abcdq\#u{307}r","favorites":9},{"id":2,"name":"Abcdqr","favorites":5},{"id":3,"name":"Abcdz","favorites":1}"#
        let events = #"{"event":"00000000000000A1","name":"Abcdq\#u{307}r Live","startsAt":"2026-02-01T20:00:00Z","venue":5,"city":"Chicago","popularity":0.9},"#
            + #"{"event":"00000000000000A2","name":"Abcdz Live","startsAt":"2026-02-02T20:00:00Z","venue":5,"city":"Chicago","popularity":0.5}"#
        let id = try! SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001", datasets: [
            "artist_suggest": [record("abcd", artists)], "event_search": [record("abcd", events)],
        ])
        try! SnapshotFixture.setCurrent(root: root, id)
        return try! Snapshot.openCurrent(in: root)
    }()

    @Test func artistsByScalarPrefix() throws {
        let s = Self.snapshot
        #expect(try s.suggestArtists(prefix: "ABCD").map(\.id) == [1, 2, 3])
        // "abcdq" is a prefix, scalar by scalar, of both "abcdq̇r" and "abcdqr".
        #expect(try s.suggestArtists(prefix: "abcdq").map(\.id) == [1, 2])
        #expect(try s.suggestArtists(prefix: "abcdq\u{307}").map(\.id) == [1])
        #expect(try s.suggestArtists(prefix: "abcdz").map(\.id) == [3])
    }

    @Test func eventsByScalarPrefix() throws {
        let s = Self.snapshot
        #expect(try s.searchEvents(prefix: "abcdq").map(\.event) == ["00000000000000A1"])
        #expect(try s.searchEvents(prefix: "chicago abcd").map(\.event) == ["00000000000000A1", "00000000000000A2"])
        #expect(try s.searchEvents(prefix: "chicago abcdq").map(\.event) == ["00000000000000A1"])
    }

    /// A `maxPrefix` below 1 is refused; a negative one trapped (a range or prefix of negative
    /// length) until 2026-11-28, taking the service down.
    @Test(arguments: [0, -1, Int.min])
    func aMaxPrefixBelowOneIsRefused(_ maxPrefix: Int) throws {
        let s = Self.snapshot
        for query in ["abcdqr", "ab", "chicago abcdq"] {
            #expect { try s.suggestArtists(prefix: query, maxPrefix: maxPrefix) } throws: { ($0 as? SnapshotError)?.code == .invalidArgument }
            #expect { try s.searchEvents(prefix: query, maxPrefix: maxPrefix) } throws: { ($0 as? SnapshotError)?.code == .invalidArgument }
        }
    }
}
