import TonightCore
import TonightGeo

/// One part of users.csv, parsed and validated (everything but the duplicate-id rule, which
/// needs the whole file in order).
struct UserRows: Sendable {
    var users: [TicketsUser] = []
    /// The line of each user.
    var lines: [Int] = []
    var rejects: [ExportReject] = []
    var rows = 0
    var ungeocoded = 0

    static func read(_ f: CSVFile, part: CSVFile.Part, columns cols: [String: Int], geocoder: Geocoder) -> UserRows {
        var out = UserRows()
        out.users.reserveCapacity(part.range.count / 22)
        out.lines.reserveCapacity(part.range.count / 22)
        f.withRecords(in: part) { reader in
            var rec = CSVReader.Record()
            let cId = cols["user_id"]!, cZip = cols["home_zip"], cLat = cols["lat"], cLon = cols["lon"]
            let cRadius = cols["radius_km"], cPrice = cols["max_price"]
            func field(_ c: Int?) -> UnsafeBufferPointer<UInt8> {
                guard let c, c < rec.fields.count else { return UnsafeBufferPointer(start: nil, count: 0) }
                return rec.fields[c]
            }
            while reader.next(into: &rec) {
                out.rows += 1
                func reject(_ reason: String, _ detail: String) {
                    out.rejects.append(ExportReject(file: "users.csv", line: rec.line, reason: reason, detail: detail))
                }
                if let e = rec.syntaxError { reject("bad-csv", e); continue }
                guard let id = Field.id(field(cId)) else { reject("missing-field", "user_id is empty or not a valid id"); continue }
                var lat: Double?, lon: Double?
                let hasLat = !Field.isEmpty(field(cLat)), hasLon = !Field.isEmpty(field(cLon))
                if hasLat || hasLon {
                    guard hasLat && hasLon, let la = Field.double(field(cLat)), let lo = Field.double(field(cLon)) else {
                        reject("bad-number", "lat and lon must both be numbers"); continue
                    }
                    guard (-90...90).contains(la), (-180...180).contains(lo) else {
                        reject("bad-coordinates", "lat \(la), lon \(lo) out of range"); continue
                    }
                    lat = la
                    lon = lo
                }
                var radius: Double?
                if !Field.isEmpty(field(cRadius)) {
                    guard let r = Field.double(field(cRadius)), r > 0 else { reject("bad-number", "radius_km must be a positive number"); continue }
                    radius = r
                }
                var price: Double?
                if !Field.isEmpty(field(cPrice)) {
                    guard let p = Field.double(field(cPrice)), p >= 0 else { reject("bad-number", "max_price must be a number >= 0"); continue }
                    price = p
                }
                let zip = Field.text(field(cZip))
                var user = TicketsUser(id: id, homeZip: zip, lat: lat, lon: lon, location: lat != nil ? "coordinates" : "none",
                                       radiusKm: radius, maxPrice: price)
                if lat == nil, zip != nil {
                    let p = geocoder.place(zip: zip)
                    if p.precision == .postal {
                        user.lat = p.lat
                        user.lon = p.lon
                        user.location = "postal"
                    } else {
                        out.ungeocoded += 1
                    }
                }
                out.users.append(user)
                out.lines.append(rec.line)
            }
        }
        return out
    }
}
