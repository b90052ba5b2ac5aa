import Foundation
import Testing
@testable import TonightCore
import TonightGenerator
import TonightBase

/// `CivilTime`'s text of instants and dates, written digit by digit, against the plain
/// formatting it replaced (a padded string per field, joined): the same text for every
/// instant, negative ones and years past 9999 and before 0 included.
@Suite struct CivilTimeFormatTests {
    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// The formatting before the digit-by-digit one.
    static func referenceLocal(_ t: Int64) -> String {
        let day = CivilTime.floorDiv(t, 86_400)
        let sec = Int(t - day * 86_400)
        let (y, m, d) = CivilTime.civil(days: Int(day))
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(sec / 3600, 2) + ":"
            + pad(sec / 60 % 60, 2) + ":" + pad(sec % 60, 2)
    }

    static func referenceDate(_ days: Int) -> String {
        let (y, m, d) = CivilTime.civil(days: days)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    static var instants: [Int64] {
        var rng = SplitMix64(seed: 7)
        // The epoch, its neighbours, the ends of years 0, 999, 1000, 9999 and 10000, leap days.
        var out: [Int64] = [0, -1, 1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 4_107_542_399, 1_768_456_800]
        for (y, m, d) in [(0, 1, 1), (-1, 12, 31), (999, 12, 31), (1000, 1, 1), (9999, 12, 31), (10000, 1, 1), (2024, 2, 29), (1900, 3, 1)] {
            let day = Int64(CivilTime.days(year: y, month: m, day: d)) * 86_400
            out += [day, day - 1, day + 86_399, day + 43_261]
        }
        // Random instants from year -3000 to 12000.
        for _ in 0..<50_000 { out.append(Int64(rng.next() % 473_000_000_000) - 157_000_000_000) }
        return out
    }

    @Test func instantsAndDatesAreTheReferenceText() {
        for t in Self.instants {
            #expect(CivilTime.formatLocal(t) == Self.referenceLocal(t), "\(t)")
            #expect(CivilTime.formatUTC(t) == Self.referenceLocal(t) + "Z", "\(t)")
            let day = Int(CivilTime.floorDiv(t, 86_400))
            #expect(CivilTime.formatDate(days: day) == Self.referenceDate(day), "\(day)")
        }
        #expect(CivilTime.formatUTC(1_768_456_800) == "2026-01-15T06:00:00Z")
        #expect(CivilTime.formatDate(days: -719_528) == "0000-01-01")
    }
}
