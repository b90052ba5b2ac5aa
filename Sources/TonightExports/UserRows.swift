import TonightCore
import TonightGeo

/// One part of users.csv, parsed and validated into columns (everything but the duplicate-id
/// rule, which needs the whole file in order).
struct UserRows: Sendable {
    /// Valid rows, in file order: id bytes (as a String would hold them) and their hash.
    var ids = ByteStrings()
    var hashes: [UInt64] = []
    var zips = ByteStrings()
    var lat: [Double] = [], lon: [Double] = [], radiusKm: [Double] = [], maxPrice: [Double] = []
    var location: [TicketsUserTable.Location] = []
    /// The line of each valid row.
    var lines: [Int] = []
    var rejects: [ExportReject] = []
    var rows = 0
    /// Fields read as absent (`NullMarkers`), valid rows or not.
    var nullMarkers = NullMarkers()
    /// Rows whose coordinates are 0, 0 (`NullIsland`), read as none.
    var nullIslands = 0
    /// Budgets written as money (`$1,025.00`, `Field.money`), valid rows or not.
    var moneyPrices = 0

    /// Column positions (-1: the file has no such column).
    struct Columns {
        var id = -1, zip = -1, lat = -1, lon = -1, radius = -1, price = -1
        /// Fields every row must have (the header's).
        var count = 0

        init(_ cols: [String: Int], count: Int) {
            self.count = count
            id = cols["user_id"] ?? -1
            zip = cols["home_zip"] ?? -1
            lat = cols["lat"] ?? -1
            lon = cols["lon"] ?? -1
            radius = cols["radius_km"] ?? -1
            price = cols["max_price"] ?? -1
        }
    }

    init(capacity n: Int) {
        ids.reserve(count: n, bytes: n * 12)
        zips.reserve(count: n, bytes: n * 6)
        for k in [\UserRows.lat, \.lon, \.radiusKm, \.maxPrice] { self[keyPath: k].reserveCapacity(n) }
        hashes.reserveCapacity(n)
        location.reserveCapacity(n)
        lines.reserveCapacity(n)
    }

    /// Appends the valid rows of another part (the next one in the file).
    mutating func append(contentsOf other: UserRows) {
        ids.append(contentsOf: other.ids)
        zips.append(contentsOf: other.zips)
        hashes += other.hashes
        lat += other.lat
        lon += other.lon
        radiusKm += other.radiusKm
        maxPrice += other.maxPrice
        location += other.location
        lines += other.lines
        nullMarkers.merge(other.nullMarkers)
        nullIslands += other.nullIslands
        moneyPrices += other.moneyPrices
    }

    static func read(_ f: CSVFile, part: CSVFile.Part, columns cols: [String: Int]) throws -> UserRows {
        let columns = Columns(cols, count: f.columnCount)
        let capacity = part.range.count / 20
        if !f.containsQuote(in: part.range) {
            var out = UserRows(capacity: capacity)
            if out.readPlain(f, part: part, columns) { return out }
        }
        var out = UserRows(capacity: capacity)
        try f.withRecords(in: part) { reader in
            var rec = CSVReader.Record()
            while reader.next(into: &rec) {
                if let l = rec.runawayQuoteLine { throw f.runawayQuote(line: l) }
                if let e = rec.syntaxError {
                    out.rows += 1
                    out.reject(rec.line, "bad-csv", e)
                    continue
                }
                out.add(line: rec.line, fields: rec.fields, columns)
            }
        }
        return out
    }

    /// The quote-free fast path: fields split at commas, lines at LF (CRLF allowed). Returns
    /// false, having read nothing useful, at a lone CR, which the RFC 4180 reader treats as a
    /// line end: the caller then reads the part with that reader.
    private mutating func readPlain(_ f: CSVFile, part: CSVFile.Part, _ columns: Columns) -> Bool {
        f.withBytes(in: part.range) { b -> Bool in
            var fields: [UnsafeBufferPointer<UInt8>] = []
            fields.reserveCapacity(16)
            let base = b.baseAddress!
            var i = 0
            var line = part.firstLine
            while i < b.count {
                fields.removeAll(keepingCapacity: true)
                var start = i
                var end = i
                while end < b.count {
                    let c = b[end]
                    if c == 0x0A { break }
                    if c == 0x2C {
                        fields.append(UnsafeBufferPointer(start: base + start, count: end - start))
                        start = end + 1
                    } else if c == 0x0D, end + 1 < b.count, b[end + 1] != 0x0A {
                        return false
                    }
                    end += 1
                }
                var stop = end
                if stop > start, b[stop - 1] == 0x0D { stop -= 1 }
                // Blank lines (nothing but a line end) are skipped, as the RFC 4180 reader does.
                if stop > i {
                    fields.append(UnsafeBufferPointer(start: base + start, count: max(0, stop - start)))
                    add(line: line, fields: fields, columns)
                }
                i = end + 1
                line += 1
            }
            return true
        }
    }

