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

    /// The one declaration of the `users` table's fields (`TicketsUserTable.encode` writes the
    /// same bytes from columns, tested).
    package func encode(to e: inout RecordEncoder) {
        e.key(id)
        e.field("id", id)
        e.field("homeZip", homeZip)
        e.field("lat", lat)
        e.field("lon", lon)
        e.field("location", location)
        e.field("radiusKm", radiusKm)
        e.field("maxPrice", maxPrice)
        e.field("favorites", favorites)
        e.eventIDs("follows", follows)
        e.eventIDs("dismissed", dismissed)
    }

    package init(from r: inout BinaryReader) throws {
        try self.init(id: try r.readString(), rest: &r)
    }

    /// The fields after the id.
    private init(id: String, rest r: inout BinaryReader) throws {
        self.init(
            id: id, homeZip: try r.readOptionalString(), lat: try r.readOptionalDouble(),
            lon: try r.readOptionalDouble(), location: try r.readString(), radiusKm: try r.readOptionalDouble(),
            maxPrice: try r.readOptionalDouble())
        favorites = try r.readInt64Array()
        follows = try r.readFixedArray()
        dismissed = try r.readFixedArray()
    }

    /// Skips the fields between the id and the favourites (home ZIP, coordinates, location,
    /// radius, price cap).
    fileprivate static func skipPlace(_ r: inout BinaryReader) throws {
        try r.skipOptionalString()
        try r.skipOptionalDouble()
        try r.skipOptionalDouble()
        try r.skipString()
        try r.skipOptionalDouble()
        try r.skipOptionalDouble()
    }

    /// Skips one row (how `BinaryTable.readParallel` finds where runs of rows start).
    @Sendable package static func skip(_ r: inout BinaryReader) throws {
        try r.skipString()
        try skipRest(&r)
    }

    /// Skips the fields after the id.
    static func skipRest(_ r: inout BinaryReader) throws {
        try skipPlace(&r)
        try r.skipInt64Array()
        try r.skipFixedArray()
        try r.skipFixedArray()
    }

    /// The row when `keep` accepts its id's UTF-8 bytes; otherwise nil, the row skipped
    /// without making a value. Tested against `init(from:)` on every row of a generated
    /// table; the simple twin of `TicketsUsers.Scan` and `TicketsUsers(_:order:)` (how the
    /// tickets stage, or a shard of it, reads its users) in `TicketsUsersTests`.
    package static func read(_ r: inout BinaryReader, if keep: (UnsafeRawBufferPointer) -> Bool) throws -> TicketsUser? {
        let id = try r.readStringBytes()
        guard keep(id) else {
            try skipRest(&r)
            return nil
        }
        return try TicketsUser(id: String(decoding: id, as: UTF8.self), rest: &r)
    }
}

extension TicketsUser {
    /// Only the id and followed events of a `users` row (what alerts need; a third of the
    /// time of a whole row). Tested against `init(from:)` on every row of a generated table.
    package static func readIDAndFollows(_ r: inout BinaryReader) throws -> (id: String, follows: [UInt64]) {
        try readIDAndFollows(&r, if: { _ in true })!
    }

    /// The id and followed events of a row whose id `keep` accepts, else nil (the row skipped).
    package static func readIDAndFollows(
        _ r: inout BinaryReader, if keep: (UnsafeRawBufferPointer) -> Bool
    ) throws -> (id: String, follows: [UInt64])? {
        let idBytes = try r.readStringBytes()
        guard keep(idBytes) else {
            try skipRest(&r)
            return nil
        }
        let id = String(decoding: idBytes, as: UTF8.self)
        try skipPlace(&r)
        try r.skipInt64Array()
        let follows = try r.readFixedArray()
        try r.skipFixedArray()
        return (id, follows)
    }
}
