import Foundation

/// An event's `PriceRange` in cents (feed.md "Prices"): `"72.5 - 77.5"` or `"40"`, each
/// bound a plain decimal of dollars, a minimum above the maximum swapped.
struct PriceRange: Equatable {
    var minCents: Int64
    var maxCents: Int64
    /// The feed gave the bounds the wrong way round.
    var swapped: Bool

    /// The range of a cleaned `PriceRange` text, or nil when it is not one (a warning).
    ///
    /// The rule is `unicodeParse`'s: split at every `-` (a `Character`), each part trimmed of
    /// `CharacterSet.whitespaces`, one or two parts made only of digits and dots that parse
    /// as a finite `Double` in [0, 1e12), cents rounded half away from zero. ASCII text (every
    /// price of the real feed) reads the same from its bytes: there a `Character` is a byte
    /// (a `-` cannot combine with a neighbour) and the white space of that set is the space
    /// and the tab. Foundation's trimming and splitting were ~14 % of the records' thread of
    /// parse-feed for 59,600 events (parse-feed-log.md, "Prices from their bytes").
    static func parse(_ text: String) -> PriceRange? {
        var text = text
        switch text.withUTF8({ asciiParse($0) }) {
        case .range(let r): return r
        case .notAPrice: return nil
        case .notASCII: return unicodeParse(text)
        }
    }

    enum ASCIIResult: Equatable {
        case range(PriceRange)
        case notAPrice
        case notASCII
    }

    /// `parse` for text of ASCII bytes; `.notASCII` for any other (the caller takes
    /// `unicodeParse`).
    static func asciiParse(_ b: UnsafeBufferPointer<UInt8>) -> ASCIIResult {
        var dash = -1
        var dashes = 0
        for i in b.indices {
            let c = b[i]
            if c >= 0x80 { return .notASCII }
            if c == 0x2D {
                dashes += 1
                dash = i
            }
        }
        let lo: Int64?
        let hi: Int64?
        switch dashes {
        case 0:
            lo = cents(b, 0..<b.count)
            hi = lo
        case 1:
            lo = cents(b, 0..<dash)
            hi = cents(b, (dash + 1)..<b.count)
        default:
            return .notAPrice
        }
        guard let lo, let hi else { return .notAPrice }
        return .range(lo > hi ? PriceRange(minCents: hi, maxCents: lo, swapped: true)
                              : PriceRange(minCents: lo, maxCents: hi, swapped: false))
    }

    /// The cents of one bound: `range` of `b` without its spaces and tabs at either end,
    /// then digits and dots only, parsed as `Double` does.
    private static func cents(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        var lo = range.lowerBound
        var hi = range.upperBound
        while lo < hi, b[lo] == 0x20 || b[lo] == 0x09 { lo += 1 }
        while hi > lo, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 { hi -= 1 }
        guard lo < hi else { return nil }
        for i in lo..<hi {
            let c = b[i]
            guard (c >= 0x30 && c <= 0x39) || c == 0x2E else { return nil }
        }
        // A short part (every real price) is a small string: no allocation.
        guard let v = Double(String(decoding: UnsafeBufferPointer(rebasing: b[lo..<hi]), as: UTF8.self)) else { return nil }
        return centsOf(v)
    }

    private static func centsOf(_ v: Double) -> Int64? {
        guard v.isFinite, v >= 0, v < 1e12 else { return nil }
        return Int64((v * 100).rounded())
    }

    /// The rule on any text, with Foundation's splitting and trimming (the definition the
    /// ASCII path is tested against).
    static func unicodeParse(_ text: String) -> PriceRange? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        func cents(_ s: String) -> Int64? {
            guard !s.isEmpty, s.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }), let v = Double(s) else { return nil }
            return centsOf(v)
        }
        var lo: Int64?
        var hi: Int64?
        if parts.count == 1 {
            lo = cents(parts[0])
            hi = lo
        } else if parts.count == 2 {
            lo = cents(parts[0])
            hi = cents(parts[1])
        }
        guard let a = lo, let b = hi else { return nil }
        return a > b ? PriceRange(minCents: b, maxCents: a, swapped: true) : PriceRange(minCents: a, maxCents: b, swapped: false)
    }
}
