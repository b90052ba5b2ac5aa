import TonightBase
import Foundation
import TonightCore

/// Where something is: coordinates, how precisely they were found, and its time zone.
package struct Placement: Sendable, Equatable {
    package enum Precision: String, Sendable {
        case postal, city, region, none
    }

    package var lat: Double?
    package var lon: Double?
    package var precision: Precision
    package var timeZone: String?

    package static let none = Placement(lat: nil, lon: nil, precision: .none, timeZone: nil)

    package init(lat: Double?, lon: Double?, precision: Precision, timeZone: String?) {
        self.lat = lat
        self.lon = lon
        self.precision = precision
        self.timeZone = timeZone
    }
}

/// Offline geocoding from the bundled table, by the precedence of geocoding.md:
/// US ZIP (`postal`), then (city, state/province) among places and their alternate names
/// (`city`), then the state/province centroid (`region`), else `none`.
package final class Geocoder: Sendable {
    /// ZIP code (as a number, 0–99999) → its entry: a flat array, no hashing.
    private let zips: [GeoTable.ZIP?]
    /// (region|normalised name) → the most populous matching place's coordinates and zone.
    private let places: [String: Placement]
    private let regions: [String: Placement]

    package init(table: GeoTable = .bundled) {
        var zips = [GeoTable.ZIP?](repeating: nil, count: 100_000)
        for z in table.zips { if let n = Int(z.zip), n < 100_000 { zips[n] = z } }
        // Indices into `table.places` while the most populous place of each key is found (a
        // `Place` copied into the dictionary retained its five strings and its array).
        var best: [String: Int] = [:]
        best.reserveCapacity(table.places.count * 3)
        var regionKeys: [String: String] = [:]
        for (i, p) in table.places.enumerated() {
            let region: String
            if let r = regionKeys[p.region] { region = r } else {
                region = p.region.uppercased()
                regionKeys[p.region] = region
            }
            func add(_ name: String) {
                let key = PlaceName.key(normalizedCity: PlaceName.normalize(name), upperRegion: region)
                if let old = best[key], table.places[old].population >= p.population { return }
                best[key] = i
            }
            add(p.name)
            for name in p.alternateNames { add(name) }
        }
        // `mapValues` keeps the keys where they are (no second round of hashing).
        let places = best.mapValues { i in
            Placement(lat: table.places[i].lat, lon: table.places[i].lon, precision: .city, timeZone: table.places[i].timeZone)
        }
        var regions: [String: Placement] = [:]
        var byRegion: [String: [Int]] = [:]
        for (i, p) in table.places.enumerated() { byRegion[p.region, default: []].append(i) }
        for r in table.regions {
            // The region's time zone is that of its place nearest to the centroid.
            let nearest = byRegion[r.region]?.min {
                GeoDistance.km(r.lat, r.lon, table.places[$0].lat, table.places[$0].lon)
                    < GeoDistance.km(r.lat, r.lon, table.places[$1].lat, table.places[$1].lon)
            }
            regions[r.region] = Placement(lat: r.lat, lon: r.lon, precision: .region, timeZone: nearest.map { table.places[$0].timeZone })
        }
        self.zips = zips
        self.places = places
        self.regions = regions
    }

    /// The five-digit ZIP of a US code: trimmed; first five digits of ZIP+4 or nine digits.
    package static func zip5(_ raw: String?) -> String? {
        guard var raw else { return nil }
        return raw.withUTF8 { b -> String? in
            guard let at = zip5Start(b) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: b[at..<at + 5]), as: UTF8.self)
        }
    }

    /// Where the five digits of `zip5` start in `b`, or nil when `b` is not a US ZIP.
    static func zip5Start(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var lo = 0
        var hi = b.count
        while lo < hi, b[lo] == 0x20 || b[lo] == 0x09 { lo += 1 }
        while hi > lo, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 { hi -= 1 }
        let n = hi - lo
        func digits(_ from: Int, _ count: Int) -> Bool {
            (from..<from + count).allSatisfy { b[lo + $0] >= 0x30 && b[lo + $0] <= 0x39 }
        }
        guard n >= 5, digits(0, 5) else { return nil }
        let ok = n == 5 || (n == 9 && digits(5, 4)) || (n == 10 && b[lo + 5] == 0x2D && digits(6, 4))
        return ok ? lo : nil
    }

    /// A US ZIP alone (users' home ZIPs): `postal` or `none`.
    package func place(zip: String?) -> Placement {
        guard var zip else { return .none }
        return zip.withUTF8 { place(zipBytes: $0) }
    }

    /// The five-digit ZIP of `b` as a number (0–99999), or nil when `b` is not a US ZIP.
    static func zip5Number(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let at = zip5Start(b) else { return nil }
        var n = 0
        for k in at..<at + 5 { n = n * 10 + Int(b[k] &- 0x30) }
        return n
    }

    /// `place(zip:)` on the ZIP's UTF-8 bytes (the loaders call it per row without a String).
    package func place(zipBytes b: UnsafeBufferPointer<UInt8>) -> Placement {
        guard let n = Self.zip5Number(b), let hit = zips[n] else { return .none }
        return Placement(lat: hit.lat, lon: hit.lon, precision: .postal, timeZone: hit.timeZone)
    }

    /// A venue: country from the feed (`US`, `CA` or nil), city, state/province, ZIP.
    package func place(country: String?, city: String?, state: String?, zip: String?) -> Placement {
        if country == "US" {
            let p = place(zip: zip)
            if p.precision == .postal { return p }
        }
        if let city, let state, let hit = places[PlaceName.key(city: city, region: state.uppercased())] { return hit }
        if let state, let r = regions[state.uppercased()] { return r }
        return .none
    }
}
