import Foundation

/// Great-circle distances (geocoding.md): haversine on a sphere of radius 6371.0088 km.
/// Shared by the pipeline (ranking) and the reader (`nearby`), so both measure alike.
package enum GeoDistance {
    package static let earthRadiusKm = 6371.0088

    @inline(__always)
    package static func km(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r
        let dLon = (lon2 - lon1) * r
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(a)))
    }

    /// cos of a latitude in degrees, exactly as `km` computes it (to precompute per point).
    @inline(__always)
    package static func cosLatitude(_ lat: Double) -> Double { cos(lat * (Double.pi / 180)) }

    /// `km` with both points' `cosLatitude` precomputed: the same operations in the same
    /// order, so the same bits, with two cosines fewer.
    @inline(__always)
    package static func km(_ lat1: Double, _ lon1: Double, cosLat1: Double,
                           _ lat2: Double, _ lon2: Double, cosLat2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r
        let dLon = (lon2 - lon1) * r
        let a = sin(dLat / 2) * sin(dLat / 2) + cosLat1 * cosLat2 * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(a)))
    }

    /// Kilometres per degree of latitude: a great-circle distance is never below
    /// `abs(Δlat) · kmPerDegree`, which rejects far points without trigonometry. The
    /// literal is `earthRadiusKm * (Double.pi / 180)` to the bit (tested): a computed
    /// `static let` is initialised lazily, so every read in the ranker's loops was a call.
    package static let kmPerDegree = 111.1950802335329
}
