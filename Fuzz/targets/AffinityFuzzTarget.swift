import TonightAffinity
import TonightBase
import TonightCore
import Foundation

/// The affinity parser: the split parse (two pieces, whatever the cores) and the one-pass
/// parse must agree, on failing and on what they find; and the byte-level name key must be
/// Foundation's (`NameKey.general`) on every valid UTF-8 line. Reached: the edges resolved.
package struct AffinityFuzzTarget: FuzzTarget {
    package static let name = "affinity"
    private let parser: AffinityParser

    package init(scratch: URL) {
        // Real names of the 2012 feed (one of them twice: an ambiguous source) and the tiny
        // feed's artists that its affinity file names, so that the seeds resolve.
        var p = AffinityParser(artists: [
            (1, "Battle At the Boat"), (2, "Showtime Boxing"), (859485, "Showtime Boxing"), (900333, "Guns N Hoses"),
            (1053, "Golden Prophet – Stone Tour"), (1054, "The Lonely Tides"), (1061, "Rivera, Gagnon & Nguyen"),
            (1087, "The Golden Satellites"), (1096, "Toronto Symphony Orchestra"), (1097, "Renée Davis"),
        ])
        p.maxRejectShare = 1
        parser = p
    }

    package func run(_ input: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome {
        let split = try? parser.parse(input, path: "affinity.txt", split: true, pieces: 2)
        let whole = try? parser.parse(input, path: "affinity.txt", split: false)
        if (split == nil) != (whole == nil) { throw FuzzFinding(Self.name, "the two halves and one pass disagree on failing") }
        if let split, let whole, split.edges != whole.edges || split.counts != whole.counts {
            throw FuzzFinding(Self.name, "the two halves and one pass disagree")
        }
        // Names are keyed from the artists table's bytes (valid UTF-8) through a byte-level fast
        // path where it applies: on any such text it must give Foundation's key (NFKC, case
        // folding, white space collapsed and trimmed).
        for line in input.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(8) {
            let bytes = UnsafeBufferPointer(rebasing: line)
            guard let text = String(validating: bytes, as: UTF8.self) else { continue }
            var fromBytes: [UInt8] = []
            TextNormalizer.appendNameKey(bytes, to: &fromBytes)
            if fromBytes != Array(NameKey.general(text).utf8) {
                throw FuzzFinding(Self.name, "name key differs from Foundation's for \(Array(bytes))")
            }
        }
        guard let whole else { return .refused }
        return .accepted(reached: whole.edges.count)
    }

    /// The tiny affinity file (9 of its 11 lines resolve: two name artists the target does
    /// not know) and a block of the 2012 names, one of them ambiguous.
    package static func seeds(_ sources: FuzzSeedSources) throws -> [FuzzSeed] {
        let names = "Recommended artists for Battle At the Boat\n2,Showtime Boxing,0.5\n900333,Guns N Hoses,0.25\n-----\n"
        return [
            FuzzSeed(name: "affinity.txt", bytes: try sources.tiny("affinity.txt"), least: 9),
            FuzzSeed(name: "2012 names", bytes: Array(names.utf8), least: 2),
        ]
    }
}
