import Foundation
import Testing
import TonightBase
import TonightGenerator

/// `Geohash.cells` (the reader's `nearby` and `openSessions(lat:lon:radiusKm:)` read the
/// cells it lists) must list the cell of every point within the radius, by `GeoDistance.km`:
/// a cell left out is a venue or a session the map never shows. Points are drawn on the
/// circle's edge (just inside it) and within it, around centres anywhere: cities, the
/// equator, beside the antimeridian, near and at the poles, for radii from 10 m to 200 km
/// (cells of 4 characters everywhere, of 5 away from the poles, where a circle holding the
/// pole takes every longitude: hundreds of thousands of cells).
@Suite struct GeohashCoverTests {
    /// The point `distanceKm` from (lat, lon) along `bearing` (radians), on the distance sphere.
    static func destination(_ lat: Double, _ lon: Double, bearing: Double, distanceKm: Double) -> (Double, Double) {
        let d = distanceKm / GeoDistance.earthRadiusKm, r = Double.pi / 180
        let φ1 = lat * r, λ1 = lon * r
        let φ2 = asin(sin(φ1) * cos(d) + cos(φ1) * sin(d) * cos(bearing))
        let λ2 = λ1 + atan2(sin(bearing) * sin(d) * cos(φ1), cos(d) - sin(φ1) * sin(φ2))
        var lon2 = λ2 / r
        while lon2 >= 180 { lon2 -= 360 }
        while lon2 < -180 { lon2 += 360 }
        return (min(90, max(-90, φ2 / r)), lon2)
    }

    static let centres: [(Double, Double)] = [
        (40.7505, -73.9934), (18.4655, -66.1057), (64.8378, -147.7164), (0, 0), (0.01, 179.99), (-33.87, 151.21),
        (52, 179.95), (52, -179.95), (89.5, 10), (-89.9, -120), (90, 0), (45, -180), (82.5, -62.3),
    ]

    @Test(arguments: [0.01, 0.5, 5, 30, 80, 200])
    func everyPointWithinTheRadiusIsInACell(_ radiusKm: Double) {
        var random = SplitMix64(seed: UInt64(radiusKm * 1000))
        var missed: [String] = [], checked = 0
        for (lat, lon) in Self.centres {
            for length in abs(lat) < 80 && radiusKm <= 80 ? [4, 5] : [4] {
                let cells = Set(Geohash.cells(lat: lat, lon: lon, radiusKm: radiusKm, length: length))
                for k in 0..<600 {
                    let bearing = Double(random.next() % 1_000_000) / 1_000_000 * 2 * .pi
                    // Half the points just inside the edge, half anywhere inside.
                    let fraction = k % 2 == 0 ? 1 - 1e-7 : Double(random.next() % 1_000_000) / 1_000_000
                    let (plat, plon) = Self.destination(lat, lon, bearing: bearing, distanceKm: radiusKm * fraction)
                    guard GeoDistance.km(lat, lon, plat, plon) <= radiusKm else { continue }
                    checked += 1
                    if !cells.contains(Geohash.encode(lat: plat, lon: plon, length: length)) {
                        missed.append("(\(lat), \(lon)) r \(radiusKm) length \(length): (\(plat), \(plon))")
                    }
                }
            }
        }
        #expect(checked >= 7_800)
        #expect(missed.isEmpty, "\(missed.count) points missed, e.g. \(missed.prefix(5))")
    }

    /// The case the old box missed away from the poles: at the equator, a point due east just
    /// inside 30 km, across a cell's edge that the box (111.32 km per degree) stopped short of.
    @Test func aPointDueEastJustInsideTheRadius() {
        let width = Geohash.cellSize(length: 4).lon, radius = 30.0
        let reach = asin(sin(radius / GeoDistance.earthRadiusKm)) * 180 / .pi  // the circle's extent east
        let lon = width - reach + 0.0002  // the cell edge at `width` lies 0.0002° inside the circle
        let point = (0.0, lon + reach - 0.0001)
        #expect(GeoDistance.km(0, lon, point.0, point.1) <= radius)
        #expect(radius / (111.320 * cos(0.0)) < width - lon)  // the old box's east edge was short of the cell
        let cells = Geohash.cells(lat: 0, lon: lon, radiusKm: radius, length: 4)
        #expect(cells.contains(Geohash.encode(lat: point.0, lon: point.1, length: 4)))
    }
}
