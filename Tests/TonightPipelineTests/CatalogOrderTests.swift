import Foundation
import Testing
import TonightExports
import TonightFeed
import TonightGenerator
@testable import TonightPipeline
@testable import TonightRanking

/// The catalog's artist order (favourites desc, upcoming desc, name bytes, id) compares names
/// as bytes but keeps `String` equality for names that are not ASCII: canonically equivalent
/// spellings (é as one scalar or two, Å, A + ring, the ångström sign) tie and fall to the id,
/// exactly as the comparison of `String`s did. Checked against that comparison on a shuffled
/// list full of ties.
@Suite struct CatalogOrderTests {
    static let names = ["", "A", "Ab", "Abc", "abc", "B", "Beyoncé", "Beyonce\u{301}", "Zoë", "Zoe\u{308}",
                        "\u{C5}ngel", "A\u{30A}ngel", "\u{212B}ngel", "Ab ", "Ab\t", "Émile", "Ñu", "N\u{303}u",
                        // Names that share or differ in their first eight bytes (compared as one number).
                        "Metallic", "Metallica", "Metallica Tribute", "Metallicb", "MetallicA", "Metallic ", "Beyoncé Knowles",
                        "Beyonce\u{301} Knowles", "Beyoncé Knowle", "12345678", "12345679", "1234567", "~~~~~~~~~",
                        // ASCII names equal to names that are not (singleton decompositions).
                        "K", "\u{212A}", "Kelvin", "\u{212A}elvin", ";", "\u{37E}",
                        // Equal or not where the first differing byte is past the eighth, or not ASCII.
                        "Beyoncé Knowles x", "Beyonce\u{301} Knowles x", "Zoëx", "Zoe\u{308}x", "Élan", "E\u{301}lan",
                        "Ab\u{301}", "Abc\u{301}", "Abcdefgh\u{301}", "Abcdefghé", "Abcdefghe\u{301}", "Abcdefgh"]

    /// The comparison the catalog used before names were compared as bytes.
    static func reference(_ list: [FeedArtist], fav: [Int64: Int], up: [Int64: Int], byUpcoming: Bool) -> [Int] {
        list.indices.sorted { i, j in
            let fi = fav[list[i].id] ?? 0, fj = fav[list[j].id] ?? 0
            if fi != fj { return fi > fj }
            let ui = up[list[i].id] ?? 0, uj = up[list[j].id] ?? 0
            if byUpcoming && ui != uj { return ui > uj }
            let a = list[i], b = list[j]
            if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
            return a.id < b.id
        }
    }

    @Test(arguments: [1, 2, 3]) func byteOrderWithCanonicalTies(_ seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var artists: [FeedArtist] = []
        for id in 1...400 {
            let name = Self.names[Int(rng.next() % UInt64(Self.names.count))]
            artists.append(FeedArtist(id: Int64(id * 7 % 401), name: name, category: nil, url: nil, imageUrl: nil, line: id))
        }
        artists.shuffle(using: &rng)
        var favorites: [Int64: Int] = [:]
        for a in artists where rng.next() % 3 == 0 { favorites[a.id] = Int(rng.next() % 3) }
        let builder = CatalogBuilder(settings: .init(asOf: 0), artists: artists, categories: [], venues: [], events: [])
        for byUpcoming in [false, true] {
            #expect(builder.rankedIndices(artists, byUpcoming: byUpcoming, favorites: favorites)
                == Self.reference(artists, fav: favorites, up: [:], byUpcoming: byUpcoming))
        }
        // The list has ties that only canonical equivalence breaks to the id.
        #expect("Beyoncé" == "Beyonce\u{301}" && Array("Beyoncé".utf8) != Array("Beyonce\u{301}".utf8))
        #expect("K" == "\u{212A}" && ";" == "\u{37E}")
    }
}

/// The favourite counts of load-tickets' `favorites` table: the dense count (small
/// non-negative ids) and the hashed one (any other ids) give the same rows, by artist id.
@Suite struct FavoriteCountTests {
    static func reference(_ lists: [[Int64]]) -> [ArtistFavorites] {
        var counts: [Int64: Int] = [:]
        for a in lists.joined() { counts[a, default: 0] += 1 }
        return counts.keys.sorted().map { ArtistFavorites(artist: $0, users: counts[$0]!) }
    }

    static let cases: [[[Int64]]] = {
        let dense = Int64(ArtistFavorites.denseLimit)
        var many: [[Int64]] = []
        for u in 0..<5_000 {
            var list: [Int64] = []
            for k in 0..<(u % 13) { list.append(Int64((u * 7919 + k * 104_729) % 3001)) }
            many.append(list)
        }
        let cases: [[[Int64]]] = [
            [],
            [[], []],
            [[0, 5], [0, 7, 5], [5]],
            many,
            [[3, -1], [3]],  // a negative id: hashed
            [[1, dense], [1]],  // beyond the dense range: hashed
            [[dense - 1], [0]],  // the largest dense id
            [[Int64.min, Int64.max], [Int64.max]],
        ]
        return cases
    }()

    @Test(arguments: cases)
    func denseAndHashedCountsAgree(_ lists: [[Int64]]) throws {
        let counted = try ArtistFavorites.counts(lists: lists.count) { u, body in lists[u].withUnsafeBufferPointer(body) }
        #expect(counted == Self.reference(lists))
    }
}
