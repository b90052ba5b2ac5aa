/// One user as the ranker reads them: the place, the budget and the three lists, the lists as
/// pointers into memory someone else owns (a `TicketsUsers` table's columns, or a
/// `TicketsUser`'s arrays inside `TicketsUser.withView`).
///
/// A trivial value: handing one to the ranker retains nothing (a `TicketsUser` passed by value
/// retained and released its three arrays once per user, ~1 % of the tickets stage). Valid
/// only while its owner is alive and unchanged.
package struct TicketsUserView {
    /// Where the user is (given coordinates, else the home ZIP's point); nil when unplaced.
    package var lat: Double?
    package var lon: Double?
    /// The user's radius; nil: the default.
    package var radiusKm: Double?
    /// The user's price cap; nil: none.
    package var maxPrice: Double?
    /// Favourite artists known in the feed, in file order, without repeats.
    package var favorites: UnsafeBufferPointer<Int64>
    /// Followed events, in file order.
    package var follows: UnsafeBufferPointer<UInt64>
    /// Dismissed explore cards.
    package var dismissed: UnsafeBufferPointer<UInt64>

    package init(
        lat: Double?, lon: Double?, radiusKm: Double?, maxPrice: Double?,
        favorites: UnsafeBufferPointer<Int64>, follows: UnsafeBufferPointer<UInt64>, dismissed: UnsafeBufferPointer<UInt64>
    ) {
        self.lat = lat
        self.lon = lon
        self.radiusKm = radiusKm
        self.maxPrice = maxPrice
        self.favorites = favorites
        self.follows = follows
        self.dismissed = dismissed
    }
}

extension TicketsUser {
    /// Calls `body` with a view of this user (its lists borrowed for the call).
    package func withView<R>(_ body: (TicketsUserView) throws -> R) rethrows -> R {
        try favorites.withUnsafeBufferPointer { fav in
            try follows.withUnsafeBufferPointer { fol in
                try dismissed.withUnsafeBufferPointer { dis in
                    try body(TicketsUserView(
                        lat: lat, lon: lon, radiusKm: radiusKm, maxPrice: maxPrice, favorites: fav, follows: fol, dismissed: dis))
                }
            }
        }
    }
}
