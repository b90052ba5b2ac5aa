/// The sizes of datasets.md.
package struct GeneratorScale: Sendable {
    package var name: String
    package var artists: Int
    package var venues: Int
    package var events: Int
    package var affinityBlocks: Int
    package var affinityPerBlock: Int
    package var users: Int
    package var players: Int
    package var sessions: Int
    /// Venues planted whose city and ZIP resolve nowhere.
    package var unresolvableVenues: Int

    package static let tiny = GeneratorScale(
        name: "tiny", artists: 10, venues: 3, events: 12, affinityBlocks: 3, affinityPerBlock: 4, users: 8,
        players: 8, sessions: 10, unresolvableVenues: 0)
    package static let small = GeneratorScale(
        name: "small", artists: 2_000, venues: 500, events: 600, affinityBlocks: 100, affinityPerBlock: 25,
        users: 10_000, players: 2_000, sessions: 1_000, unresolvableVenues: 2)
    package static let full = GeneratorScale(
        name: "full", artists: 202_000, venues: 13_730, events: 59_600, affinityBlocks: 9_880, affinityPerBlock: 25,
        users: 1_000_000, players: 200_000, sessions: 100_000, unresolvableVenues: 6)

    /// The same world (artists, venues, events, affinity, the number of sessions) with other
    /// numbers of app users and players: the feed and the affinity file are byte-identical to
    /// the scale's own (they are drawn from streams of their own), and every user and player is
    /// drawn from the same distributions, so the set differs only in how many people use the
    /// apps (`tonight-bench growth --same-world`: growth in users alone).
    package func with(users: Int? = nil, players: Int? = nil) -> GeneratorScale {
        var s = self
        if let users { s.users = users }
        if let players { s.players = players }
        return s
    }

    package static func named(_ s: String) -> GeneratorScale? {
        switch s {
        case "tiny": return .tiny
        case "small": return .small
        case "full": return .full
        default: return nil
        }
    }
}

/// How the generated world is distributed (Docs/DATASETS.md).
package enum GeneratorShape: String, Sendable, CaseIterable {
    /// Real-world skew: Zipf-like artist popularity for favourites, affinity and touring;
    /// users and venues placed by metro population; a mix of radii; heavy-tailed favourites.
    case realistic
    /// The first generator's world: favourites and tours spread almost evenly over the
    /// popular eighth of artists, users around venues (kept for comparison).
    case uniform
}
