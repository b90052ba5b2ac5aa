import Testing
import TonightGenerator
@testable import TonightRanking

/// `TicketsRanker.sortHead`, which leaves a place's first `placeDepth` events in rank order
/// at the front of the pool instead of sorting the whole pool: the same entries, in the same
/// order, as the first `k` of a full sort, on pools with many exact ties (broken by the
/// event number), in rising, falling and random order, at sizes around `k`.
@Suite struct SortHeadTests {
    typealias Popular = TicketsRanker.Popular

    /// `n` entries with distinct event numbers; scores drawn from `distinct` values spaced
    /// far apart (so no chain of near-ties makes the order ill-defined), in the given order.
    static func pool(_ n: Int, distinct: Int, order: String, seed: UInt64) -> [Popular] {
        var random = SplitMix64(seed: seed)
        var events = Array(Int32(0)..<Int32(n))
        events.shuffle(using: &random)
        var pool = events.map { e in
            Popular(event: e, score: 1 + Double(random.next() % UInt64(distinct)) * 0.25, distance: Double(e))
        }
        let sorted = pool.sorted { TicketsRanker.ranksBefore($0.event, $0.score, $1.event, $1.score) }
        switch order {
        case "ranked": pool = sorted
        case "reversed": pool = sorted.reversed()
        default: break
        }
        return pool
    }

    @Test(arguments: [0, 1, 2, 95, 96, 97, 200, 3_000], ["random", "ranked", "reversed"])
    func theHeadOfAFullSort(n: Int, order: String) {
        for (k, distinct) in [(96, 5), (96, 1_000_000), (1, 3), (7, 2), (3_000, 50)] {
            let original = Self.pool(n, distinct: distinct, order: order, seed: UInt64(n * 31 + k))
            let sorted = original.sorted { TicketsRanker.ranksBefore($0.event, $0.score, $1.event, $1.score) }
            var pool = original
            TicketsRanker.sortHead(&pool, k)
            let head = min(k, n)
            // Entries move whole (event, score and distance), so their events say it all.
            #expect(pool[..<head].map(\.event) == sorted[..<head].map(\.event), "n \(n), k \(k), \(distinct) scores, \(order)")
            // Nothing lost or repeated: the pool is a permutation of what it held.
            #expect(pool.map(\.event).sorted() == original.map(\.event).sorted())
        }
    }
}
