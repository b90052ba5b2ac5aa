import Foundation
import TonightCore

/// The bundled geocoding table (built by `scripts/build-geotable.py` from the Census ZCTA
/// gazetteer and GeoNames cities500; see the README for sources and attribution).
package final class GeoTable: Sendable {
    /// A GeoNames place of the US, PR or Canada.
    package struct Place: Sendable {
        package var country: String
        package var region: String
        package var name: String
        package var lat: Double
        package var lon: Double
        package var population: Int
        package var timeZone: String
        package var alternateNames: [String]
    }

    /// A US ZIP code area's internal point, its region and time zone.
    package struct ZIP: Sendable {
        package var zip: String
        package var lat: Double
        package var lon: Double
        package var region: String
        package var timeZone: String
    }

    /// A state or province: population-weighted centroid of its places.
    package struct Region: Sendable {
        package var country: String
        package var region: String
        package var lat: Double
        package var lon: Double
    }

    package let places: [Place]
    package let zips: [ZIP]
    package let regions: [Region]
    /// `#source` and `#attribution` lines of the table.
    package let provenance: [String]

    package init(places: [Place], zips: [ZIP], regions: [Region], provenance: [String]) {
        self.places = places
        self.zips = zips
        self.regions = regions
        self.provenance = provenance
    }

    /// The file of the table shipped in the package.
    package static var bundledURL: URL? { Bundle.module.url(forResource: "geotable.tsv", withExtension: "zst") }

    /// The table shipped in the package.
    package static let bundled: GeoTable = {
        do {
            guard let url = bundledURL else {
                throw TonightError(.internal, "bundled geotable.tsv.zst is missing from the package resources")
            }
            return try load(url)
        } catch {
            fatalError("cannot load the bundled geocoding table: \(error)")
        }
    }()

    /// The decompressed text of a table file.
    static func text(_ url: URL) throws -> [UInt8] {
        let source = try InputStreams.open(url, limits: InputLimits())
        var bytes: [UInt8] = []
        let buf = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buf.deallocate() }
        while true {
            let n = try source.read(into: buf)
            if n == 0 { break }
            bytes.append(contentsOf: buf[0..<n])
        }
        return bytes
    }

    /// The IANA time zone names a table file uses (its `T` lines), read without loading
    /// the rest: what the geocode stage's local times depend on.
    package static func zoneNames(_ url: URL) throws -> [String] {
        try text(url).split(separator: UInt8(ascii: "\n")).filter { $0.first == UInt8(ascii: "T") }.map { line in
            String(decoding: line.dropFirst(2), as: UTF8.self)
        }
    }

    /// Loads a table file (zstd-compressed TSV).
    package static func load(_ url: URL) throws -> GeoTable {
        let bytes = try text(url)
        var zones: [String] = []
        var places: [Place] = []
        var zips: [ZIP] = []
        var regions: [Region] = []
        var provenance: [String] = []
        var lineNo = 0
        for lineBytes in bytes.split(separator: UInt8(ascii: "\n")) {
            lineNo += 1
            let f = lineBytes.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            func bad() -> TonightError { TonightError(.internal, "corrupt geocoding table", file: url.path, line: lineNo) }
            switch f[0] {
            case "T":
                zones.append(f[1])
            case "R":
                guard f.count == 5, let la = Double(f[3]), let lo = Double(f[4]) else { throw bad() }
                regions.append(Region(country: f[1], region: f[2], lat: la, lon: lo))
            case "P":
                guard f.count == 9, let la = Double(f[4]), let lo = Double(f[5]), let pop = Int(f[6]),
                    let tz = Int(f[7]), tz < zones.count
                else { throw bad() }
                places.append(
                    Place(country: f[1], region: f[2], name: f[3], lat: la, lon: lo, population: pop,
                          timeZone: zones[tz], alternateNames: f[8].isEmpty ? [] : f[8].split(separator: "|").map(String.init)))
            case "Z":
                guard f.count == 6, let la = Double(f[2]), let lo = Double(f[3]), let tz = Int(f[5]), tz < zones.count
                else { throw bad() }
                zips.append(ZIP(zip: f[1], lat: la, lon: lo, region: f[4], timeZone: zones[tz]))
            default:
                if f[0].hasPrefix("#") { provenance.append(f.joined(separator: " ")) } else { throw bad() }
            }
        }
        return GeoTable(places: places, zips: zips, regions: regions, provenance: provenance)
    }
}
