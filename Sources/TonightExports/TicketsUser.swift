import TonightCore

/// A Tickets Tonight user with everything the recommendation stage needs (user-data.md).
package struct TicketsUser: Sendable, Equatable, BinaryRecord {
    package var id: String
    package var homeZip: String?
    /// Where the user is: given coordinates win, else the home ZIP's internal point.
    package var lat: Double?
    package var lon: Double?
    /// `coordinates`, `postal` or `none`.
    package var location: String
    package var radiusKm: Double?
    package var maxPrice: Double?
    /// Favourite artists known in the feed, in file order, without repeats.
    package var favorites: [Int64] = []
    /// Followed events, in file order; events that left the feed are kept (removed alerts).
    package var follows: [UInt64] = []
    /// Dismissed explore cards of events in the feed.
    package var dismissed: [UInt64] = []

    package init(id: String, homeZip: String?, lat: Double?, lon: Double?, location: String, radiusKm: Double?, maxPrice: Double?) {
        self.id = id
        self.homeZip = homeZip
        self.lat = lat
        self.lon = lon
        self.location = location
        self.radiusKm = radiusKm
        self.maxPrice = maxPrice
    }

    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        w.write(id)
        w.write(homeZip)
        w.write(lat)
        w.write(lon)
        w.write(location)
        w.write(radiusKm)
        w.write(maxPrice)
        w.write(favorites)
        w.write(UInt64(follows.count))
        for e in follows { w.writeFixed(e) }
        w.write(UInt64(dismissed.count))
        for e in dismissed { w.writeFixed(e) }
    }

    package init(from r: inout BinaryReader) throws {
        self.init(
            id: try r.readString(), homeZip: try r.readOptionalString(), lat: try r.readOptionalDouble(),
            lon: try r.readOptionalDouble(), location: try r.readString(), radiusKm: try r.readOptionalDouble(),
            maxPrice: try r.readOptionalDouble())
        favorites = try r.readInt64Array()
        follows = try (0..<Int(try r.readUInt64())).map { _ in try r.readFixed() }
        dismissed = try (0..<Int(try r.readUInt64())).map { _ in try r.readFixed() }
    }

    package func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.field("key", id)
        w.field("id", id)
        w.field("homeZip", homeZip)
        w.field("lat", lat)
        w.field("lon", lon)
        w.field("location", location)
        w.field("radiusKm", radiusKm)
        w.field("maxPrice", maxPrice)
        w.field("favorites", ints: favorites)
        w.field("follows", strings: follows.map(EventID.format))
        w.field("dismissed", strings: dismissed.map(EventID.format))
        w.endObject()
    }
}

extension TicketsUser {
    /// Only the id and followed events of a `users` row (what alerts need).
    package static func readIDAndFollows(_ r: inout BinaryReader) throws -> (id: String, follows: [UInt64]) {
        let id = try r.readString()
        try r.skipOptionalString()
        _ = try r.readOptionalDouble()
        _ = try r.readOptionalDouble()
        try r.skipString()
        _ = try r.readOptionalDouble()
        _ = try r.readOptionalDouble()
        _ = try r.readInt64Array()
        let n = Int(try r.readUInt64())
        var follows: [UInt64] = []
        follows.reserveCapacity(min(n, 1024))
        for _ in 0..<n { follows.append(try r.readFixed()) }
        let d = Int(try r.readUInt64())
        for _ in 0..<d { _ = try r.readFixed() }
        return (id, follows)
    }
}
