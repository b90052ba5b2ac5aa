import Foundation

/// How precisely a published number is written (snapshots.md: "no more precisely than they
/// mean"). Only the text is rounded: lists are ordered on the unrounded values before they
/// are written, and binary tables keep every bit.
@usableFromInline
package enum NumberPrecision: Sendable, Equatable {
    /// At most this many digits after the decimal point (trailing zeros dropped).
    case decimals(Int)
    /// At most this many significant digits.
    case significant(Int)

    // Constants, not `static let`s: a global is read through `swift_once`, per number written.
    /// Distances in km: 2 decimals (10 m).
    @inlinable package static var distance: NumberPrecision { .decimals(2) }
    /// Scores: 6 significant digits.
    @inlinable package static var score: NumberPrecision { .significant(6) }
    /// Latitudes and longitudes: 5 decimals (about 1 m).
    @inlinable package static var coordinate: NumberPrecision { .decimals(5) }

    /// 10^p for 0 ≤ p ≤ 22 (the powers of ten that are exact doubles), from constants: a
    /// `static let` table was a `swift_once` call on every read, several per number written.
    @inlinable @inline(__always)
    static func power(_ p: Int) -> Double {
        switch p {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        case 22: 1e22
        default: preconditionFailure("10^\(p) is not an exact double")
        }
    }

    /// `v` rounded (half away from zero) to this precision: the double nearest the rounded
    /// decimal, whose shortest round-trip text has no more digits than the precision allows.
    /// Non-finite values and values whose rounding would lose nothing are returned as they are.
    @usableFromInline
    package func rounded(_ v: Double) -> Double {
        guard v.isFinite, v != 0 else { return v }
        let places: Int
        switch self {
        case .decimals(let d): places = d
        case .significant(let n):
            let exponent = Int(log10(v.magnitude).rounded(.down))
            places = n - 1 - exponent
        }
        if places >= 0 {
            // 10^places exact, and v·10^places below 2^53 so that its rounding is exact.
            guard places <= 22 else { return Self.roundedTiny(v, places: places) }
            let scale = Self.power(places)
            let scaled = v * scale
            guard scaled.magnitude < 9.0e15 else { return v }
            let r = scaled.rounded(.toNearestOrAwayFromZero) / scale
            return r == 0 ? 0 : r  // never "-0"
        } else {
            guard -places <= 22 else { return v }
            let scale = Self.power(-places)
            return (v / scale).rounded(.toNearestOrAwayFromZero) * scale
        }
    }

    /// `rounded(v)` as an integer `n` and a count of decimals (the value is n / 10^places),
    /// when the shortest round-trip text of `rounded(v)` is that plain decimal: |n| < 10^15
    /// (at most 15 significant digits, which a double tells apart from every other decimal
    /// of as many digits, so the shortest text is this one) and a magnitude of at least
    /// 1e-4 (Swift writes smaller ones with an exponent). Nil otherwise (and for 0 and
    /// non-finite values): the caller takes the general path.
    @inlinable @inline(__always)
    package func scaledDecimal(_ v: Double) -> (Int64, Int)? {
        guard v.isFinite, v != 0 else { return nil }
        let places: Int
        switch self {
        case .decimals(let d): places = d
        case .significant(let n): places = n - 1 - Self.decimalExponent(v.magnitude)
        }
        guard places >= 0, places <= 15 else { return nil }
        let scaled = v * Self.power(places)
        guard scaled.magnitude < 1e15 else { return nil }
        let n = Self.roundedHalfAway(scaled)
        // The rounding may carry to 10^15 (999999999999999.9 at 0 decimals): general path.
        guard n != 0, n.magnitude < 1_000_000_000_000_000, places < 4 || Double(n.magnitude) >= Self.power(places - 4) else { return nil }
        return (n, places)
    }

    /// ⌊log10 m⌋ for m > 0: by comparison with the exact powers of ten from 1e-4 to 1e22
    /// (every value the fast path writes), `log10` outside them. Where `log10`'s rounding
    /// puts a value a few ulps below a power of ten at that power, the two differ by one,
    /// but such a value rounds to the power of ten at either precision, so the text is the
    /// same (`fastPathWritesTheGeneralText` covers the neighbours of every power).
    @inlinable @inline(__always)
    static func decimalExponent(_ m: Double) -> Int {
        if m >= 1 {
            guard m < 1e22 else { return Int(log10(m).rounded(.down)) }
            var e = 0
            while m >= power(e + 1) { e += 1 }
            return e
        }
        guard m >= 1e-4 else { return Int(log10(m).rounded(.down)) }
        var e = -1
        // 10^-e is exact; the product rounds, so a value within an ulp below 10^e may count
        // as 10^e: harmless, as above.
        while m * power(-e) < 1 { e -= 1 }
        return e
    }

    /// `x.rounded(.toNearestOrAwayFromZero)` as an integer, for |x| < 2^53, without libm's
    /// `round` (a call: x86-64's rounding instruction has no ties-away mode): the
    /// truncation's remainder `x − t` is exact below 2^53.
    @inlinable @inline(__always)
    static func roundedHalfAway(_ x: Double) -> Int64 {
        let t = Int64(x)
        let rest = x - Double(t)
        if rest >= 0.5 { return t + 1 }
        if rest <= -0.5 { return t - 1 }
        return t
    }

    /// Values below 1e-22 with significant digits: through the decimal text (rare; slow).
    private static func roundedTiny(_ v: Double, places: Int) -> Double {
        let digits = max(1, places + Int(log10(v.magnitude).rounded(.down)) + 1)
        return Double(String(format: "%.\(digits - 1)e", v)) ?? v
    }
}
