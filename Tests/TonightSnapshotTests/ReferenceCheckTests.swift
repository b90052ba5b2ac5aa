import Foundation
import Testing
@testable import TonightSnapshot

/// The record scanner finds exactly the values at the rules' paths, and `verify(references:)`
/// reports every id that its target dataset lacks, naming dataset, key and field.
@Suite struct ReferenceCheckTests {
    static func found(_ rules: [ReferenceRule], _ line: String) throws -> [String] {
        var out: [String] = []
        let bytes = Array(line.utf8)
        try bytes.withUnsafeBufferPointer { b in
            try RecordScanner(rules).scan(b) { r, v in out.append("\(rules[r].pathText)=\(String(decoding: v, as: UTF8.self))") }
        }
        return out
    }

    static let explore = ReferenceRule.standard.filter { $0.dataset == "explore" }
    static let alerts = ReferenceRule.standard.filter { $0.dataset == "alerts" }

    @Test func pathsArraysAndSkippedSubtrees() throws {
        let line = #"{"key":"u1","items":[{"event":"0A","score":1.5e-3,"artist":7,"because":[7,9],"reason":"affinity","x":{"event":"NO","y":[[1],{"a":"}"}]},"distanceKm":2.25},{"event":"0B","score":2,"reason":"popular"}],"artist":99}"#
        #expect(try Self.found(Self.explore, line) == [
            "items[].event=0A", "items[].artist=7", "items[].because[]=7", "items[].because[]=9", "items[].event=0B",
        ])
    }

    /// The compiled tables answer what the rules say at every depth, gaps included (no member
    /// at depth 1 of `items[].event`; depth 3 only for the longest path; a name shared by two
    /// rules at one depth gives both).
    @Test func scannerTablesAnswerPerDepth() throws {
        let tables = ScannerTables(paths: [[Array("items".utf8), nil, Array("event".utf8)],
                                           [Array("items".utf8), nil, Array("because".utf8), nil],
                                           [Array("venue".utf8)], [Array("event".utf8)]],
                                   conditional: [true, false, false, true])
        let t = tables.view
        func member(_ name: String, _ depth: Int) -> UInt32 {
            Array(name.utf8).withUnsafeBufferPointer { t.member($0, at: depth) }
        }
        #expect(t.depths == 5)
        #expect(member("items", 0) == 0b0011)
        #expect(member("venue", 0) == 0b0100)
        #expect(member("event", 0) == 0b1000)
        #expect(member("event", 1) == 0 && member("items", 1) == 0)
        #expect(member("event", 2) == 0b0001 && member("because", 2) == 0b0010 && member("venue", 2) == 0)
        #expect(member("", 0) == 0 && member("item", 0) == 0 && member("event", 7) == 0)
        #expect(t.each(at: 1) == 0b0011 && t.each(at: 3) == 0b0010 && t.each(at: 0) == 0 && t.each(at: 9) == 0)
        #expect(t.ending(at: 1) == 0b1100 && t.ending(at: 3) == 0b0001 && t.ending(at: 4) == 0b0010 && t.ending(at: 0) == 0)
        #expect(t.conditional(at: 2) == 0b0001 && t.conditional(at: 0) == 0b1000 && t.conditional(at: 3) == 0)
        withExtendedLifetime(tables) {}
    }

    @Test func escapedStringsAreUnescaped() throws {
        let rules = [ReferenceRule("sessions", "items[].session", "playmate_sessions")]
        #expect(try Self.found(rules, #"{"key":"p","items":[{"session":"a\"b\\c\u0041"}]}"#) == [#"items[].session=a"b\cA"#])
        // An escaped member name still matches.
        #expect(try Self.found(rules, #"{"key":"p","items":[{"sess\u0069on":"s1"}]}"#) == ["items[].session=s1"])
    }

    @Test func conditionsLookAtTheSiblingWhereverItIs() throws {
        let line = #"{"key":"u","items":[{"event":"E1","kind":"removed"},{"kind":"venue-changed","old":5,"new":6,"event":"E2"},{"event":"E3","kind":"time-changed","old":"2026-01-01T00:00:00Z","new":"2026-01-02T00:00:00Z"}]}"#
        #expect(try Self.found(Self.alerts, line).sorted() == ["items[].event=E2", "items[].event=E3", "items[].new=6"])
    }

    /// Strings are skipped a word at a time: a quote or a backslash at any place in or across
    /// an eight-byte word, or none before the end of the line, is found where it is.
    @Test(arguments: 0..<20)
    func stringsEndWhereverTheWordBoundaryFalls(_ n: Int) throws {
        let pad = String(repeating: "a", count: n)
        #expect(try Self.found(Self.explore, #"{"key":"u","items":[{"event":"\#(pad)","score":1}]}"#) == ["items[].event=\(pad)"])
        #expect(try Self.found(Self.explore, #"{"key":"u","items":[{"event":"\#(pad)\"q\\","artist":1}]}"#)
            == ["items[].event=\(pad)\"q\\", "items[].artist=1"])
        #expect(try Self.found(Self.explore, #"{"key":"u\#(pad)","items":[{"reason":"\#(pad)\"","event":"E"}]}"#) == ["items[].event=E"])
        #expect(throws: RecordScanner.Malformed.self) { try Self.found(Self.explore, #"{"key":"u","items":[{"event":"\#(pad)"#) }
        #expect(throws: RecordScanner.Malformed.self) { try Self.found(Self.explore, #"{"key":"u","items":[{"event":"\#(pad)\"#) }
    }

    /// A token outside quotes is a literal or made of number characters, whatever follows it.
    @Test(arguments: [("1.5e-3", true), ("-0", true), ("true", true), ("null", true), ("nulls", false), ("1x", false),
                      ("tru", false), ("+", true), ("\u{00e9}", false)])
    func tokensAreLiteralsOrNumbers(_ token: String, _ ok: Bool) {
        let line = #"{"key":"u","items":[{"score":\#(token),"event":"E"}]}"#
        if ok {
            #expect((try? Self.found(Self.explore, line)) == ["items[].event=E"])
        } else {
            #expect(throws: RecordScanner.Malformed.self) { try Self.found(Self.explore, line) }
        }
    }

    /// A skipped member's value (a string or a number, taken without the walk's calls) is
    /// still at most 64 levels deep, as every value is: 63 nested objects are walked, 64
    /// refused, whatever their innermost value.
    @Test(arguments: [#""s""#, "1", "true", "[]"])
    func skippedMembersKeepTheDepthLimit(_ leaf: String) throws {
        func nested(_ n: Int) -> String { String(repeating: #"{"a":"#, count: n) + leaf + String(repeating: "}", count: n) }
        #expect(try Self.found(Self.explore, nested(63)) == [])
        #expect(throws: RecordScanner.Malformed.self) { try Self.found(Self.explore, nested(64)) }
    }

    @Test(arguments: [
        #"{"key":"u","items":[{"event":"0A"}"#, #"{"key":"u","items":[{"event":0A}]}"#, #"{"key":"u"} x"#, #"{"key":"u",}"#,
        #"{"key":"u","items":[{"event":"0A"]}"#, #"{"key":"u","items":nul}"#, #"{"key"}"#, "",
        String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
    ])
    func malformedLinesAreErrors(_ line: String) {
        #expect(throws: RecordScanner.Malformed.self) { try Self.found(Self.explore, line) }
    }

    /// A small snapshot with one dangling reference of each kind the check knows.
    @Test func danglingReferencesAreReportedWithDatasetKeyAndField() throws {
        let root = temporaryDirectory("snap-refs")
        func rec(_ key: String, _ body: String) -> (String, [UInt8]) { (key, Array("{\"key\":\"\(key)\"\(body)}".utf8)) }
        let datasets: [String: [(String, [UInt8])]] = [
            "events": [rec("00000000000000AA", #","artists":[1],"category":5,"venue":3"#),
                       rec("00000000000000BB", #","artists":[1,2],"venue":4"#)],
            "artists": [rec("1", #","category":5"#)],
            "categories": [rec("5", #","parent":6"#)],
            "venues": [rec("3", "")],
            "explore": [rec("u1", #","items":[{"event":"00000000000000AA","artist":1,"because":[1]}]"#),
                        rec("u2", #","items":[{"event":"00000000000000CC","artist":1}]"#)],
            "alerts": [rec("u1", #","items":[{"event":"00000000000000DD","kind":"removed"},{"event":"00000000000000AA","kind":"venue-changed","old":9,"new":3}]"#)],
        ]
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-0000000a", datasets: datasets)
        let snapshot = try Snapshot.open(id: id, in: root)
        #expect(snapshot.verify().isValid)
        let report = snapshot.verify(references: true)
        let messages = report.problems.map(\.message).sorted()
        #expect(report.problems.allSatisfy { $0.code == .danglingReference })
        #expect(messages == [
            "dangling reference: dataset categories, key '5', field parent: '6' is not a key of categories",
            "dangling reference: dataset events, key '00000000000000BB', field artists[]: '2' is not a key of artists",
            "dangling reference: dataset events, key '00000000000000BB', field venue: '4' is not a key of venues",
            "dangling reference: dataset explore, key 'u2', field items[].event: '00000000000000CC' is not a key of events",
        ], "\(messages)")
        #expect(report.references == 15)
    }

    @Test func aMissingTargetDatasetIsAProblem() throws {
        let root = temporaryDirectory("snap-refs-missing")
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-0000000b", datasets: [
            "nearby": [("9q8y", Array(#"{"key":"9q8y","items":[{"event":"00000000000000AA","venue":3}]}"#.utf8))],
        ])
        let report = try Snapshot.open(id: id, in: root).verify(references: true)
        #expect(report.problems.contains { $0.message.contains("nearby points at events, which this snapshot lacks") })
    }

    @Test func quotedTruncatesAndEscapes() {
        #expect(SnapshotError.quoted("a\u{1b}[2Jb\nc") == "a\\u{1B}[2Jb\\nc")
        #expect(SnapshotError.quoted(String(repeating: "x", count: 500)).count == 81)
        #expect(SnapshotError.quoted([0xff, 0x41]) == "\u{FFFD}A")
    }
}

/// Alerts decode with typed values, and a kind from a newer writer is kept, not refused.
@Suite struct AlertItemTests {
    static func decode(_ json: String) throws -> AlertItem { try JSONDecoder().decode(AlertItem.self, from: Data(json.utf8)) }

    @Test func typedValues() throws {
        #expect(try Self.decode(#"{"event":"E","kind":"venue-changed","old":58,"new":62}"#)
                == AlertItem(event: "E", kind: .venueChanged, old: .venue(58), new: .venue(62)))
        #expect(try Self.decode(#"{"event":"E","kind":"status-changed","new":2}"#)
                == AlertItem(event: "E", kind: .statusChanged, old: nil, new: .status(2)))
        #expect(try Self.decode(#"{"event":"E","kind":"time-changed","old":"2026-01-25T00:30:00Z","new":"2026-01-26T00:30:00Z"}"#).new
                == .startsAt("2026-01-26T00:30:00Z"))
        // A venue id written as text is a schema violation, not silently accepted.
        #expect(throws: DecodingError.self) { try Self.decode(#"{"event":"E","kind":"venue-changed","old":"58"}"#) }
    }

    @Test func unknownKindsAreKept() throws {
        let a = try Self.decode(#"{"event":"E","kind":"price-changed","old":10,"new":"12.5"}"#)
        #expect(a.kind == .unknown("price-changed"))
        #expect(a.old == .unknown("10") && a.new == .unknown("12.5"))
        #expect(try Self.decode(String(decoding: JSONEncoder().encode(a), as: UTF8.self)).kind == a.kind)
    }
}
