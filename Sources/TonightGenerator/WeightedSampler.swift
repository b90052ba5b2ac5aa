/// Draws indices with given weights (inverse transform over the cumulative weights: one
/// uniform number and a binary search per draw), for the realistic shape's skew.
struct WeightedSampler: Sendable {
    private let cumulative: [Double]

    init(weights: [Double]) {
        var total = 0.0
        cumulative = weights.map { total += max(0, $0); return total }
    }

    /// Zipf-like weights `1 / (rank + offset)^exponent` for ranks 1...n: a head flattened by
    /// `offset`, then a power-law tail.
    static func zipf(_ n: Int, exponent: Double = 1, offset: Double = 0) -> WeightedSampler {
        WeightedSampler(weights: (1...max(1, n)).map { 1 / pow(Double($0) + offset, exponent) })
    }

    var count: Int { cumulative.count }

    func draw(_ rng: inout SplitMix64) -> Int {
        guard let total = cumulative.last, total > 0 else { return 0 }
        let x = rng.unit() * total
        var lo = 0, hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] > x { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
