import Foundation

/// Geohash cells (base-32, longitude bit first), for the `nearby` dataset.
package enum Geohash {
    private static let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// Whether `bytes` are a cell: 1…12 characters of the geohash alphabet.
    package static func isCell(_ bytes: some Collection<UInt8>) -> Bool {
        (1...12).contains(bytes.count) && bytes.allSatisfy { alphabet.contains($0) }
    }

    /// The cell of precision `length` holding the point.
    package static func encode(lat: Double, lon: Double, length: Int) -> String {
        var latRange = (-90.0, 90.0), lonRange = (-180.0, 180.0)
        var out: [UInt8] = []
        var bit = 0, value = 0, even = true
        while out.count < length {
            if even {
                let mid = (lonRange.0 + lonRange.1) / 2
                if lon >= mid { value = value << 1 | 1; lonRange.0 = mid } else { value <<= 1; lonRange.1 = mid }
            } else {
                let mid = (latRange.0 + latRange.1) / 2
                if lat >= mid { value = value << 1 | 1; latRange.0 = mid } else { value <<= 1; latRange.1 = mid }
            }
            even.toggle()
            bit += 1
            if bit == 5 {
                out.append(alphabet[value])
                bit = 0
                value = 0
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Cell height and width in degrees at `length`.
    package static func cellSize(length: Int) -> (lat: Double, lon: Double) {
        let bits = length * 5
        let lonBits = (bits + 1) / 2, latBits = bits / 2
        return (180 / Double(1 << latBits), 360 / Double(1 << lonBits))
    }

    /// At least as many as the cells `cells(lat:lon:radiusKm:length:)` lists for the circle
    /// (its box's rows times columns, plus one of each for the edges), without listing them:
    /// the reader compares it with a dataset's size before choosing cells or a scan.
    package static func cellCountBound(lat: Double, radiusKm: Double, length: Int) -> Double {
        let size = cellSize(length: length)
        let (dLat, extent) = GeoDistance.circleExtent(lat: lat, radiusKm: radiusKm)
        let rows = (min(90, lat + dLat) - max(-90, lat - dLat)) / size.lat + 2
        let columns = min(2 * (extent ?? 180), 360) / size.lon + 2
        return rows * columns
    }

    /// Every cell of precision `length` that meets the circle of `radiusKm` around the point
    /// (a superset: the cells of its bounding box, `GeoDistance.circleExtent`), sorted.
    ///
    /// Until 2026-11-27 the box was estimated with 111.0 km per degree of latitude and
    /// 111.32 km per degree of longitude at the circle's widest latitude (cosine at least
    /// 0.01): on the 6371.0088 km sphere a degree is 111.195 km, so the box fell short by a
    /// few metres in longitude for small radii, and a circle holding a pole got a fraction of
    /// the longitudes (`GeohashCoverTests`: points missed near both poles).
    package static func cells(lat: Double, lon: Double, radiusKm: Double, length: Int) -> [String] {
        guard lat.isFinite, lon.isFinite else { return [] }
        let size = cellSize(length: length)
        let (dLat, extent) = GeoDistance.circleExtent(lat: lat, radiusKm: radiusKm)
        let latMin = max(-90, lat - dLat), latMax = min(90, lat + dLat)
        let dLon = extent ?? 180
        var cells = Set<String>()
        var y = latMin
        while true {
            var x = lon - dLon
            while true {
                let wrapped = x < -180 ? x + 360 : (x >= 180 ? x - 360 : x)
                cells.insert(encode(lat: y, lon: wrapped, length: length))
                if x >= lon + dLon { break }
                x = min(x + size.lon / 2, lon + dLon)
            }
            if y >= latMax { break }
            y = min(y + size.lat / 2, latMax)
        }
        return cells.sorted()
    }
}
