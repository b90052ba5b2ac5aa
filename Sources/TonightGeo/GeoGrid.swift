import TonightBase
import Foundation

/// Cells of 1° of latitude by 1° of longitude, the spatial index of both rankers: events
/// and sessions are listed per cell, and a search reads the cells a circle can touch.
package enum GeoGrid {
    /// Half the circumference of the distance sphere: no two points are farther apart, so a
    /// radius this large or larger reaches everywhere.
    package static let halfCircumferenceKm = Double.pi * GeoDistance.earthRadiusKm

    /// The cell of a point (latitude in [-90, 90], longitude in [-180, 180]).
    @inline(__always)
    package static func cell(_ lat: Double, _ lon: Double) -> Int64 {
        let y = min(89, max(-90, floor(lat)))
        var x = floor(lon)
        if x >= 180 { x -= 360 } else if x < -180 { x += 360 }
        return Int64(y + 90) * 1000 + Int64(x + 180)
    }

    /// The cells a circle may touch: a band of rows and one or two runs of columns (two when
    /// it crosses the antimeridian). A superset: callers check the exact distance.
    package struct Span: Sendable, Equatable {
        /// Rows as whole degrees of latitude (-90…89).
        package var rows: ClosedRange<Int>
        /// Columns as whole degrees of longitude (-180…179).
        package var columns: [ClosedRange<Int>]

        /// How many cells.
        package var count: Int { rows.count * columns.reduce(0) { $0 + $1.count } }

        /// Whether the span is every cell of its rows (a radius reaching a pole, or half-way round).
        package var allColumns: Bool { columns == [-180...179] }

        /// Whether cell `c` (`GeoGrid.cell`) is in the span.
        @inline(__always)
        package func contains(_ c: Int64) -> Bool {
            let y = Int(c / 1000) - 90, x = Int(c % 1000) - 180
            return rows.contains(y) && columns.contains { $0.contains(x) }
        }

        /// Calls `body` with the position in `keys` (sorted, unique cell keys: the cells that
        /// hold something) of every cell of the span among them, in key order. Scans `keys`
        /// when the span is the larger, else looks each cell of the span up: either way the
        /// cost is bounded by the smaller of the two.
        package func forEachIndex(in keys: [Int64], _ body: (Int) -> Void) {
            if count >= keys.count {
                for (i, k) in keys.enumerated() where contains(k) { body(i) }
                return
            }
            var found: [Int] = []
            forEach { c in
                var lo = 0, hi = keys.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if keys[mid] < c { lo = mid + 1 } else { hi = mid }
                }
                if lo < keys.count && keys[lo] == c { found.append(lo) }
            }
            for i in found.sorted() { body(i) }
        }

        /// Calls `body` once with every cell of the span.
        package func forEach(_ body: (Int64) -> Void) {
            for y in rows {
                for run in columns {
                    for x in run { body(Int64(y + 90) * 1000 + Int64(x + 180)) }
                }
            }
        }
    }

    /// The span of a circle of `radiusKm` around the point; bounded whatever the radius (at
    /// most 180 × 360 cells). Nil for a non-finite point or a negative radius.
    package static func span(lat: Double, lon: Double, radiusKm: Double) -> Span? {
        guard radiusKm >= 0, lat.isFinite, lon.isFinite else { return nil }
        let (dLat, extent) = GeoDistance.circleExtent(lat: lat, radiusKm: radiusKm)
        let y0 = Int(max(-90, floor(lat - dLat))), y1 = Int(min(89, floor(lat + dLat)))
        guard y0 <= y1 else { return nil }
        let all = Span(rows: y0...y1, columns: [-180...179])
        // Holding a pole, or reaching a quarter of the way round: every longitude.
        guard let dLon = extent else { return all }
        let x0 = Int(floor(lon - dLon)), x1 = Int(floor(lon + dLon))
        if x1 - x0 + 1 >= 360 { return all }
        if x0 < -180 { return Span(rows: y0...y1, columns: [(x0 + 360)...179, -180...x1]) }
        if x1 >= 180 { return Span(rows: y0...y1, columns: [x0...179, -180...(x1 - 360)]) }
        return Span(rows: y0...y1, columns: [x0...x1])
    }
}
