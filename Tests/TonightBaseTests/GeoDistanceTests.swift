import Foundation
import Testing
import TonightBase
import TonightGenerator

/// `GeoDistance.publishedKm` (the feed's published distances) against `km`: within a far
/// smaller error than the hundredth they are written with, the same hundredth always, and
/// `km` itself where that could differ (near a half hundredth, near the antipode).
@Suite struct GeoDistanceTests {
    struct Pair { var lat1, lon1, lat2, lon2: Double }

    /// Pairs at every scale: the same point, metres, kilometres, a city, a continent, the
    /// other side of the earth, across the date line and near the poles.
    static func pairs(_ n: Int, seed: UInt64) -> [Pair] {
        var random = SplitMix64(seed: seed)
        func next() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var out: [Pair] = []
        let spreads = [0, 1e-5, 1e-3, 0.05, 1, 10, 90, 180]
        for k in 0..<n {
            let lat1 = next() * 180 - 90, lon1 = next() * 360 - 180
            let spread = spreads[k % spreads.count]
            var lat2 = lat1 + (next() * 2 - 1) * spread, lon2 = lon1 + (next() * 2 - 1) * spread
            lat2 = min(90, max(-90, lat2))
            if lon2 > 180 { lon2 -= 360 } else if lon2 < -180 { lon2 += 360 }
            if k % 97 == 0 { (lat2, lon2) = (-lat1, lon1 > 0 ? lon1 - 180 : lon1 + 180) }  // antipodes
            out.append(Pair(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2))
        }
        return out
    }

    static func exact(_ p: Pair) -> Double {
        GeoDistance.km(p.lat1, p.lon1, cosLat1: GeoDistance.cosLatitude(p.lat1), p.lat2, p.lon2, cosLat2: GeoDistance.cosLatitude(p.lat2))
    }

    static func published(_ p: Pair) -> Double {
        GeoDistance.publishedKm(
            p.lat1, p.lon1, cosLat1: GeoDistance.cosLatitude(p.lat1), half1: GeoDistance.halfAngles(p.lat1, p.lon1),
            p.lat2, p.lon2, cosLat2: GeoDistance.cosLatitude(p.lat2), half2: GeoDistance.halfAngles(p.lat2, p.lon2))
    }

    /// The hundredths a distance is published with (NumberPrecision.distance's rounding).
    static func hundredths(_ d: Double) -> Double { (d * 100).rounded(.toNearestOrAwayFromZero) }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func sameHundredthAndTinyError(_ seed: UInt64) {
        var worst = 0.0
        for p in Self.pairs(100_000, seed: seed) {
            let (e, f) = (Self.exact(p), Self.published(p))
            #expect(Self.hundredths(e) == Self.hundredths(f), "\(p): \(e) vs \(f)")
            worst = max(worst, abs(e - f))
        }
        // The error bound the doc comment claims, with room: a hundred times below the
        // 1e-8 km guard band around a half hundredth.
        #expect(worst < 1e-10, "largest difference \(worst) km")
    }

    /// Near the antipode and a hair from a half hundredth, `km` itself is returned.
    @Test func fallsBackWhereTheHundredthCouldDiffer() {
        let antipodes = Pair(lat1: 10, lon1: 20, lat2: -10, lon2: -160)
        #expect(Self.published(antipodes).bitPattern == Self.exact(antipodes).bitPattern)
        // Points where the exact distance is a half hundredth to within an ulp (found by
        // bisection between two points a metre apart whose hundredths differ): there the
        // fast value must be the exact one.
        var p = Pair(lat1: 48.85, lon1: 2.35, lat2: 48.9, lon2: 2.4)
        for _ in 0..<3 {
            var lo = p.lat2, hi = p.lat2
            repeat { hi += 1e-5 } while Self.hundredths(Self.exact(Pair(lat1: p.lat1, lon1: p.lon1, lat2: hi, lon2: p.lon2)))
                == Self.hundredths(Self.exact(Pair(lat1: p.lat1, lon1: p.lon1, lat2: lo, lon2: p.lon2)))
            let below = Self.hundredths(Self.exact(Pair(lat1: p.lat1, lon1: p.lon1, lat2: lo, lon2: p.lon2)))
            for _ in 0..<80 {
                let mid = (lo + hi) / 2
                if Self.hundredths(Self.exact(Pair(lat1: p.lat1, lon1: p.lon1, lat2: mid, lon2: p.lon2))) == below { lo = mid } else { hi = mid }
            }
            for lat2 in [lo, hi] {
                let q = Pair(lat1: p.lat1, lon1: p.lon1, lat2: lat2, lon2: p.lon2)
                let e = Self.exact(q), scaled = e * 100
                #expect(abs(scaled - scaled.rounded(.down) - 0.5) < 1e-6)  // a boundary indeed
                #expect(Self.published(q).bitPattern == e.bitPattern)
            }
            p.lat2 = hi + 1e-4
        }
    }

