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

    /// The users of `parts`, in order (each part a run of rows read on one core).
    package init(_ parts: [Part]) {
        count = parts.reduce(0) { $0 + $1.places.count }
        idBytes = Self.joined(parts.map(\.idBytes))
        idStarts = Self.joinedStarts(parts.map(\.idEnds), count: count)
        places = Self.joined(parts.map(\.places))
        favorites = Self.joined(parts.map(\.favorites))
        favoriteStarts = Self.joinedStarts(parts.map(\.favoriteEnds), count: count)
        follows = Self.joined(parts.map(\.follows))
        followStarts = Self.joinedStarts(parts.map(\.followEnds), count: count)
        dismissed = Self.joined(parts.map(\.dismissed))
        dismissedStarts = Self.joinedStarts(parts.map(\.dismissedEnds), count: count)
        ids = (0..<count).map { [idBytes, idStarts] k in String(decoding: Self.slice(idBytes, idStarts, k), as: UTF8.self) }
    }

    /// `base`'s users in the order of `order` (a permutation of its rows): the tickets stage
    /// ranks users in id order, and read in that order from columns in row order each user
    /// cost a cache miss per column. The columns are gathered on every core.
    package init(_ base: TicketsUsers, order: [Int]) {
        precondition(order.count == base.count, "the order must be a permutation of the rows")
        count = order.count
        places = .allocate(capacity: max(1, count))
        idStarts = Self.gatheredStarts(base.idStarts, order)
        favoriteStarts = Self.gatheredStarts(base.favoriteStarts, order)
        followStarts = Self.gatheredStarts(base.followStarts, order)
        dismissedStarts = Self.gatheredStarts(base.dismissedStarts, order)
        idBytes = .allocate(capacity: max(1, idStarts[count]))
        favorites = .allocate(capacity: max(1, favoriteStarts[count]))
        follows = .allocate(capacity: max(1, followStarts[count]))
        dismissed = .allocate(capacity: max(1, dismissedStarts[count]))
        ids = order.map { base.ids[$0] }
        let parts = count < 50_000 ? 1 : Parallel.width * 4
        let target = Gather(self)
        try! Parallel.forEach(parts) { p in  // the body throws nothing
            let to = target.users
            for k in Parallel.range(p, of: parts, in: to.count) {
                let from = order[k]
                (to.places.baseAddress! + k).initialize(to: base.places[from])
                Self.copy(base.idBytes, base.idStarts, from, to.idBytes, to.idStarts, k)
                Self.copy(base.favorites, base.favoriteStarts, from, to.favorites, to.favoriteStarts, k)
                Self.copy(base.follows, base.followStarts, from, to.follows, to.followStarts, k)
                Self.copy(base.dismissed, base.dismissedStarts, from, to.dismissed, to.dismissedStarts, k)
            }
        }
    }

    /// The table handed to the gathering workers (each writes its own rows).
    private struct Gather: @unchecked Sendable {
        let users: TicketsUsers
        init(_ users: TicketsUsers) { self.users = users }
    }

    /// Starts for the rows of `order`, from the starts of the rows they come from.
    private static func gatheredStarts(_ from: UnsafeMutableBufferPointer<Int>, _ order: [Int]) -> UnsafeMutableBufferPointer<Int> {
        let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: order.count + 1)
        var at = 0
        starts[0] = 0
        for (k, r) in order.enumerated() {
            at += from[r + 1] - from[r]
            starts[k + 1] = at
        }
        return starts
    }

    /// Copies row `from`'s values to row `to`'s place.
    @inline(__always)
    private static func copy<T>(
        _ src: UnsafeMutableBufferPointer<T>, _ srcStarts: UnsafeMutableBufferPointer<Int>, _ from: Int,
        _ dst: UnsafeMutableBufferPointer<T>, _ dstStarts: UnsafeMutableBufferPointer<Int>, _ to: Int
    ) {
        let n = srcStarts[from + 1] - srcStarts[from]
        guard n > 0 else { return }
        (dst.baseAddress! + dstStarts[to]).initialize(from: src.baseAddress! + srcStarts[from], count: n)
    }

    /// The users of `users`, in order (tests and small sets).
    package convenience init(_ users: [TicketsUser]) {
        var part = Part(rows: users.count)
        for u in users { part.append(u) }
        self.init([part])
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
    package func point(_ k: Int) -> (lat: Double, lon: Double, radiusKm: Double?)? {
        let p = places[k]
        guard !p.lat.isNaN, !p.lon.isNaN else { return nil }
        return (p.lat, p.lon, Self.optional(p.radiusKm))
    }

    /// The permutation that orders the users by id bytes (the datasets' key order).
    package func orderByID() -> [Int] {
        UTF8Order.sortedIndices(bytes: UnsafeBufferPointer(idBytes), starts: UnsafeBufferPointer(idStarts))
    }

    @inline(__always) static func optional(_ v: Double) -> Double? { v.isNaN ? nil : v }

    @inline(__always)
    private static func slice<T>(_ values: UnsafeMutableBufferPointer<T>, _ starts: UnsafeMutableBufferPointer<Int>, _ k: Int) -> UnsafeBufferPointer<T> {
        let lo = starts[k], hi = starts[k + 1]
        return UnsafeBufferPointer(start: values.baseAddress.map { $0 + lo }, count: hi - lo)
    }

    /// The parts' arrays back to back in one allocation (never empty: a zero-count buffer
    /// still has an address to slice from).
    private static func joined<T>(_ arrays: [[T]]) -> UnsafeMutableBufferPointer<T> {
        let total = arrays.reduce(0) { $0 + $1.count }
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, total))
        var at = 0
        for a in arrays {
            a.withUnsafeBufferPointer { src in
                guard let s = src.baseAddress, !src.isEmpty else { return }
                (buffer.baseAddress! + at).initialize(from: s, count: src.count)
            }
            at += a.count
        }
        return buffer
    }

    /// Global starts from the parts' per-row ends (each part's ends count from its own 0).
    private static func joinedStarts(_ ends: [[Int]], count: Int) -> UnsafeMutableBufferPointer<Int> {
        let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: count + 1)
        starts[0] = 0
        var row = 1, base = 0
        for part in ends {
            for e in part {
                starts[row] = base + e
                row += 1
            }
            base += part.last ?? 0
        }
        precondition(row == count + 1, "a part's lists do not match its rows")
        return starts
    }
}
