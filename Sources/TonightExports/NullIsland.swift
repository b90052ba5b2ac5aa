/// Latitude 0, longitude 0: the place exporters write for a missing one (a coordinate column
/// whose nulls became zeros), in the Gulf of Guinea, where no user of these apps lives and no
/// venue or session is. Read as no place (users: then placed by their home ZIP; players and
/// quiz origins: none) and counted (`null-island`); a session, whose place is required, is
/// rejected. Until 2026-11-28 such a user was placed in the ocean: no event in reach, every
/// list but the feed empty, and nothing said.
enum NullIsland {
    static let warning = "null-island"
    static let words = "null island, an exporter's zeros for a missing place"

    @inline(__always)
    static func holds(_ lat: Double, _ lon: Double) -> Bool { lat == 0 && lon == 0 }
}
