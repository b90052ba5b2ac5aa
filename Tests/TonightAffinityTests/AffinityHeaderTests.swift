import Foundation
import Testing
@testable import TonightAffinity

/// A header whose name is empty (`Recommended artists for` and nothing, or white space, after
/// it), found by the `affinity` fuzz target (2026-11-29): the one-pass read took it for a
/// malformed line inside the block before, so the lines under it became recommendations of
/// the previous block's artist; and the split read, which cuts the file at lines that begin
/// with the header's bytes, started a piece there and read the same lines as outside any
/// block, so the two reads disagreed (here a file accepted by one and refused by the other).
@Suite struct AffinityHeaderTests {
    static let artists: [(id: Int64, name: String)] = [(1, "Battle At the Boat"), (859485, "Showtime Boxing"), (900333, "Guns N Hoses")]

    static func parse(_ text: String, pieces: Int?) throws -> AffinityResult {
        var p = AffinityParser(artists: artists)
        p.maxRejectShare = 1
        return try Array(text.utf8).withUnsafeBufferPointer { bytes in
            if let pieces { return try p.parse(bytes, path: "a.txt", pieces: pieces) }
            return try p.parse(bytes, path: "a.txt", split: false)
        }
    }

    @Test(arguments: ["Recommended artists for ", "Recommended artists for", "Recommended artists for \t ", "Recommended artists for \r"])
    func anEmptyNameStartsABlockOfItsOwn(_ header: String) throws {
        var text = ""
        for _ in 0..<6 { text += "Recommended artists for Battle At the Boat\n859485,Showtime Boxing,0.5\n-----\n" }
        // An open block, then the empty name's block: its lines are nobody's.
        text += "Recommended artists for Showtime Boxing\n900333,Guns N Hoses,0.4\n"
        text += header + "\n900333,Guns N Hoses,0.3\n1,Battle At the Boat,0.2\n-----\n"
        for _ in 0..<6 { text += "Recommended artists for Guns N Hoses\n1,Battle At the Boat,0.1\n-----\n" }
        let one = try Self.parse(text, pieces: nil)
        #expect(one.blocks == 14)
        #expect(one.counts["unknown-source"] == 1 && one.unknownSources == [""])
        #expect(one.counts["unterminated-block"] == 1)
        #expect(one.rejects.isEmpty)
        // Showtime Boxing's one edge; the empty name's two lines are skipped with its block.
        #expect(one.edges.filter { $0.source == 859485 }.map(\.target) == [900333])
        #expect(one.edges.filter { $0.source == 859485 }.map(\.score) == [0.4])
        for pieces in [2, 3, 5, 8] {
            let split = try Self.parse(text, pieces: pieces)
            #expect(split.edges == one.edges, "\(pieces) pieces")
            #expect(split.counts == one.counts, "\(pieces) pieces")
            #expect(split.unknownSources == one.unknownSources && split.blocks == one.blocks, "\(pieces) pieces")
        }
    }

    /// Every rejected line is one of the lines counted, so the share can never pass 100 %: a
    /// terminator outside a block is a line outside a block (it was rejected but not counted,
    /// and the fuzzed file was refused as "24 of 23 recommendation lines rejected").
    @Test func aStrayTerminatorIsCountedAmongTheLines() throws {
        let text = "-----\n-----\n-----\nRecommended artists for Battle At the Boat\n859485,Showtime Boxing,0.5\n-----\n"
        var p = AffinityParser(artists: Self.artists)
        p.maxRejectShare = 0.75
        let result = try Array(text.utf8).withUnsafeBufferPointer { try p.parse($0, path: "a.txt", split: false) }
        #expect(result.counts["bad-line"] == 3)
        #expect(result.edges.count == 1)
        p.maxRejectShare = 0.7
        #expect(throws: (any Error).self) { try Array(text.utf8).withUnsafeBufferPointer { try p.parse($0, path: "a.txt", split: false) } }
    }

    /// The file the fuzz target found (shortened): the split and the one-pass read agree.
    @Test func theFuzzedFileReadsTheSameInPieces() throws {
        var text = "Recommended artists for Battle At the Boat\n859485,Showtime Boxing,0.5\nnot a line\n"
        text += String(repeating: "900333,Guns N Hoses,0.5--\n", count: 3)
        text += "Recommended artists for \n" + String(repeating: "\n", count: 20) + "nd7,Togdom,0Yeco.06\n900333,Guns N Hoses,0.25\n"
        text += String(repeating: "x\n", count: 4) + "-----\n"
        let one = try Self.parse(text, pieces: nil)
        let split = try Self.parse(text, pieces: 2)
        #expect(split.edges == one.edges && split.counts == one.counts)
        #expect(one.edges.map(\.source) == [1])
    }
}
