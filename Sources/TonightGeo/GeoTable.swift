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

    /// The IANA time zone names a table file uses (the second field of its `T` lines), read
    /// without loading the rest: what the geocode stage's local times depend on.
    /// Every `run` asks (the geocode stage's fingerprint), so the lines are found with
    /// `memchr` and only the `T` lines become values: splitting the 2.8 MB of text into
    /// 59,000 slices first took ~11 ms of a 43 ms start.
    package static func zoneNames(_ url: URL) throws -> [String] {
        let bytes = try text(url)
        var names: [String] = []
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return }
            var at = 0
            while at < b.count {
                var end = b.count
                if let nl = memchr(base + at, 0x0A, b.count - at) {
                    end = UnsafeRawPointer(nl) - UnsafeRawPointer(base)
                }
                // A line whose first field is `T`: its second field, as the loader reads it.
                if end > at && b[at] == UInt8(ascii: "T") && (at + 1 == end || b[at + 1] == 0x09) {
                    let from = min(at + 2, end)
                    let to = b[from..<end].firstIndex(of: 0x09) ?? end
                    names.append(String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self))
                }
                at = end + 1
            }
        }
        return names
    }

    /// Loads a table file (zstd-compressed TSV). Fields are read where they lie in the
    /// decompressed bytes: only the values kept become `String`s (splitting every line into
    /// an array of `String`s was most of the load).
    package static func load(_ url: URL) throws -> GeoTable {
        let bytes = try text(url)
        var zones: [String] = []
        var places: [Place] = []
        var zips: [ZIP] = []
        var regions: [Region] = []
        var provenance: [String] = []
        places.reserveCapacity(32_768)
        zips.reserveCapacity(40_000)
        try bytes.withUnsafeBufferPointer { b in
            var fields: [Range<Int>] = []
            fields.reserveCapacity(16)
            var lineNo = 0
            var at = 0
            while at < b.count {
                var end = at
                while end < b.count && b[end] != 0x0A { end += 1 }
                defer { at = end + 1 }
                lineNo += 1
                guard end > at else { continue }  // an empty line
                fields.removeAll(keepingCapacity: true)
                var from = at
                for k in at..<end where b[k] == 0x09 {
                    fields.append(from..<k)
                    from = k + 1
                }
                fields.append(from..<end)
                func bad() -> TonightError { TonightError(.internal, "corrupt geocoding table", file: url.path, line: lineNo) }
                func string(_ k: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[fields[k]]), as: UTF8.self) }
                func double(_ k: Int) -> Double? { Double(string(k)) }
                func zone(_ k: Int) -> String? {
                    guard let i = Int(string(k)), i >= 0, i < zones.count else { return nil }
                    return zones[i]
                }
                let kind = fields[0].count == 1 ? b[fields[0].lowerBound] : 0
                switch kind {
                case UInt8(ascii: "T"):
                    guard fields.count >= 2 else { throw bad() }
                    zones.append(string(1))
                case UInt8(ascii: "R"):
                    guard fields.count == 5, let la = double(3), let lo = double(4) else { throw bad() }
                    regions.append(Region(country: string(1), region: string(2), lat: la, lon: lo))
                case UInt8(ascii: "P"):
                    guard fields.count == 9, let la = double(4), let lo = double(5), let pop = Int(string(6)), let tz = zone(7)
                    else { throw bad() }
                    var alternates: [String] = []
                    let names = fields[8]
                    if !names.isEmpty {
                        var s = names.lowerBound
                        for k in names where b[k] == UInt8(ascii: "|") {
                            if k > s { alternates.append(String(decoding: UnsafeBufferPointer(rebasing: b[s..<k]), as: UTF8.self)) }
                            s = k + 1
                        }
                        if names.upperBound > s {
                            alternates.append(String(decoding: UnsafeBufferPointer(rebasing: b[s..<names.upperBound]), as: UTF8.self))
                        }
                    }
                    places.append(Place(country: string(1), region: string(2), name: string(3), lat: la, lon: lo,
                                        population: pop, timeZone: tz, alternateNames: alternates))
                case UInt8(ascii: "Z"):
                    guard fields.count == 6, let la = double(2), let lo = double(3), let tz = zone(5) else { throw bad() }
                    zips.append(ZIP(zip: string(1), lat: la, lon: lo, region: string(4), timeZone: tz))
                default:
                    guard !fields[0].isEmpty, b[fields[0].lowerBound] == UInt8(ascii: "#") else { throw bad() }
                    provenance.append((0..<fields.count).map(string).joined(separator: " "))
                }
            }
        }
        return GeoTable(places: places, zips: zips, regions: regions, provenance: provenance)
    }
}
