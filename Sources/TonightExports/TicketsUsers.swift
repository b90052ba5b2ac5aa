import TonightBase

/// The users the tickets stage ranks, column by column in memory allocated once: ids back to
/// back, one 32-byte place per user, and the favourites, follows and dismissals as flat lists.
///
/// Read as `[TicketsUser]`, a million users were six million allocations (an id, a home ZIP
/// and a location string, three arrays) made on the stage's start, copied into the ranker once
/// per user (three arrays retained and released) and freed at its end; their arrays and
/// headers held 228 MB at the stage's peak. The ranker reads a user here as a
/// `TicketsUserView`, which retains nothing. Immutable once made, so any thread may read it.
package final class TicketsUsers: @unchecked Sendable {
    /// A user's place and budget; NaN where the row has none.
    struct Place {
        var lat: Double
        var lon: Double
        var radiusKm: Double
        var maxPrice: Double

        /// The point and radius, nil when unplaced (what `SharedPlaces` numbers).
        @inline(__always)
        var point: (lat: Double, lon: Double, radiusKm: Double?)? {
            guard !lat.isNaN, !lon.isNaN else { return nil }
            return (lat, lon, TicketsUsers.optional(radiusKm))
        }
    }

    /// How many users.
    package let count: Int
    /// Every id as a `String` (the datasets' keys), made once: ids of up to 15 bytes are
    /// small strings, held inline.
    private let ids: [String]
    private let idBytes: UnsafeMutableBufferPointer<UInt8>
    /// `count + 1` positions each: user `k`'s bytes or values are `[starts[k], starts[k + 1])`.
    private let idStarts: UnsafeMutableBufferPointer<Int>
    private let places: UnsafeMutableBufferPointer<Place>
    private let favorites: UnsafeMutableBufferPointer<Int64>
    private let favoriteStarts: UnsafeMutableBufferPointer<Int>
    private let follows: UnsafeMutableBufferPointer<UInt64>
    private let followStarts: UnsafeMutableBufferPointer<Int>
    private let dismissed: UnsafeMutableBufferPointer<UInt64>
    private let dismissedStarts: UnsafeMutableBufferPointer<Int>

    /// A table's columns, made by the code that read them (`init(_:order:)`).
    struct Columns {
        var idBytes: UnsafeMutableBufferPointer<UInt8>
        var idStarts: UnsafeMutableBufferPointer<Int>
        var places: UnsafeMutableBufferPointer<Place>
        var favorites: UnsafeMutableBufferPointer<Int64>
        var favoriteStarts: UnsafeMutableBufferPointer<Int>
        var follows: UnsafeMutableBufferPointer<UInt64>
        var followStarts: UnsafeMutableBufferPointer<Int>
        var dismissed: UnsafeMutableBufferPointer<UInt64>
        var dismissedStarts: UnsafeMutableBufferPointer<Int>

        /// Frees every column (their values are trivial: nothing to deinitialise).
        func deallocate() {
            for b in [idStarts, favoriteStarts, followStarts, dismissedStarts] { b.deallocate() }
            idBytes.deallocate()
            places.deallocate()
            favorites.deallocate()
            follows.deallocate()
            dismissed.deallocate()
        }
    }

    /// A table of `count` users over `columns`, which it owns from now on.
    init(count: Int, ids: [String], columns: Columns) {
        self.count = count
        self.ids = ids
        idBytes = columns.idBytes
        idStarts = columns.idStarts
        places = columns.places
        favorites = columns.favorites
        favoriteStarts = columns.favoriteStarts
        follows = columns.follows
        followStarts = columns.followStarts
        dismissed = columns.dismissed
        dismissedStarts = columns.dismissedStarts
    }

    /// The users of `users`, in order (tests and small sets).
    package convenience init(_ users: [TicketsUser]) {
        let places = UnsafeMutableBufferPointer<Place>.allocate(capacity: max(1, users.count))
        for (k, u) in users.enumerated() {
            (places.baseAddress! + k).initialize(to: Place(lat: u.lat ?? .nan, lon: u.lon ?? .nan, radiusKm: u.radiusKm ?? .nan, maxPrice: u.maxPrice ?? .nan))
        }
        let id = Self.column(users) { Array($0.id.utf8) }, favorites = Self.column(users, \.favorites)
        let follows = Self.column(users, \.follows), dismissed = Self.column(users, \.dismissed)
        self.init(count: users.count, ids: users.map(\.id), columns: Columns(
            idBytes: id.values, idStarts: id.starts, places: places, favorites: favorites.values, favoriteStarts: favorites.starts,
            follows: follows.values, followStarts: follows.starts, dismissed: dismissed.values, dismissedStarts: dismissed.starts))
    }

    /// One list per user, back to back, and where each starts (`count + 1` positions).
    private static func column<T>(_ users: [TicketsUser], _ list: (TicketsUser) -> [T]) -> (values: UnsafeMutableBufferPointer<T>, starts: UnsafeMutableBufferPointer<Int>) {
        let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: users.count + 1)
        starts[0] = 0
        var all: [T] = []
        for (k, u) in users.enumerated() {
            all.append(contentsOf: list(u))
            starts[k + 1] = all.count
        }
        let values = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, all.count))
        _ = values.initialize(from: all)
        return (values, starts)
    }

    deinit {
        idBytes.deallocate()
        idStarts.deallocate()
        places.deallocate()
        favorites.deallocate()
        favoriteStarts.deallocate()
        follows.deallocate()
        followStarts.deallocate()
        dismissed.deallocate()
        dismissedStarts.deallocate()
    }

    /// User `k` as the ranker reads them; valid while this table is alive.
    @inline(__always)
    package subscript(_ k: Int) -> TicketsUserView {
        let p = places[k]
        return TicketsUserView(
            lat: Self.optional(p.lat), lon: Self.optional(p.lon), radiusKm: Self.optional(p.radiusKm),
            maxPrice: Self.optional(p.maxPrice),
            favorites: Self.slice(favorites, favoriteStarts, k), follows: Self.slice(follows, followStarts, k),
            dismissed: Self.slice(dismissed, dismissedStarts, k))
    }

    /// User `k`'s id, as UTF-8 bytes (valid while this table is alive).
    @inline(__always)
    package func idBytes(_ k: Int) -> UnsafeBufferPointer<UInt8> { Self.slice(idBytes, idStarts, k) }

    /// User `k`'s id.
    @inline(__always)
    package func id(_ k: Int) -> String { ids[k] }

    /// User `k`'s point and radius, nil when unplaced (what `SharedPlaces` numbers).
    @inline(__always)
    package func point(_ k: Int) -> (lat: Double, lon: Double, radiusKm: Double?)? { places[k].point }

    @inline(__always) static func optional(_ v: Double) -> Double? { v.isNaN ? nil : v }

    @inline(__always)
    private static func slice<T>(_ values: UnsafeMutableBufferPointer<T>, _ starts: UnsafeMutableBufferPointer<Int>, _ k: Int) -> UnsafeBufferPointer<T> {
        let lo = starts[k], hi = starts[k + 1]
        return UnsafeBufferPointer(start: values.baseAddress.map { $0 + lo }, count: hi - lo)
    }
}
