import Foundation
import TonightCore

extension TicketsUsers {
    /// The rows of the `users` table at `url` whose ids (UTF-8 bytes) `keep` accepts, in
    /// table order, decoded on every core straight into columns (`BinaryTable.readRuns`).
    package static func read(from url: URL, keep: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) throws -> TicketsUsers {
        let parts = try BinaryTable.readRuns(
            TicketsUser.self, table: "users", from: url, skip: TicketsUser.skip,
            makePart: { Part(rows: $0) }, decode: { r, part in try part.appendRow(&r, if: keep) })
        return TicketsUsers(parts)
    }

    /// A run of users being read (one core's share of the `users` table), in growable arrays;
    /// `TicketsUsers.init(_:)` joins the runs.
    package struct Part: Sendable {
        var idBytes: [UInt8] = []
        /// Per row, where its bytes or values end, counted from this part's start.
        var idEnds: [Int] = []
        var places: [Place] = []
        var favorites: [Int64] = []
        var favoriteEnds: [Int] = []
        var follows: [UInt64] = []
        var followEnds: [Int] = []
        var dismissed: [UInt64] = []
        var dismissedEnds: [Int] = []

        /// An empty run with room for `rows` users.
        package init(rows: Int) {
            idBytes.reserveCapacity(rows * 12)
            idEnds.reserveCapacity(rows)
            places.reserveCapacity(rows)
            favorites.reserveCapacity(rows * 8)
            favoriteEnds.reserveCapacity(rows)
            followEnds.reserveCapacity(rows)
            dismissedEnds.reserveCapacity(rows)
        }

        /// Appends `u`.
        package mutating func append(_ u: TicketsUser) {
            idBytes.append(contentsOf: u.id.utf8)
            idEnds.append(idBytes.count)
            places.append(Place(lat: u.lat ?? .nan, lon: u.lon ?? .nan, radiusKm: u.radiusKm ?? .nan, maxPrice: u.maxPrice ?? .nan))
            favorites.append(contentsOf: u.favorites)
            favoriteEnds.append(favorites.count)
            follows.append(contentsOf: u.follows)
            followEnds.append(follows.count)
            dismissed.append(contentsOf: u.dismissed)
            dismissedEnds.append(dismissed.count)
        }

        /// Reads one row of the `users` table (`TicketsUser.encode`'s format) and appends it
        /// when `keep` accepts its id's bytes (a shard's users); otherwise skips it. The values
        /// go straight into the columns: no `TicketsUser`, no array per list. Tested against
        /// `TicketsUser.init(from:)` on every row of a generated table.
        package mutating func appendRow(_ r: inout BinaryReader, if keep: (UnsafeRawBufferPointer) -> Bool) throws {
            let id = try r.readStringBytes()
            guard keep(id) else {
                try TicketsUser.skipRest(&r)
                return
            }
            idBytes.append(contentsOf: id)
            idEnds.append(idBytes.count)
            try r.skipOptionalString()  // home ZIP: the point is in lat/lon already
            let lat = try r.readOptionalDouble(), lon = try r.readOptionalDouble()
            try r.skipString()  // location
            let radius = try r.readOptionalDouble(), maxPrice = try r.readOptionalDouble()
            // NaN stands for "none" in the columns; load-tickets never writes one as a value.
            if lat?.isNaN == true || lon?.isNaN == true || radius?.isNaN == true || maxPrice?.isNaN == true {
                throw TonightError(.invalidInput, "corrupt users table (a NaN coordinate, radius or price at byte \(r.offset))",
                                   hint: "re-run load-tickets with --force")
            }
            places.append(Place(lat: lat ?? .nan, lon: lon ?? .nan, radiusKm: radius ?? .nan, maxPrice: maxPrice ?? .nan))
            let nf = try r.readCount(bytesPerElement: 1)
            for _ in 0..<nf { favorites.append(try r.readInt64()) }
            favoriteEnds.append(favorites.count)
            let nfo = try r.readCount(bytesPerElement: 8)
            for _ in 0..<nfo { follows.append(try r.readFixed()) }
            followEnds.append(follows.count)
            let nd = try r.readCount(bytesPerElement: 8)
            for _ in 0..<nd { dismissed.append(try r.readFixed()) }
            dismissedEnds.append(dismissed.count)
        }
    }
}
