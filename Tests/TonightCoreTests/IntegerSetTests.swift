import Testing
import TonightCore

/// Both forms of the set (a bitmap for dense small ids, a hash table otherwise) answer as
/// `Set` does.
@Suite struct IntegerSetTests {
    static let ranges: [(name: String, low: UInt64, high: UInt64)] = [
        ("dense small ids (bitmap)", 0, 1_000_000),
        ("64-bit event ids (hash table)", 0, UInt64.max),
        ("ids near 2^40 (hash table)", 1 << 40, (1 << 40) + 50_000_000),
    ]

    @Test(arguments: 0..<3)
    func agreesWithSet(_ which: Int) {
        let (name, low, high) = Self.ranges[which]
        var rng = SystemRandomNumberGenerator()
        let members = (0..<50_000).map { _ in UInt64.random(in: low...high, using: &rng) } + [low, 0]
        let reference = Set(members)
        let set = IntegerSet(members)
        #expect(set.count == reference.count, "\(name)")
        for v in members { #expect(set.contains(v)) }
        for _ in 0..<50_000 {
            let v = UInt64.random(in: low...high, using: &rng)
            #expect(set.contains(v) == reference.contains(v))
        }
        #expect(set.contains(high &+ 1) == reference.contains(high &+ 1))
        #expect(!IntegerSet([UInt64]()).contains(0 as UInt64))
    }

    @Test func signedValues() {
        let set = IntegerSet([-5, 0, 7, Int64.max] as [Int64])
        #expect(set.contains(-5 as Int64) && set.contains(0 as Int64) && set.contains(Int64.max))
        #expect(!set.contains(5 as Int64) && !set.contains(-7 as Int64) && set.count == 4)
        let dense = IntegerSet([3, 1, 3] as [Int64])
        #expect(dense.count == 2 && dense.contains(1 as Int64) && !dense.contains(2 as Int64) && !dense.contains(-1 as Int64))
    }
}
