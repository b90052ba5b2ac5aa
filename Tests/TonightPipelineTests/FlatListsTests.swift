import Testing
import TonightCore
import TonightGenerator
@testable import TonightRanking

/// `FlatLists(inverting:count:)`, the counting sort that builds each player's sessions from
/// the sessions' member lists (`PlaymateRanker.SessionMembers`): the lists that appending
/// `i` to list `v` for every value `v` of every `lists[i]`, in order, would give.
@Suite struct FlatListsTests {
    static func appended(_ lists: [[Int32]], count: Int) -> FlatLists<Int32> {
        var out = [[Int32]](repeating: [], count: count)
        for (i, l) in lists.enumerated() {
            for v in l { out[Int(v)].append(Int32(i)) }
        }
        return FlatLists(out)
    }

    /// Empty inputs, values no list holds, a value repeated inside a list (an exporter's
    /// duplicate row), long and empty lists side by side, and a skewed draw (a few values
    /// in most lists, as a few players are in most sessions).
    @Test(arguments: [(0, 0, 1), (0, 5, 2), (1, 1, 3), (50, 10, 4), (2_000, 300, 5), (20_000, 2_000, 6)])
    func invertingEqualsAppending(_ shape: (lists: Int, count: Int, seed: UInt64)) {
        var random = SplitMix64(seed: shape.seed)
        var lists: [[Int32]] = []
        for _ in 0..<shape.lists {
            let n = Int(random.next() % 9)
            lists.append((0..<n).map { _ in
                // Half the values from the first tenth: skewed, and repeats inside a list.
                let bound = random.next() % 2 == 0 ? max(1, shape.count / 10) : shape.count
                return Int32(random.next() % UInt64(bound))
            })
        }
        let got = FlatLists(inverting: lists, count: shape.count), want = Self.appended(lists, count: shape.count)
        #expect(got.count == shape.count)
        // Compared as booleans, with the first list that differs: printing two arrays of
        // 100,000 values took minutes.
        let differs = (0..<shape.count).first { got[$0] != want[$0] }
        let same = got.starts == want.starts && got.values == want.values
        #expect(same, "first list that differs: \(differs.map(String.init) ?? "none")")
    }
}
