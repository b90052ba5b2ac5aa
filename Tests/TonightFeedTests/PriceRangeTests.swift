import Foundation
import Testing
@testable import TonightFeed
import TonightGenerator

/// `PriceRange`'s reading of ASCII text from its bytes against the definition it replaced
/// (`unicodeParse`: Foundation's split at `-` and trimming of `CharacterSet.whitespaces`).
@Suite struct PriceRangeTests {
    static func ascii(_ s: String) -> PriceRange.ASCIIResult {
        var s = s
        return s.withUTF8 { PriceRange.asciiParse($0) }
    }

    /// The ASCII path's answer where it gives one, the reference's otherwise.
    static func check(_ s: String) {
        let reference = PriceRange.unicodeParse(s)
        switch ascii(s) {
        case .range(let r): #expect(r == reference, "\(Array(s.utf8))")
        case .notAPrice: #expect(reference == nil, "\(Array(s.utf8))")
        case .notASCII: #expect(s.utf8.contains { $0 >= 0x80 }, "\(Array(s.utf8))")
        }
        #expect(PriceRange.parse(s) == reference, "\(Array(s.utf8))")
    }

    @Test(arguments: [
        ("72.5 - 77.5", 7250 as Int64?, 7750 as Int64?, false),
        ("40", 4000, 4000, false),
        ("77.5 - 72.5", 7250, 7750, true),
        ("19.99\t-\t20", 1999, 2000, false),
        ("1.005", 100, 100, false),  // the double below 1.005: cents as Double rounds them
        (" 5 ", 500, 500, false),
        ("5.", 500, 500, false),
        (".5", 50, 50, false),
        ("free", nil, nil, false),
        ("10 - 20 - 30", nil, nil, false),
        ("-5", nil, nil, false),
        ("5-", nil, nil, false),
        ("1.2.3", nil, nil, false),
        ("1e3", nil, nil, false),
        ("5\n- 6", nil, nil, false),
        ("999999999999", 99_999_999_999_900, 99_999_999_999_900, false),
        ("1000000000000", nil, nil, false),
        ("40\u{A0}-\u{2003}50", 4000, 5000, false),  // Unicode spaces: the reference's path
        ("4\u{0663}", nil, nil, false),
    ])
    func readsTheFeedsPrices(_ text: String, _ lo: Int64?, _ hi: Int64?, _ swapped: Bool) {
        let r = PriceRange.parse(text)
        #expect(r?.minCents == lo && r?.maxCents == hi, "\(text)")
        if r != nil { #expect(r?.swapped == swapped) }
        Self.check(text)
    }

    /// Every ASCII byte around and inside a range, and 20,000 seeded strings of the bytes
    /// that matter (digits, dots, dashes, the white space of either set, letters).
    @Test func theBytesGiveTheDefinitionsAnswer() {
        for c in 0..<128 {
            let ch = String(UnicodeScalar(UInt8(c)))
            for form in ["\(ch)40", "40\(ch)", "4\(ch)0", "1\(ch)-2", "1-\(ch)2", "\(ch)1 - 2\(ch)", "1 \(ch)- 2", "3.\(ch)5"] {
                Self.check(form)
            }
        }
        let alphabet = Array("0123456789..--  \t\t\n\r\u{0B}\u{0C}e+x,".utf8)
        var rng = SplitMix64(seed: 0x5052_4943_45)
        for _ in 0..<20_000 {
            let n = Int(rng.next() % 14)
            var bytes: [UInt8] = []
            for _ in 0..<n { bytes.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            Self.check(String(decoding: bytes, as: UTF8.self))
        }
    }
}
