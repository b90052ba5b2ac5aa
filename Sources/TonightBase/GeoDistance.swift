import Foundation

/// Great-circle distances (geocoding.md): haversine on a sphere of radius 6371.0088 km.
/// Shared by the pipeline (ranking) and the reader (`nearby`), so both measure alike.
///
/// `@usableFromInline`, the ranker's per-date tests `@inlinable`: they run in
/// `TonightRanking`'s loops, millions of times a night, and Swift inlines a `package` type's
/// method into another module only when the type is `@usableFromInline` (ranking-log.md, "The
/// JSON cursor inlined"). The constants are computed properties for the same reason: another
/// module reads a `static let` through a call.
@usableFromInline
package enum GeoDistance {
    @inlinable package static var earthRadiusKm: Double { 6371.0088 }

    @inlinable @inline(__always)
    package static func km(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r
        let dLon = (lon2 - lon1) * r
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(a)))
    }

    /// cos of a latitude in degrees, exactly as `km` computes it (to precompute per point).
    @inlinable @inline(__always)
    package static func cosLatitude(_ lat: Double) -> Double { cos(lat * (Double.pi / 180)) }

    /// `km` with both points' `cosLatitude` precomputed: the same operations in the same
    /// order, so the same bits, with two cosines fewer.
    @inlinable @inline(__always)
    package static func km(_ lat1: Double, _ lon1: Double, cosLat1: Double,
                           _ lat2: Double, _ lon2: Double, cosLat2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r
        let dLon = (lon2 - lon1) * r
        let a = sin(dLat / 2) * sin(dLat / 2) + cosLat1 * cosLat2 * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(a)))
    }

    /// sin and cos of half a point's latitude and longitude in radians, for
    /// `publishedKm` (computed once per point: four calls to libm).
    package static func halfAngles(_ lat: Double, _ lon: Double) -> SIMD4<Double> {
        let r = Double.pi / 180
        return SIMD4(sin(lat * r / 2), cos(lat * r / 2), sin(lon * r / 2), cos(lon * r / 2))
    }

    /// A distance that rounds to the same hundredth of a kilometre as `km(…cosLat…)`, for
    /// distances that are only published (snapshots.md: 2 decimals), without its two sines
    /// per pair. sin(Δφ/2) is sin(φ₂/2)cos(φ₁/2) − cos(φ₂/2)sin(φ₁/2) from each point's
    /// `halfAngles` (likewise for λ), a few ulps of 1 from `km`'s sines, so the haversine
    /// term is off by ~1e-15 and the distance, where asin's slope is at most 10 (a < 0.99,
    /// under ~18,000 km), by ~1e-11 km. Where that could change the hundredth (d·100
    /// within 1e-6 of a half) or near the antipode, `km` itself is returned.
    @inlinable @inline(__always)
    package static func publishedKm(_ lat1: Double, _ lon1: Double, cosLat1: Double, half1: SIMD4<Double>,
                                    _ lat2: Double, _ lon2: Double, cosLat2: Double, half2: SIMD4<Double>) -> Double {
        publishedKmWhenClear(cosLat1: cosLat1, half1: half1, cosLat2: cosLat2, half2: half2)
            ?? km(lat1, lon1, cosLat1: cosLat1, lat2, lon2, cosLat2: cosLat2)
    }

    /// `publishedKm` from the points' cosines and half angles alone; nil where it would
    /// return `km` (the hundredth in doubt, or near the antipode), which needs the degrees.
    @inlinable @inline(__always)
    package static func publishedKmWhenClear(cosLat1: Double, half1: SIMD4<Double>, cosLat2: Double, half2: SIMD4<Double>) -> Double? {
        let sLat = half2[0] * half1[1] - half2[1] * half1[0]
        let sLon = half2[2] * half1[3] - half2[3] * half1[2]
        let a = sLat * sLat + cosLat1 * cosLat2 * sLon * sLon
        if a < 0.99 {
            let d = 2 * earthRadiusKm * asin(min(1, sqrt(a)))
            let scaled = d * 100
            if abs(scaled - scaled.rounded(.down) - 0.5) > 1e-6 { return d }
        }
        return nil
    }

    /// A lower bound of haversine's term `a` (`km` returns 2R·asin(√a)), without libm:
    /// sin x ≥ x − x³/6 on [0, π/2], from the same half-differences `km` takes the sines of
    /// (the same floating-point values). A longitude difference above 180° gives no bound:
    /// there `km`'s sine is of an angle near π, where its own rounding can be larger than the
    /// margin below (pairs across the antimeridian are left to `km`). With latitudes in
    /// [-90, 90] (the loaders' and the geocoding table's guarantee) the result never exceeds
    /// the `a` that `km` computes by more than a few ulps: `reachLimit` adds the margin that
    /// makes the test exact.
    @inlinable @inline(__always)
    package static func haversineLowerBound(_ lat1: Double, _ lon1: Double, cosLat1: Double,
                                            _ lat2: Double, _ lon2: Double, cosLat2: Double) -> Double {
        let halfRadian = Double.pi / 360
        let hLat = min(abs(lat2 - lat1), 180) * halfRadian
        let dLon = abs(lon2 - lon1)
        let hLon = dLon <= 180 ? dLon * halfRadian : 0
        let sLat = hLat - hLat * hLat * hLat / 6
        let sLon = hLon - hLon * hLon * hLon / 6
        return sLat * sLat + max(0, cosLat1 * cosLat2) * sLon * sLon
    }

    /// The value of `haversineLowerBound` above which a point is surely farther than
    /// `radiusKm` by `km` (sin² of the radius's half angle, plus a relative margin of 1e-9,
    /// far above the few ulps of either computation); infinity where no bound is safe to use
    /// (radii under a metre, or beyond ~19,000 km).
    package static func reachLimit(radiusKm: Double) -> Double {
        let half = radiusKm / (2 * earthRadiusKm)
        guard radiusKm >= 0.001, half < 1.5 else { return .infinity }
        let s = sin(half)
        return s * s * (1 + 1e-9)
    }

    /// An upper bound of haversine's term `a` (`km` returns 2R·asin(√a)), without libm:
    /// sin x ≤ x for x ≥ 0, on the same half-differences as `haversineLowerBound`. Infinity
    /// where the longitudes are more than 180° apart (`km`'s sine of an angle near π is
    /// left to `km`, as there). With latitudes in [-90, 90] the result is never below the `a`
    /// that `km` computes by more than a few ulps: `insideLimit` takes off the margin that
    /// makes the test exact.
    @inlinable @inline(__always)
    package static func haversineUpperBound(_ lat1: Double, _ lon1: Double, cosLat1: Double,
                                            _ lat2: Double, _ lon2: Double, cosLat2: Double) -> Double {
        let halfRadian = Double.pi / 360
        let dLon = abs(lon2 - lon1)
        guard dLon <= 180 else { return .infinity }
        let hLat = abs(lat2 - lat1) * halfRadian
        let hLon = dLon * halfRadian
        return hLat * hLat + max(0, cosLat1 * cosLat2) * hLon * hLon
    }

    /// The value of `haversineUpperBound` at or below which a point is surely within
    /// `radiusKm` by `km` (sin² of the radius's half angle, less a relative margin of 1e-9,
    /// far above the few ulps of either computation); -infinity where no bound is safe to
    /// use (radii under a metre, or beyond ~19,000 km).
    package static func insideLimit(radiusKm: Double) -> Double {
        let half = radiusKm / (2 * earthRadiusKm)
        guard radiusKm >= 0.001, half < 1.5 else { return -.infinity }
        let s = sin(half)
        return s * s * (1 - 1e-9)
    }

    /// Kilometres per degree of latitude: a great-circle distance is never below
    /// `abs(Δlat) · kmPerDegree`, which rejects far points without trigonometry. The
    /// literal is `earthRadiusKm * (Double.pi / 180)` to the bit (tested): a computed
    /// `static let` is initialised lazily, and another module reads any `static let` through
    /// a call, so every read in the ranker's loops was one.
    @inlinable package static var kmPerDegree: Double { 111.1950802335329 }

    /// The extent of the circle of `radiusKm` around a point of latitude `lat`, in degrees:
    /// `dLat` north and south, `dLon` east and west (nil when the circle holds a pole or
    /// reaches a quarter of the way round: every longitude). Exact on the distance sphere
    /// (the meridians tangent to the circle are `asin(sin δ / cos φ)` away), widened by 1e-9°
    /// for rounding. `GeoGrid.span` (the ranker's 1° cells) and `Geohash.cells` (the reader's
    /// map lookups) both cover this box.
    package static func circleExtent(lat: Double, radiusKm: Double) -> (dLat: Double, dLon: Double?) {
        let angle = min(max(0, radiusKm), Double.pi * earthRadiusKm) / earthRadiusKm  // radians
        let dLat = angle * 180 / .pi + 1e-9
        if lat + dLat >= 90 || lat - dLat <= -90 || angle >= .pi / 2 { return (dLat, nil) }
        let s = sin(angle) / cos(lat * .pi / 180)
        guard s < 1 else { return (dLat, nil) }
        return (dLat, asin(s) * 180 / .pi + 1e-9)
    }
}