    /// The haversine term `km` computes (the same operations).
    static func haversine(_ p: Pair) -> Double {
        let r = Double.pi / 180
        let dLat = (p.lat2 - p.lat1) * r, dLon = (p.lon2 - p.lon1) * r
        return sin(dLat / 2) * sin(dLat / 2)
            + GeoDistance.cosLatitude(p.lat1) * GeoDistance.cosLatitude(p.lat2) * sin(dLon / 2) * sin(dLon / 2)
    }

    static func bound(_ p: Pair) -> Double {
        GeoDistance.haversineLowerBound(p.lat1, p.lon1, cosLat1: GeoDistance.cosLatitude(p.lat1),
                                        p.lat2, p.lon2, cosLat2: GeoDistance.cosLatitude(p.lat2))
    }

    /// The bound is below `km`'s own term (within rounding) at every scale, across the date
    /// line, and with longitudes not in [-180, 180] (the second point a turn or two east or
    /// west).
    @Test(arguments: [4, 5] as [UInt64])
    func lowerBoundIsBelowTheHaversineTerm(_ seed: UInt64) {
        let tight = Self.boundOverPairs(seed: seed, shifts: [0.0, 360, -360, 720], bound: Self.bound) { p, a, b in
            #expect(b <= a * (1 + 1e-12) + 1e-300, "\(p): bound \(b) above \(a)")
        } tight: { a, b in b > a * 0.99 }
        // Useful as well as safe: within 1 % of the term for most pairs (a bound of 0 would
        // pass the test above).
        #expect(tight > 50_000, "\(tight) of 100,000 bounds within 1 %")
    }

