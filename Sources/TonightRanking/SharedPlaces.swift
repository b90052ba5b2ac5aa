import TonightBase
import TonightExports

/// The places (point and radius) that several users rank from, numbered, with each one's
/// order of popular events in reach (`TicketsRanker.PlaceOrder`), computed once for all the
/// stage's rankers, the first time a user there needs a backfill.
///
/// Home ZIP points, mostly: a place with one user takes the exact early-stopping scan, which
/// is cheaper than the full in-reach sort an order needs. Each ranker used to keep its own
/// cache: on realistic `full` the two workers computed 129,568 orders for 74,797 places
/// (a place's users meet both), more than the cached walks they served (324,897).
package final class SharedPlaces: @unchecked Sendable {
    /// Where a located user ranks from: the bit patterns of the point and the radius.
    struct Key: Hashable {
        var lat: UInt64
        var lon: UInt64
        var radius: UInt64
    }

    /// Per user, in the order given: the number of their place when others share it, else -1.
    package let placeOf: [Int32]
    /// How many places are shared.
    package let count: Int
    private let orders: Locked<[TicketsRanker.PlaceOrder?]>
    /// Orders computed so far (each place at most once).
    package var computed: Int { orders.withLock { $0.reduce(0) { $0 + ($1 == nil ? 0 : 1) } } }

    /// Numbers the places of two users or more, in the users' order (one hash lookup per
    /// user: this runs before ranking, on one core).
    package convenience init(_ users: [TicketsUser], settings: RankingSettings) {
        self.init(count: users.count, settings: settings) { k in
            guard let la = users[k].lat, let lo = users[k].lon else { return nil }
            return (la, lo, users[k].radiusKm)
        }
    }

    /// The same for a table of users.
    package convenience init(_ users: TicketsUsers, settings: RankingSettings) {
        self.init(count: users.count, settings: settings, point: users.point)
    }

    /// The same for the rows of the `users` table as the tickets stage scans them (table
    /// order, before the users are put in id order).
    package convenience init(_ scan: TicketsUsers.Scan, settings: RankingSettings) {
        self.init(count: scan.count, settings: settings, point: scan.point)
    }

    /// Numbers the places of users `0 ..< count`, user `k` at `point(k)` (nil: unplaced).
    init(count n: Int, settings: RankingSettings, point: (Int) -> (lat: Double, lon: Double, radiusKm: Double?)?) {
        // Every place, numbered as first met, and how many users rank from it.
        var first: [Key: Int32] = [:]
        var usersAt: [Int32] = []
        var placeOf = [Int32](repeating: -1, count: n)
        for k in 0..<n {
            guard let (la, lo, radius) = point(k) else { continue }
            let key = Key(lat: la.bitPattern, lon: lo.bitPattern, radius: (radius ?? settings.radiusKm).bitPattern)
            let p = Self.number(&first[key, default: -1], next: Int32(usersAt.count))
            if p == usersAt.count { usersAt.append(0) }
            usersAt[Int(p)] += 1
            placeOf[k] = p
        }
        // The shared ones renumbered densely, in the same order; the others -1.
        var shared = [Int32](repeating: -1, count: usersAt.count)
        var count: Int32 = 0
        for (p, n) in usersAt.enumerated() where n > 1 {
            shared[p] = count
            count += 1
        }
        for k in placeOf.indices where placeOf[k] >= 0 { placeOf[k] = shared[Int(placeOf[k])] }
        self.placeOf = placeOf
        self.count = Int(count)
        orders = Locked([TicketsRanker.PlaceOrder?](repeating: nil, count: Int(count)))
    }

    /// A place's number: the one it has, else `next` (given through the dictionary's
    /// in-place access, so a place met for the first time costs one lookup, not two).
    private static func number(_ slot: inout Int32, next: Int32) -> Int32 {
        if slot < 0 { slot = next }
        return slot
    }

    /// Place `p`'s order: the stored one, else `compute()`'s, stored for the others. Two
    /// rankers may compute the same order at once (rare); both results are the same values.
    func order(_ p: Int32, compute: () -> TicketsRanker.PlaceOrder) -> TicketsRanker.PlaceOrder {
        if let o = orders.withLock({ $0[Int(p)] }) { return o }
        let o = compute()
        orders.withLock { if $0[Int(p)] == nil { $0[Int(p)] = o } }
        return o
    }
}
