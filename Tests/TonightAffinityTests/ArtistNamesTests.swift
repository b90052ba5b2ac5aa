import Foundation
import Testing
import TonightCore
import TonightGenerator
@testable import TonightAffinity

/// The artists' arena and name keys the parser resolves lines with, against the plain
/// structures they replaced (one `String` per name); the id index is `IDPositionsTests`.
@Suite struct ArtistNamesTests {
    /// Names of many scripts and spacings: the key made from the arena's bytes is the key
    /// made from the `String`, byte for byte (the fast path and the Foundation fallback).
    @Test func nameKeysFromBytesAreTheStringKeys() {
        var names = [
            "Beyoncé", "  The   Band\t", "STRASSE", "Straße", "A × B", "ÀÉÎÕÜ ÿ", "Ｆｕｌｌｗｉｄｔｈ", "Mötley Crüe",
            "Björk", "e\u{301}", "ﬁre", "Сплин", "東京事変", "🎸 Rock", "", " ", "Ǆemal", "İstanbul", "Ⅻ",
        ]
        var random = SplitMix64(seed: 9)
        let pieces = ["a", "Z", " ", "\t", "é", "É", "ß", "ö", "Ö", "×", "÷", "ÿ", "Ÿ", "ı", "İ", "ﬀ", "Ω", "ω", "д", "Д", "字", "\u{301}", "😀", "-", "&"]
        for _ in 0..<3_000 {
            names.append((0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        for name in names {
            var fromString: [UInt8] = []
            TextNormalizer.appendNameKey(name, to: &fromString)
            var fromBytes: [UInt8] = [7]  // keys are appended after what is there
            var s = name
            s.withUTF8 { TextNormalizer.appendNameKey($0, to: &fromBytes) }
            guard fromBytes == [7] + fromString else {
                Issue.record("\(name.debugDescription): \(fromBytes.dropFirst()) from bytes, \(fromString) from the String")
                return
            }
        }
    }

    /// The arena holds each name where `range` says, in feed order.
    @Test func theArenaKeepsEveryNameInOrder() {
        let artists: [(id: Int64, name: String)] = [(4, "Beyoncé"), (9, ""), (2, "Sigur Rós"), (4, "again")]
        let names = ArtistNames(artists)
        #expect(names.count == 4)
        #expect(names.ids == [4, 9, 2, 4])
        for (i, a) in artists.enumerated() {
            #expect(String(decoding: names.bytes[names.range(i)], as: UTF8.self) == a.name)
        }
    }

    /// Targets resolve through the array (small ids) as through the dictionary (sparse
    /// ids): the same edges, unknown targets and name mismatches, whichever index serves.
    @Test(arguments: [Int64(0), 1_000_000_000_000])
    func targetsResolveWhicheverIndexServes(_ offset: Int64) throws {
        let artists: [(id: Int64, name: String)] = [
            (offset + 1, "Source"), (offset + 2, "Target Two"), (offset + 3, "Target Three"), (offset + 3, "Target Three Again"),
        ]
        var parser = AffinityParser(artists: artists)
        parser.maxRejectShare = 1
        let text = """
            Recommended artists for Source
            \(offset + 2),Target Two,0.5
            \(offset + 3),Target Three Again,0.25
            \(offset + 4),Nobody,0.1
            \(offset + 2000),Nobody Either,0.1
            \(offset + 3),Someone Else,0.2
            -----

            """
        let r = try Array(text.utf8).withUnsafeBufferPointer { try parser.parse($0, path: "affinity.txt") }
        #expect(r.edges.map { [$0.source - offset, $0.target - offset] } == [[1, 2], [1, 3]])
        #expect(r.edges.map(\.score) == [0.5, 0.25])
        #expect(r.counts["unknown-target"] == 2)
        // The later of two artists with one id names it: "Target Three Again".
        #expect(r.counts["name-mismatch"] == 1)
        #expect(r.counts["duplicate-pair"] == 1)
    }
}
