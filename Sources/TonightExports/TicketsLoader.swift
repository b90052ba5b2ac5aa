import Foundation
import TonightCore
import TonightGeo

/// What load-tickets produces.
package struct TicketsExport: Sendable {
    package var users: [TicketsUser]
    package var rejects: [ExportReject]
    /// Counted, not rejected: `unknown-artist`, `unknown-event`, `unknown-user`, `duplicate-favorite`, …
    package var counts: [String: Int]
    /// Data rows read per file.
    package var rows: [String: Int]
    package var bytes: Int
}

/// Reads the Tickets Tonight exports (user-data.md): users, favorites, follows, dismissed.
package struct TicketsLoader {
    package var knownArtists: Set<Int64>
    package var knownEvents: Set<UInt64>
    package var maxRejectShare = 0.01
    package var geocoder: Geocoder

    package init(knownArtists: Set<Int64>, knownEvents: Set<UInt64>, geocoder: Geocoder) {
        self.knownArtists = knownArtists
        self.knownEvents = knownEvents
        self.geocoder = geocoder
    }

    package func load(directory dir: URL) throws -> TicketsExport {
        let t0 = Date()
        var rejects: [ExportReject] = []
        var counts: [String: Int] = [:]
        var rows: [String: Int] = [:]
        var bytes = 0

        // users.csv first: it defines who exists.
        let usersFile = try open(dir, "users.csv", optional: false)!
        bytes += usersFile.byteCount
        var users: [TicketsUser] = []
        var index = IDIndex(capacity: usersFile.byteCount / 20)
        var fileRejects: [ExportReject] = []
        let userRows = try usersFile.withRecords(required: ["user_id"]) { reader, cols, _ -> Int in
            var rec = CSVReader.Record()
            var n = 0
            let cId = cols["user_id"]!, cZip = cols["home_zip"], cLat = cols["lat"], cLon = cols["lon"]
            let cRadius = cols["radius_km"], cPrice = cols["max_price"]
            func field(_ c: Int?) -> UnsafeBufferPointer<UInt8> {
                guard let c, c < rec.fields.count else { return UnsafeBufferPointer(start: nil, count: 0) }
                return rec.fields[c]
            }
            while reader.next(into: &rec) {
                n += 1
                func reject(_ reason: String, _ detail: String) {
                    fileRejects.append(ExportReject(file: "users.csv", line: rec.line, reason: reason, detail: detail))
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
                let idBytes = Field.trimmed(field(cId))
                guard index.insert(idBytes) != nil else { reject("duplicate-id", "user_id \(id) appears earlier; the first row is kept"); continue }
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
                        counts["ungeocoded-zip", default: 0] += 1
                    }
                }
                users.append(user)
            }
            return n
        }
        try RejectShare.check(maxRejectShare, stage: "load-tickets", usersFile, rows: userRows, rejects: fileRejects)
        rows["users.csv"] = userRows
        rejects += fileRejects

        let tUsers = Date()
        // favorites, follows, dismissed: pairs (user, value), read on both cores.
        let specs: [(name: String, column: String, optional: Bool)] = [
            ("favorites.csv", "artist_id", false), ("follows.csv", "event_id", false), ("dismissed.csv", "event_id", true),
        ]
        let files = try specs.map { try open(dir, $0.name, optional: $0.optional) }
        let frozenIndex = index
        // Each file is read in two parts on the two cores (favorites is most of the bytes).
        let loaded = try (0..<specs.count).map { i -> PairFile? in
            guard let f = files[i] else { return nil }
            return try PairFile.read(f, valueColumn: specs[i].column, isEvent: specs[i].column == "event_id",
                                     index: frozenIndex, parts: 2)
        }
        let tPairs = Date()
        defer {
            if ProcessInfo.processInfo.environment["TONIGHT_TRACE"] != nil {
                FileHandle.standardError.write(Data("load-tickets trace: users \(tUsers.timeIntervalSince(t0)) pairs \(tPairs.timeIntervalSince(tUsers)) merge \(Date().timeIntervalSince(tPairs))\n".utf8))
            }
        }
        for (i, pf) in loaded.enumerated() {
            guard let pf else { continue }
            bytes += files[i]!.byteCount
            try RejectShare.check(maxRejectShare, stage: "load-tickets", files[i]!, rows: pf.rows, rejects: pf.rejects)
            rows[specs[i].name] = pf.rows
            rejects += pf.rejects
            counts["unknown-user", default: 0] += pf.unknownUsers
            // Grouped by user with a counting sort, then each user's list built at its size.
            var order = [Int32](repeating: 0, count: users.count + 1)
            for (u, _) in pf.pairs { order[Int(u) + 1] += 1 }
            for k in 1..<order.count { order[k] += order[k - 1] }
            var fill = order
            var grouped = [UInt64](repeating: 0, count: pf.pairs.count)
            for (u, v) in pf.pairs {
                grouped[Int(fill[Int(u)])] = v
                fill[Int(u)] += 1
            }
            for u in 0..<users.count {
                let lo = Int(order[u]), hi = Int(order[u + 1])
                guard lo < hi else { continue }
                switch specs[i].name {
                case "favorites.csv":
                    var list: [Int64] = []
                    list.reserveCapacity(hi - lo)
                    for k in lo..<hi {
                        let artist = Int64(bitPattern: grouped[k])
                        guard knownArtists.contains(artist) else { counts["unknown-artist", default: 0] += 1; continue }
                        if list.contains(artist) { counts["duplicate-favorite", default: 0] += 1; continue }
                        list.append(artist)
                    }
                    users[u].favorites = list
                case "follows.csv":
                    var list: [UInt64] = []
                    for k in lo..<hi {
                        let e = grouped[k]
                        if !knownEvents.contains(e) { counts["unknown-event-followed", default: 0] += 1 }
                        if !list.contains(e) { list.append(e) }
                    }
                    users[u].follows = list
                default:
                    var list: [UInt64] = []
                    for k in lo..<hi {
                        let e = grouped[k]
                        guard knownEvents.contains(e) else { counts["unknown-event-dismissed", default: 0] += 1; continue }
                        if !list.contains(e) { list.append(e) }
                    }
                    users[u].dismissed = list
                }
            }
        }
        for (k, v) in counts where v == 0 { counts[k] = nil }
        return TicketsExport(users: users, rejects: rejects, counts: counts, rows: rows, bytes: bytes)
    }

    private func open(_ dir: URL, _ name: String, optional: Bool) throws -> CSVFile? {
        let url = dir.appendingPathComponent(name)
        guard FileIO.exists(url) else {
            if optional { return nil }
            throw TonightError(.invalidInput, "export file \(name) is missing", file: url.path,
                               hint: "the Tickets Tonight export must hold users.csv, favorites.csv and follows.csv")
        }
        return try CSVFile(url)
    }

}
