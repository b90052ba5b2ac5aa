import Foundation
import TonightCore

/// The internal points of US ZIP codes, and nothing else: what the loaders need to place
/// users' home ZIPs. Read from the table's `Z` lines alone, it loads in a few milliseconds,
/// where `Geocoder` also indexes 25,000 places under all their names (a fifth of a second
/// that load-tickets would otherwise wait for). Agrees with `Geocoder.place(zip:)` (tested).
package struct ZIPPoints: Sendable {
    /// By ZIP number (0–99999); NaN where the table has no such ZIP.
    private var lat: [Double]
    private var lon: [Double]
    /// The 1° cells (180 × 360, by floor of latitude and longitude) that hold a ZIP point.
    private var cells: [UInt64]

    private init() {
        lat = [Double](repeating: .nan, count: 100_000)
        lon = [Double](repeating: .nan, count: 100_000)
        cells = [UInt64](repeating: 0, count: (180 * 360 + 63) / 64)
    }

    private static func cell(_ lat: Double, _ lon: Double) -> Int? {
        guard lat.isFinite, lon.isFinite else { return nil }
        return cell(row: Int((lat + 90).rounded(.down)), column: Int((lon + 180).rounded(.down)))
    }

    /// Row 0–179 (latitude + 90), column any (longitude + 180, wrapped to 0–359).
    private static func cell(row r: Int, column c: Int) -> Int? {
        guard (0..<180).contains(r) else { return nil }
        return r * 360 + ((c % 360) + 360) % 360
    }

    private mutating func indexCells() {
        for n in 0..<lat.count where !lat[n].isNaN {
            if let k = Self.cell(lat[n], lon[n]) { cells[k >> 6] |= 1 << UInt64(k & 63) }
        }
    }

    @inline(__always) private func occupied(row r: Int, column c: Int) -> Bool {
        guard let k = Self.cell(row: r, column: c) else { return false }
        return cells[k >> 6] & (1 << UInt64(k & 63)) != 0
    }

    /// Whether a US ZIP's point lies in the 1° cell of (lat, lon) or in one beside it (about
    /// 100 to 300 km): a user's given coordinates that are not near any is far from every
    /// Ticketmaster venue the table can place.
    package func isNearAZIP(lat: Double, lon: Double) -> Bool {
        guard lat.isFinite, lon.isFinite else { return false }
        let r = Int((lat + 90).rounded(.down)), c = Int((lon + 180).rounded(.down))
        if occupied(row: r, column: c) { return true }  // nearly every user is in a ZIP's own cell
        for dr in -1...1 {
            for dc in -1...1 where (dr != 0 || dc != 0) && occupied(row: r + dr, column: c + dc) { return true }
        }
        return false
    }

    /// The ZIPs of a loaded table.
    package init(table: GeoTable) {
        self.init()
        for z in table.zips {
            if let n = Int(z.zip), n < 100_000 {
                lat[n] = z.lat
                lon[n] = z.lon
            }
        }
        indexCells()
    }

    /// The ZIPs of a table file, read from its `Z	zip	lat	lon	…` lines.
    package static func load(_ url: URL) throws -> ZIPPoints {
        var points = ZIPPoints()
        let text = try GeoTable.text(url)
        for (k, line) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where line.first == UInt8(ascii: "Z") {
            let f = line.split(separator: UInt8(ascii: "\t"), maxSplits: 4, omittingEmptySubsequences: false)
            guard f.count >= 4, f[1].count == 5, let n = Int(String(decoding: f[1], as: UTF8.self)),
                let la = Double(String(decoding: f[2], as: UTF8.self)), let lo = Double(String(decoding: f[3], as: UTF8.self))
            else {
                throw TonightError(.internal, "corrupt ZIP line in the geocoding table", file: url.path, line: k + 1,
                                   hint: "rebuild the table with scripts/build-geotable.py")
            }
            points.lat[n] = la
            points.lon[n] = lo
        }
        points.indexCells()
        return points
    }

    /// The ZIPs of the table shipped in the package.
    package static func bundled() throws -> ZIPPoints {
        guard let url = GeoTable.bundledURL else {
            throw TonightError(.internal, "bundled geotable.tsv.zst is missing from the package resources")
        }
        return try load(url)
    }

    /// The internal point of a US ZIP (the forms of `Geocoder.zip5`), or nil.
    @inline(__always)
    package func point(zipBytes b: UnsafeBufferPointer<UInt8>) -> (lat: Double, lon: Double)? {
        guard let n = Geocoder.zip5Number(b) else { return nil }
        let la = lat[n]
        return la.isNaN ? nil : (la, lon[n])
    }
}
