/// A small, fast, deterministic PRNG (SplitMix64): the same seed gives the same data set on
/// every machine, which `RandomNumberGenerator`'s system generator cannot promise.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A derived, independent stream (so each file's data does not depend on the others').
    package func fork(_ salt: UInt64) -> SplitMix64 {
        var copy = SplitMix64(seed: state ^ (salt &* 0x2545_F491_4F6C_DD1D))
        _ = copy.next()
        return copy
    }

    /// Uniform in [0, 1).
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    package mutating func int(_ range: Range<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    package mutating func chance(_ p: Double) -> Bool { unit() < p }

    package mutating func pick<T>(_ a: [T]) -> T { a[int(0..<a.count)] }

    /// A power-law index in 0..<n: P(index < x) = (x/n)^(1/k), so small indices dominate.
    package mutating func skewed(_ n: Int, k: Double = 3) -> Int {
        min(n - 1, Int(Double(n) * pow(unit(), k)))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
