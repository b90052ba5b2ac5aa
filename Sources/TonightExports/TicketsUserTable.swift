import Dispatch
import Foundation
import TonightBase
import TonightCore
import TonightGeo

/// Every loaded Tickets Tonight user, column by column: what load-tickets builds and writes as
/// the `users` table.
///
/// A million `TicketsUser` values cost three strings and three arrays each (six million
/// allocations to make and free); the columns here are a few dozen flat arrays. The table
/// writes exactly the bytes `TicketsUser.encode` writes (a test compares them), so the
/// `users` table keeps its format and readers keep reading `TicketsUser`.
package struct TicketsUserTable: Sendable {
    /// User ids in row order (row `i` is id `i` of the index).
    var ids: IDIndex
    /// Cleaned home ZIPs (empty: none).
    var zips = ByteStrings()
    /// Coordinates, radius and budget; NaN where absent (the loader never stores a NaN).
    var lat: [Double] = [], lon: [Double] = [], radiusKm: [Double] = [], maxPrice: [Double] = []
    var location: [Location] = []
    /// Per-user lists, filled by the pair files.
    var favorites = UserLists(), follows = UserLists(), dismissed = UserLists()

    /// How a user is placed (`TicketsUser.location`).
    enum Location: UInt8, Sendable {
        case none, coordinates, postal

        var text: String {
            switch self {
            case .none: "none"
            case .coordinates: "coordinates"
            case .postal: "postal"
            }
        }
    }

    /// How many users.
    package var count: Int { location.count }

    /// User `i` as a value (for tests and small tables; the stage writes the columns directly).
    package func user(at i: Int) -> TicketsUser {
        var u = TicketsUser(
            id: ids.withBytes(of: i) { String(decoding: $0, as: UTF8.self) },
            homeZip: zips.isEmpty(i) ? nil : zips.withBytes(of: i) { String(decoding: $0, as: UTF8.self) },
            lat: Self.optional(lat[i]), lon: Self.optional(lon[i]), location: location[i].text,
            radiusKm: Self.optional(radiusKm[i]), maxPrice: Self.optional(maxPrice[i]))
        u.favorites = favorites.list(i).map { Int64(bitPattern: $0) }
        u.follows = Array(follows.list(i))
        u.dismissed = Array(dismissed.list(i))
        return u
    }

    /// Every user as a value.
    package var records: [TicketsUser] { (0..<count).map(user(at:)) }

    @inline(__always) static func optional(_ v: Double) -> Double? { v.isNaN ? nil : v }

    /// Writes user `i` exactly as `TicketsUser.encode` does.
    @inline(__always)
    func encode(_ i: Int, to c: inout RawCursor) {
        ids.withBytes(of: i) { c.writeBytes($0) }
        if zips.isEmpty(i) {
            c.write(false)
        } else {
            c.write(true)
            zips.withBytes(of: i) { c.writeBytes($0) }
        }
        c.write(Self.optional(lat[i]))
        c.write(Self.optional(lon[i]))
        switch location[i] {
        case .none: c.writeText("none")
        case .coordinates: c.writeText("coordinates")
        case .postal: c.writeText("postal")
        }
        c.write(Self.optional(radiusKm[i]))
        c.write(Self.optional(maxPrice[i]))
        favorites.withList(i) { list in
            c.write(UInt64(list.count))
            for v in list { c.write(Int64(bitPattern: v)) }
        }
        follows.withList(i) { list in
            c.write(UInt64(list.count))
            for v in list { c.writeFixed(v) }
        }
        dismissed.withList(i) { list in
            c.write(UInt64(list.count))
            for v in list { c.writeFixed(v) }
        }
    }

    /// The most bytes `encode` writes for user `i`: varints of at most 10 bytes, doubles of 9,
    /// the longest location text.
    @inline(__always)
    func encodedBound(_ i: Int) -> Int {
        let lists = favorites.count(i) * 10 + (follows.count(i) + dismissed.count(i)) * 8
        return 110 + ids.withBytes(of: i) { $0.count } + zips.withBytes(of: i) { $0.count } + lists
    }

    /// Writes the table as the `users` binary table (rows encoded on both cores).
    package func write(to url: URL) throws {
        try BinaryTable.write(TicketsUser.self, count: count, table: "users", to: url) { range, w in
            w.binary.appendRaw(max: range.reduce(0) { $0 + encodedBound($1) }) { c in
                for i in range { encode(i, to: &c) }
            }
        }
    }

    /// What `geocode` found wrong with the users' places, for the load's warnings.
    struct PlaceFaults {
        /// Home ZIPs that are not US ZIPs of the table (`ungeocoded-zip`).
        var unplacedZIPs = 0
        /// Users whose ZIP is one with its leading zeros lost (`zip-leading-zeros-lost`).
        var zerosLost: [Int] = []
        /// Users who give coordinates far from every US ZIP that are near one with latitude
        /// and longitude swapped (`coordinates-swapped`: an exporter that wrote them the wrong
        /// way round puts the eastern US in Antarctica; the western half is out of range, a
        /// reject). Counted, not repaired: which rows are wrong is a guess.
        var swapped: [Int] = []
        /// Home ZIPs written as floats and placed by their digits (`zip-as-decimal`).
        var decimalZIPs = 0
    }

    /// Places users without coordinates at their home ZIP's internal point (`postal`), and
    /// looks for the faults of `PlaceFaults`, in one pass on all cores.
    mutating func geocode(with points: ZIPPoints) -> PlaceFaults {
        let n = count
        let zips = self.zips
        let parts = max(1, min(Parallel.width, n))
        let found = try! Parallel.writing(into: &lat, &lon, &location, parts: parts) { p, lat, lon, location in
            var faults = PlaceFaults()
            for i in Parallel.range(p, of: parts, in: n) {
                switch location[i] {
                case .coordinates:
                    let la = lat[i], lo = lon[i]
                    if abs(lo) <= 90 && !points.isNearAZIP(lat: la, lon: lo) && points.isNearAZIP(lat: lo, lon: la) {
                        faults.swapped.append(i)
                    }
                case .none where !zips.isEmpty(i):
                    let (point, decimal) = zips.withBytes(of: i) { b -> ((lat: Double, lon: Double)?, Bool) in
                        if let p = points.point(zipBytes: b) { return (p, false) }
                        guard let digits = Self.decimalZIP(b) else { return (nil, false) }
                        return (points.point(zipBytes: digits), true)
                    }
                    if let point {
                        lat[i] = point.lat
                        lon[i] = point.lon
                        location[i] = .postal
                        if decimal { faults.decimalZIPs += 1 }
                    } else {
                        faults.unplacedZIPs += 1
                        if zips.withBytes(of: i, { Self.lostLeadingZeros(Self.decimalZIP($0) ?? $0, in: points) }) { faults.zerosLost.append(i) }
                    }
                default:
                    break
                }
            }
            return faults
        }
        return PlaceFaults(unplacedZIPs: found.reduce(0) { $0 + $1.unplacedZIPs }, zerosLost: found.flatMap(\.zerosLost),
                           swapped: found.flatMap(\.swapped), decimalZIPs: found.reduce(0) { $0 + $1.decimalZIPs })
    }

    /// User `i` for a report: the id quoted (it may hold anything printable) and what is shown
    /// of the row, for the examples of a warning.
    func example(_ i: Int, showing what: String) -> String {
        ids.withBytes(of: i) { TonightError.quoted($0, limit: 64) } + " (\(what))"
    }

    /// User `i`'s home ZIP as given.
    func homeZip(_ i: Int) -> String {
        zips.withBytes(of: i) { TonightError.quoted($0, limit: 16) }
    }

    /// The digits of a home ZIP written as a float (`10007.0`, `2134.0`: pandas writes a ZIP
    /// column that has a blank as floats), or nil. Before 2026-11-28 every such user was
    /// unplaced (`ungeocoded-zip`), so every event was in their reach.
    static func decimalZIP(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let t = Field.trimmed(b)
        guard let point = t.firstIndex(of: 0x2E), point > 0, point + 1 < t.count, t[..<point].allSatisfy({ $0 &- 0x30 < 10 }),
              t[(point + 1)...].allSatisfy({ $0 == 0x30 }) else { return nil }
        return UnsafeBufferPointer(rebasing: t[..<point])
    }

    /// Whether a home ZIP that is not a ZIP is one with its leading zeros lost, as a
    /// spreadsheet that read the column as numbers writes it: 3 or 4 digits that are a ZIP of
    /// the table padded to five, 7 or 8 that are a nine-digit code padded to nine. The user
    /// stays unplaced (geocoding.md: leading zeros kept); the count tells the export's fault.
    static func lostLeadingZeros(_ b: UnsafeBufferPointer<UInt8>, in points: ZIPPoints) -> Bool {
        let t = Field.trimmed(b)
        guard [3, 4, 7, 8].contains(t.count), t.allSatisfy({ $0 &- 0x30 < 10 }) else { return false }
        let padded = [UInt8](repeating: UInt8(ascii: "0"), count: (t.count <= 4 ? 5 : 9) - t.count) + Array(t)
        return padded.withUnsafeBufferPointer { points.point(zipBytes: $0) } != nil
    }

}