    /// `field`, or an empty field for a null marker (counted).
    @inline(__always)
    private mutating func present(_ field: UnsafeBufferPointer<UInt8>, _ column: String, _ line: Int) -> UnsafeBufferPointer<UInt8> {
        guard NullMarkers.isMarker(field) else { return field }
        nullMarkers.note(file: "users.csv", line: line, column: column, field)
        return UnsafeBufferPointer(start: nil, count: 0)
    }

    private mutating func reject(_ line: Int, _ reason: String, _ detail: String) {
        rejects.append(ExportReject(file: "users.csv", line: line, reason: reason, detail: detail))
    }

    /// One record: validated, then appended to the columns or rejected.
    @inline(__always)
    private mutating func add(line: Int, fields: [UnsafeBufferPointer<UInt8>], _ c: Columns) {
        rows += 1
        guard fields.count == c.count else {
            reject(line, "bad-csv", "\(fields.count) fields, the header has \(c.count)")
            return
        }
        func field(_ k: Int) -> UnsafeBufferPointer<UInt8> {
            k >= 0 && k < fields.count ? fields[k] : UnsafeBufferPointer(start: nil, count: 0)
        }
        guard let id = Field.idBytes(field(c.id)) else {
            if Field.isEmpty(field(c.id)) {
                reject(line, "missing-field", "user_id is empty")
            } else {
                reject(line, "bad-id", "user_id '\(TonightError.quoted(Field.trimmed(field(c.id))))' is not 1 to 64 printable characters of valid UTF-8")
            }
            return
        }
        let latField = present(field(c.lat), "lat", line), lonField = present(field(c.lon), "lon", line)
        let radiusField = present(field(c.radius), "radius_km", line), priceField = present(field(c.price), "max_price", line)
        let zipField = present(field(c.zip), "home_zip", line)
        var la = Double.nan, lo = Double.nan
        let hasLat = !Field.isEmpty(latField), hasLon = !Field.isEmpty(lonField)
        if hasLat || hasLon {
            guard hasLat && hasLon, let a = Field.double(latField), let o = Field.double(lonField) else {
                reject(line, "bad-number", "lat and lon must both be numbers")
                return
            }
            guard FieldRanges.latitude.contains(a), FieldRanges.longitude.contains(o) else {
                reject(line, "bad-coordinates", "lat \(a), lon \(o) out of range")
                return
            }
            if NullIsland.holds(a, o) {
                nullIslands += 1
            } else {
                la = a
                lo = o
            }
        }
        var radius = Double.nan
        if !Field.isEmpty(radiusField) {
            guard let r = Field.double(radiusField), r > 0, r <= FieldRanges.radiusKm.upperBound else {
                reject(line, "bad-number", "radius_km must be a number in (0, \(Int(FieldRanges.radiusKm.upperBound))] km (\(Int(GeoGrid.halfCircumferenceKm)) or more reaches everywhere)")
                return
            }
            radius = r
        }
        var price = Double.nan
        if !Field.isEmpty(priceField) {
            var amount = Field.double(priceField)
            if amount == nil, let m = Field.money(priceField) {
                // PostgreSQL's `money` type, a spreadsheet's currency format: before 2026-11-28
                // a `bad-number` reject, and an export of such a column failed the night.
                amount = m
                moneyPrices += 1
            }
            guard let p = amount, FieldRanges.maxPrice.contains(p) else {
                reject(line, "bad-number", "max_price must be a number in [0, \(Int(FieldRanges.maxPrice.upperBound))]")
                return
            }
            price = p
        }
        // Valid: the row is kept.
        if id.ascii {
            ids.append(id.bytes)
            hashes.append(IDIndex.hash(id.bytes))
        } else {
            // What a String holds for these bytes (invalid UTF-8 repaired), as before.
            var s = String(decoding: id.bytes, as: UTF8.self)
            s.withUTF8 {
                ids.append($0)
                hashes.append(IDIndex.hash($0))
            }
        }
        Field.appendText(zipField, to: &zips)
        // Home ZIPs are placed once the rows are interned (`TicketsUserTable.geocode`).
        let place: TicketsUserTable.Location = la.isNaN ? .none : .coordinates
        lat.append(la)
        lon.append(lo)
        radiusKm.append(radius)
        maxPrice.append(price)
        location.append(place)
        lines.append(line)
    }
}
