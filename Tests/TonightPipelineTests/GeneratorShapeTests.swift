import Foundation
import Testing
import TonightCore
import TonightGenerator
import TonightTesting

/// The generator's two worlds: `uniform` is byte for byte what the generator wrote before the
/// realistic shape existed (so older figures stay reproducible), `realistic` has the skew of
/// Docs/DATASETS.md.
@Suite struct GeneratorShapeTests {
    static func sha256(_ url: URL) throws -> String { try ContentHash.file(url) }

    @Test func uniformIsTheFirstGeneratorsWorld() throws {
        let out = temporaryDirectory("uniform-small")
        try DatasetGenerator(scale: .small, seed: 1, shape: .uniform).generate(into: out)
        // SHA-256 of the files the generator of commit 91ef402 wrote for `--scale small --seed 1`.
        let expected = [
            "tickets/users.csv": "920ab7f1b719566de433e0c6bde9256e750600ada6c06aedab412611fd5759f3",
            "tickets/favorites.csv": "51a87f19f4c08742ae71774259761a45f490f9c2a4ae35964525d3c04736b832",
            "affinity.txt": "3db0ba26c9a1cb5a4b29b9c25593a3692ec503a08ff0f638da2c8a246390e063",
            "playmate/players.csv": "429095849827c5cba783eecb1f5470d2466fa86673f7238924273e9c8b5af36b",
            // Those of the generator before realistic follows and dismissals (5e82029): the
            // uniform world keeps its random ones.
            "tickets/follows.csv": "676ec0a11605f4b29e34ffe373a31b01ccdffcec661c65ee288d3e552d554115",
            "tickets/dismissed.csv": "fe233f084ee8b7319ba7e9546de9be26db22da96336fc6a64229c9cb0462b938",
        ]
        for (file, sum) in expected {
            #expect(try Self.sha256(out.appendingPathComponent(file)) == sum, "\(file)")
        }
    }

    @Test func realisticIsSkewedAndDeterministic() throws {
        let a = temporaryDirectory("realistic-small"), b = temporaryDirectory("realistic-small")
        let info = try DatasetGenerator(scale: .small, seed: 5).generate(into: a)
        try DatasetGenerator(scale: .small, seed: 5).generate(into: b)
        #expect(info.shape == "realistic")
        for file in ["feed.xml", "affinity.txt", "tickets/users.csv", "tickets/favorites.csv"] {
            #expect(try Self.sha256(a.appendingPathComponent(file)) == Self.sha256(b.appendingPathComponent(file)), "\(file)")
        }
        // Favourites: a few artists hold many; counts per user are heavy-tailed.
        let lines = try String(contentsOf: a.appendingPathComponent("tickets/favorites.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst()
        var perArtist: [Substring: Int] = [:], perUser: [Substring: Int] = [:]
        for line in lines {
            let parts = line.split(separator: ",")
            perArtist[parts[1], default: 0] += 1
            perUser[parts[0], default: 0] += 1
        }
        let top10 = perArtist.values.sorted(by: >).prefix(10).reduce(0, +)
        #expect(Double(top10) / Double(lines.count) > 0.1, "top 10 artists hold \(top10) of \(lines.count)")
        let counts = perUser.values.sorted()
        #expect(counts.last! >= 5 * counts[counts.count / 2], "max \(counts.last!) vs median \(counts[counts.count / 2])")
        // Radii: a mix, not one value.
        let radii = try String(contentsOf: a.appendingPathComponent("tickets/users.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[4] }
        #expect(Set(radii).count >= 6, "\(Set(radii))")
    }

    /// Realistic follows and dismissals are mostly of the user's favourites' dates
    /// (DATASETS.md): three in four when a favourite has dates (in reach, for dismissals). On
    /// `small`, seed 5: 63 % of follows and 21 % of dismissals; the random upcoming events of
    /// the generator before gave 2 % of each.
    @Test func realisticFollowsAndDismissalsAreOfFavourites() throws {
        let out = temporaryDirectory("realistic-taste")
        try DatasetGenerator(scale: .small, seed: 5).generate(into: out)
        func rows(_ file: String) throws -> [(Substring, Substring)] {
            try String(contentsOf: out.appendingPathComponent("tickets/\(file)"), encoding: .utf8)
                .split(separator: "\n").dropFirst().map { let f = $0.split(separator: ","); return (f[0], f[1]) }
        }
        var favorites: [Substring: Set<Substring>] = [:]
        for (u, a) in try rows("favorites.csv") { favorites[u, default: []].insert(a) }
        // Each event's performers, from the feed's `<Event ID="…">` … `<ArtistID ID="…"` lines.
        var performers: [Substring: [Substring]] = [:]
        var event: Substring = ""
        let feed = try String(contentsOf: out.appendingPathComponent("feed.xml"), encoding: .utf8)
        for line in feed.split(separator: "\n") {
            let l = line.drop { $0 == "\t" || $0 == " " }
            if l.hasPrefix("<Event ID=\"") { event = l.dropFirst(11).prefix { $0 != "\"" } }
            if l.hasPrefix("<ArtistID ID=\"") { performers[event, default: []].append(l.dropFirst(14).prefix { $0 != "\"" }) }
        }
        for (file, least) in [("follows.csv", 0.4), ("dismissed.csv", 0.1)] {
            let all = try rows(file).filter { performers[$0.1] != nil }  // unknown ids aside
            let ofFavorites = all.filter { u, e in performers[e]!.contains { favorites[u]?.contains($0) == true } }.count
            #expect(all.count > 500 && Double(ofFavorites) / Double(all.count) > least, "\(file): \(ofFavorites) of \(all.count)")
        }
    }

    /// `--users`/`--players` change the people and nothing of the world: the feed and the
    /// affinity file are the scale's own bytes (so `tonight-bench growth --same-world` measures
    /// growth in users alone), the counts are the ones asked for, and the sessions as many.
    @Test(arguments: [(users: 100, players: 50), (users: 20_000, players: 1)])
    func fewerOrMorePeopleKeepTheWorld(users: Int, players: Int) throws {
        let world = temporaryDirectory("world-small"), people = temporaryDirectory("people-small")
        try DatasetGenerator(scale: .small, seed: 3).generate(into: world)
        let info = try DatasetGenerator(scale: GeneratorScale.small.with(users: users, players: players), seed: 3).generate(into: people)
        for file in ["feed.xml", "affinity.txt"] {
            #expect(try Self.sha256(world.appendingPathComponent(file)) == Self.sha256(people.appendingPathComponent(file)), "\(file)")
        }
        func rows(_ dir: URL, _ file: String) throws -> Int {
            try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").count - 1
        }
        #expect(try rows(people, "tickets/users.csv") == users)
        #expect(try rows(people, "playmate/players.csv") == players)
        #expect(try rows(people, "playmate/sessions.csv") == rows(world, "playmate/sessions.csv"))
        #expect(info.counts["users"] == users && info.counts["players"] == players)
        #expect(info.counts["events"] == GeneratorScale.small.events)
    }
}
