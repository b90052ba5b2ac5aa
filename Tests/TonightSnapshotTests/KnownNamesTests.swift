import Foundation
import Testing
@testable import TonightSnapshot

/// The record scanner matches each member against the name met at its position before
/// (`RecordScanner.KnownNames`, kept across the lines of a thread): whatever the names
/// remembered, a line gives the values the walk alone gives. A longer, shorter or escaped
/// name, a space before the colon, a name longer than the 16 bytes remembered or one near the
/// line's end all take the walk; names remembered for another scanner's rules are forgotten.
@Suite struct KnownNamesTests {
    static func found(_ scanner: RecordScanner, _ rules: [ReferenceRule], _ line: String, names: RecordScanner.KnownNames) throws -> [String] {
        var out: [String] = []
        let bytes = Array(line.utf8)
        try bytes.withUnsafeBufferPointer { b in
            try scanner.scan(b, names: names) { r, v in out.append("\(rules[r].pathText)=\(String(decoding: v, as: UTF8.self))") }
        }
        return out
    }

    static let explore = ReferenceRule.standard.filter { $0.dataset == "explore" }

    @Test func itemsOfAnyShapeGiveTheWalksValues() throws {
        let scanner = RecordScanner(Self.explore), names = RecordScanner.KnownNames()
        let line = #"{"key":"u","items":[{"event":"A","artist":1},{"artist":2,"event":"B"},{"eventX":"C","artist":3},"#
            + #"{"even":"D","artist":4},{"event" :"E"},{ "event":"F"},{"ev\u0065nt":"G"},{"event":"H","because":[5]},"#
            + #"{"event":"I","artist":6,"because":[7,8]}]}"#
        let expected = ["items[].event=A", "items[].artist=1", "items[].artist=2", "items[].event=B", "items[].artist=3",
                        "items[].artist=4", "items[].event=E", "items[].event=F", "items[].event=G", "items[].event=H",
                        "items[].because[]=5", "items[].event=I", "items[].artist=6", "items[].because[]=7", "items[].because[]=8"]
        #expect(try Self.found(scanner, Self.explore, line, names: names) == expected)
        // Again with every name remembered from the first time, and with none.
        #expect(try Self.found(scanner, Self.explore, line, names: names) == expected)
        #expect(try Self.found(scanner, Self.explore, line, names: RecordScanner.KnownNames()) == expected)
    }

    @Test func namesRememberedFromOneLineServeTheNext() throws {
        let scanner = RecordScanner(Self.explore), names = RecordScanner.KnownNames()
        #expect(try Self.found(scanner, Self.explore, #"{"key":"u","items":[{"event":"A","artist":1}]}"#, names: names)
            == ["items[].event=A", "items[].artist=1"])
        #expect(try Self.found(scanner, Self.explore, #"{"key":"v","items":[{"eventt":"B","artist":5}]}"#, names: names)
            == ["items[].artist=5"])
        #expect(try Self.found(scanner, Self.explore, #"{"key":"w","items":[{"event":"C","artists":[5]}]}"#, names: names)
            == ["items[].event=C"])
        // A remembered name does not make a malformed member well-formed.
        #expect(throws: RecordScanner.Malformed.self) {
            try Self.found(scanner, Self.explore, #"{"key":"x","items":[{"event""C","artist":1}]}"#, names: names)
        }
        #expect(throws: RecordScanner.Malformed.self) {
            try Self.found(scanner, Self.explore, #"{"key":"x","items":[{"event":,"artist":1}]}"#, names: names)
        }
        // The name's closing quote and its colon are where the name says (the items after
        // them leave enough bytes for a remembered name to be tried).
        #expect(throws: RecordScanner.Malformed.self) {
            try Self.found(scanner, Self.explore, #"{"key":"x","items":[{"event":"A"},{"eventX:"B"},{"artist":1,"because":[1,2,3]}]}"#, names: names)
        }
        #expect(throws: RecordScanner.Malformed.self) {
            try Self.found(scanner, Self.explore, #"{"key":"x","items":[{"event":"A"},{"event"X"B"},{"artist":1,"because":[1,2,3]}]}"#, names: names)
        }
    }

    /// Names as long as each other that differ in one byte, at every place in the two words.
    @Test(arguments: 0..<16)
    func namesThatDifferInOneByte(_ k: Int) throws {
        func name(_ c: Character) -> String {
            var n = Array("abcdefghijklmnop")
            n[k] = c
            return String(n)
        }
        let rules = [ReferenceRule("d", "items[].\(name("Y"))", "t"), ReferenceRule("d", "items[].\(name("Z"))", "t")]
        let scanner = RecordScanner(rules), names = RecordScanner.KnownNames()
        let line = #"{"items":[{"\#(name("Y"))":"1"},{"\#(name("Z"))":"2"},{"\#(name("Y"))":"3"},{"\#(name("X"))":"4"},{"\#(name("Z"))":"5"},{"\#(name("Y"))":"6"}]}"#
        #expect(try Self.found(scanner, rules, line, names: names)
            == ["items[].\(name("Y"))=1", "items[].\(name("Z"))=2", "items[].\(name("Y"))=3", "items[].\(name("Z"))=5", "items[].\(name("Y"))=6"])
    }

    /// One name per length around the two words remembered, its item twice, then padding of
    /// `pad` bytes so that the second item's name falls at every distance from the line's end.
    @Test(arguments: [1, 7, 8, 9, 15, 16, 17, 18])
    func namesOfEveryLengthNearTheEnd(_ length: Int) throws {
        let name = String("abcdefghijklmnopqrstuvwxyz".prefix(length))
        let rules = [ReferenceRule("d", "items[].\(name)", "t"), ReferenceRule("d", "items[].\(name)x", "t")]
        let scanner = RecordScanner(rules), names = RecordScanner.KnownNames()
        for pad in 0..<22 {
            let tail = String(repeating: " ", count: pad)
            let line = #"{"items":[{"\#(name)":"1"},{"\#(name)":"2"},{"\#(name)x":"3"},{"\#(name)":"4"}]}"# + tail
            #expect(try Self.found(scanner, rules, line, names: names)
                == ["items[].\(name)=1", "items[].\(name)=2", "items[].\(name)x=3", "items[].\(name)=4"], "pad \(pad)")
        }
    }

    @Test func namesRememberedForOtherRulesAreForgotten() throws {
        // "event" is rule 0 of the first scanner and rule 1 of the second.
        let first = [ReferenceRule("d", "items[].event", "events")]
        let second = [ReferenceRule("d", "items[].artist", "artists"), ReferenceRule("d", "items[].event", "events")]
        let names = RecordScanner.KnownNames()
        let line = #"{"items":[{"event":"E","artist":1},{"event":"F","artist":2}]}"#
        #expect(try Self.found(RecordScanner(first), first, line, names: names) == ["items[].event=E", "items[].event=F"])
        #expect(try Self.found(RecordScanner(second), second, line, names: names)
            == ["items[].event=E", "items[].artist=1", "items[].event=F", "items[].artist=2"])
    }
}
