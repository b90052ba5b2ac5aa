import TonightExports

/// What a data set is like, seen by the ranker (for `tonight-bench`, which prints the shape
/// a figure comes from, and the run report): how many upcoming events a located user has in
/// reach, and how many explore candidates a user has.
extension TicketsRanker {
    /// Explore candidates of the user ranked last: the upcoming events of the artists they
    /// favour or that are similar to those, in reach and affordable (before the deck's cut).
    package var candidateCount: Int { candidatesFound }

    /// Upcoming events within the user's radius, whoever plays them and whatever they cost
    /// (nil: the user is not located, so every event is in reach). A scan of the user's
    /// 1° cells: for a sample of users, not every one.
    package mutating func eventsInReach(_ u: TicketsUser) -> Int? {
        u.withView { eventsInReach($0) }
    }

    /// The same for a user read through a view.
    package mutating func eventsInReach(_ u: TicketsUserView) -> Int? {
        guard let o = origin(u) else { return nil }
        index.popularCells(lat: o.lat, lon: o.lon, radiusKm: o.radius, into: &cells)
        var n = 0
        for c in cells {
            for k in index.cellsByPopularity.range(Int(c)) {
                let e = index.events[Int(index.cellsByPopularity.values[k].event)]
                if let d = distance(o, e), d <= o.radius { n += 1 }
            }
        }
        return n
    }
}
