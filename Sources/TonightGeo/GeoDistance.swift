import Foundation

/// Great-circle distances (geocoding.md): haversine on a sphere of radius 6371.0088 km.
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
}