    /// Whatever the radius, a point the bound rejects is out of reach by `km`, points at the
    /// radius to the last bit included; and every point beyond twice the radius is rejected
    /// (but across the antimeridian).
    @Test(arguments: [6, 7] as [UInt64])
    func reachTestNeverRejectsAPointInReach(_ seed: UInt64) {
        var far = 0, rejectedFar = 0
        Self.radiiOverPairs(seed: seed, alsoTimes: [0.5]) { k, p, d, r in
            let rejected = Self.bound(p) > GeoDistance.reachLimit(radiusKm: r)
            if rejected { #expect(d > r, "seed \(seed) pair \(k): \(p) at \(d) km rejected for radius \(r)") }
            // Far points, not across the antimeridian (those are left to `km`).
            if r < 20_000, d > 2 * r, r >= 1, abs(p.lon2 - p.lon1) <= 180 {
                far += 1
                if rejected { rejectedFar += 1 }
            }
        }
        #expect(rejectedFar == far, "\(rejectedFar) of \(far) points beyond twice the radius rejected")
    }

    static func upperBound(_ p: Pair) -> Double {
        GeoDistance.haversineUpperBound(p.lat1, p.lon1, cosLat1: GeoDistance.cosLatitude(p.lat1),
                                        p.lat2, p.lon2, cosLat2: GeoDistance.cosLatitude(p.lat2))
    }

    /// The upper bound is above `km`'s own term (within rounding) at every scale, and gives
    /// none (infinity) for longitudes more than 180° apart.
    @Test(arguments: [8, 9] as [UInt64])
    func upperBoundIsAboveTheHaversineTerm(_ seed: UInt64) {
        let tight = Self.boundOverPairs(seed: seed, shifts: [0.0, 360, -360], bound: Self.upperBound) { p, a, b in
            #expect(b >= a * (1 - 1e-12), "\(p): bound \(b) below \(a)")
            if abs(p.lon2 - p.lon1) > 180 { #expect(b == .infinity, "\(p): a bound across the antimeridian") }
        } tight: { a, b in b < a * 1.01 }
        // Useful as well as safe: within 1 % of the term for most pairs (infinity would pass
        // the test above).
        #expect(tight > 50_000, "\(tight) of 100,000 bounds within 1 %")
    }

    /// Whatever the radius, a point the upper bound accepts is within it by `km` (points at
    /// the radius to the last bit included), and every point within half the radius is
    /// accepted (but across the antimeridian, and for radii over 10,000 km, where a bound near
    /// the poles may be too loose).
    @Test(arguments: [10, 11] as [UInt64])
    func insideTestNeverAcceptsAPointOutOfReach(_ seed: UInt64) {
        var near = 0, acceptedNear = 0
        Self.radiiOverPairs(seed: seed, alsoTimes: [2, 3]) { k, p, d, r in
            let accepted = Self.upperBound(p) <= GeoDistance.insideLimit(radiusKm: r)
            if accepted { #expect(d <= r, "seed \(seed) pair \(k): \(p) at \(d) km accepted for radius \(r)") }
            if r >= 1, r <= 10_000, d < r / 2, abs(p.lon2 - p.lon1) <= 180 {
                near += 1
                if accepted { acceptedNear += 1 }
            }
        }
        #expect(near > 0 && acceptedNear == near, "\(acceptedNear) of \(near) points within half the radius accepted")
    }

    /// `check(pair, km's term, bound)` over 100,000 `pairs`, each also with its second
    /// longitude moved by `shifts` (turns east or west); returns how many unmoved pairs
    /// with a positive term the bound `tight`ly follows.
    static func boundOverPairs(seed: UInt64, shifts: [Double], bound: (Pair) -> Double,
                               check: (Pair, Double, Double) -> Void, tight: (Double, Double) -> Bool) -> Int {
        var count = 0
        for var p in pairs(100_000, seed: seed) {
            for shift in shifts {
                p.lon2 += shift
                let (a, b) = (haversine(p), bound(p))
                check(p, a, b)
                if shift == 0, a > 0, tight(a, b) { count += 1 }
                p.lon2 -= shift
            }
        }
        return count
    }

    /// `body(k, pair, km, radius)` over 50,000 `pairs` and radii from 5 to 20,000 km, the
    /// distance itself and its neighbours to the ulp and to 1e-9, and the distance times
    /// each of `alsoTimes`.
    static func radiiOverPairs(seed: UInt64, alsoTimes: [Double], _ body: (Int, Pair, Double, Double) -> Void) {
        for (k, p) in pairs(50_000, seed: seed).enumerated() {
            let d = exact(p)
            let radii = [5, 50, 200, 20_000, d, d.nextUp, d.nextDown, d * (1 + 1e-9), d * (1 - 1e-9)] + alsoTimes.map { d * $0 }
            for r in radii where r >= 0 { body(k, p, d, r) }
        }
    }

    /// No bound where it would not be safe: radii under a metre and beyond ~19,000 km.
    @Test func noLimitForTinyOrHugeRadii() {
        #expect(GeoDistance.reachLimit(radiusKm: 0) == .infinity)
        #expect(GeoDistance.reachLimit(radiusKm: 0.0005) == .infinity)
        #expect(GeoDistance.reachLimit(radiusKm: 19_200) == .infinity)
        #expect(GeoDistance.reachLimit(radiusKm: 100) < 1e-3)
        #expect(GeoDistance.insideLimit(radiusKm: 0) == -.infinity)
        #expect(GeoDistance.insideLimit(radiusKm: 0.0005) == -.infinity)
        #expect(GeoDistance.insideLimit(radiusKm: 19_200) == -.infinity)
        #expect(GeoDistance.insideLimit(radiusKm: 100) > 0)
    }
}
