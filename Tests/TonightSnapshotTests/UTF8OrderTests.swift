import TonightBase
import Foundation
import Testing
import TonightGenerator
@testable import TonightSnapshot

/// Key order by UTF-8 bytes, and the distance helpers the ranking relies on.
@Suite struct UTF8OrderTests {
    static func byBytes(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }

    @Test func sortedIndicesIsByteOrderAndStable() {
        var keys = ["b", "a", "", "abcdefgh", "abcdefghi", "abcdefgg", "abcdefgh", "Zürich", "Zurich", "é", "e\u{301}",
                    "😀", "gsDYBAAAAA", "gsDYBAAAAB", "gsDYBAAAA", "a\u{0}b", "a"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let n = Int.random(in: 0...14, using: &rng)
            keys.append(String((0..<n).map { _ in "aAbB0é\u{7F}~".randomElement(using: &rng)! }))
        }
        let order = UTF8Order.sortedIndices(keys)
        #expect(order.count == keys.count && Set(order).count == keys.count)
        for (x, y) in zip(order, order.dropFirst()) {
            #expect(!Self.byBytes(keys[y], keys[x]), "\(keys[x]) before \(keys[y])")
            if keys[x] == keys[y] { #expect(x < y, "equal keys keep their order") }
            #expect(UTF8Order.less(keys[x], keys[y]) == Self.byBytes(keys[x], keys[y]))
        }
    }

    /// The radix sort of the first eight bytes and the comparison of the rest give exactly
    /// the permutation of a stable sort by bytes: keys sharing eight bytes or more, shorter
    /// than eight, with NUL and bytes above 0x7F, repeated, all with one first byte (passes
    /// skipped) or spread.
    @Test(arguments: [(1, 3), (2, 12), (3, 20), (4, 9)])
    func sortedIndicesEqualsAStableSortByBytes(_ seed: UInt64, _ maxLength: Int) {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt64 { rng.next() }
        let alphabet: [Character] = ["a", "b", "0", "\u{0}", "é", "~", "Z"]
        let stems = ["", "gsDYBAAA", "gsDYBAAAx", "user-0000"]
        let keys = (0..<30_000).map { _ -> String in
            let stem = seed == 4 ? "u" : stems[Int(next() % UInt64(stems.count))]
            return stem + String((0..<Int(next() % UInt64(maxLength + 1))).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
        }
        let reference = keys.indices.sorted { a, b in
            let (x, y) = (Array(keys[a].utf8), Array(keys[b].utf8))
            return x == y ? a < b : x.lexicographicallyPrecedes(y)
        }
        #expect(UTF8Order.sortedIndices(keys) == reference)
        #expect(UTF8Order.sortedIndices([]) == [])
        #expect(UTF8Order.sortedIndices(["only"]) == [0])
    }

    @Test func precomputedCosinesGiveTheSameBits() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let (a, b) = (Double.random(in: -90...90, using: &rng), Double.random(in: -180...180, using: &rng))
            // Valid latitudes only (the loaders reject others): past a pole Δlat is not the arc.
            let c = min(90, max(-90, a + Double.random(in: -3...3, using: &rng)))
            let d = b + Double.random(in: -3...3, using: &rng)
            let plain = GeoDistance.km(a, b, c, d)
            let fast = GeoDistance.km(a, b, cosLat1: GeoDistance.cosLatitude(a), c, d, cosLat2: GeoDistance.cosLatitude(c))
            #expect(plain.bitPattern == fast.bitPattern)
            // The latitude band never rejects a point in reach: distance >= |Δlat| · km per degree.
            #expect(abs(c - a) * GeoDistance.kmPerDegree <= plain * (1 + 1e-9) + 1e-9)
        }
    }

    /// `kmPerDegree` is a literal (a computed static is initialised lazily, a call per read):
    /// it must be the product it stands for, to the bit.
    @Test func kilometresPerDegreeIsTheEarthRadiusInRadians() {
        let product = GeoDistance.earthRadiusKm * (Double.pi / 180)
        #expect(GeoDistance.kmPerDegree.bitPattern == product.bitPattern)
    }
}
