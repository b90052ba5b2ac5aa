import Foundation
import Testing
@testable import TonightExports
import TonightGenerator

/// `PlaymateLoader.sportKey` on ASCII text (its own loop) against the Foundation trimming and
/// lowercasing it stands in for, and non-ASCII text through Foundation as before.
@Suite struct SportKeyTests {
    static func reference(_ s: String) -> String { s.trimmingCharacters(in: .whitespaces).lowercased() }

    /// Every ASCII byte alone, at both ends and inside a word, and random ASCII strings.
    static var asciiCases: [String] {
        var out: [String] = ["", " ", "\t", "  Tennis  ", "\tBEACH Volleyball\t", "Five-a-side ", "a\u{0B}", "\u{0C}b", "x\r\n"]
        for b in 0..<UInt8(128) {
            let c = String(UnicodeScalar(b))
            out += [c, c + "Ab", "Ab" + c, "A" + c + "b", " " + c + " "]
        }
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2_000 {
            let n = Int(rng.next() % 12)
            out.append(String((0..<n).map { _ in Character(UnicodeScalar(UInt8(rng.next() % 128))) }))
        }
        return out
    }

    @Test func asciiTextIsTrimmedAndLowercasedAsFoundationDoes() {
        for s in Self.asciiCases {
            #expect(PlaymateLoader.sportKey(s) == Self.reference(s), "\(Array(s.utf8))")
            let fast = Array(s.utf8).withUnsafeBufferPointer { PlaymateLoader.asciiSportKey($0) }
            #expect(fast == Self.reference(s))
        }
    }

    @Test(arguments: ["Pétanque", " ÉQUIPE ", "\u{A0}Judo\u{A0}", "Straße", "Kendō\u{2003}", "İstanbul run"])
    func otherTextGoesThroughFoundation(_ s: String) {
        #expect(PlaymateLoader.sportKey(s) == Self.reference(s))
    }
}
