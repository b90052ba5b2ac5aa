import Foundation
import TonightFuzzTargets
import TonightGenerator
import TonightTesting

/// The seeds of each target (`FuzzTarget.seeds`, the ones `scripts/fuzz.sh` writes), made once
/// per test process, and deterministic mutations of them.
enum FuzzSeeds {
    static let sources = FuzzSeedSources(root: packageRoot, scratch: temporaryDirectory("fuzz-seeds"))

    static func seeds(_ target: any FuzzTarget.Type) throws -> [FuzzSeed] {
        try target.seeds(sources)
    }

    /// `count` mutants of `seed` (the first `keepingPrefix` bytes left alone), the same on
    /// every run: cut short, one to four bytes replaced by bytes parsers trip on, a piece
    /// repeated, a piece dropped.
    static func mutants(of seed: [UInt8], keepingPrefix keep: Int, count: Int) -> [[UInt8]] {
        guard seed.count > keep + 1 else { return [] }
        var rng = SplitMix64(seed: UInt64(seed.count) &* 0x9E37_79B9_7F4A_7C15)
        // NUL, 0xFF, line ends, quote, comma, < > &, backslash, braces, a stray continuation
        // byte, two lead bytes, digit, minus, point, e, space.
        let tricky: [UInt8] = [0x00, 0xFF, 0x0A, 0x0D, 0x22, 0x2C, 0x3C, 0x3E, 0x26, 0x5C,
                               0x7B, 0x7D, 0x80, 0xC3, 0xE2, 0x39, 0x2D, 0x2E, 0x65, 0x20]
        var out: [[UInt8]] = []
        let body = seed.count - keep
        for n in 0..<count {
            var m = seed
            switch n % 4 {
            case 0:
                m.removeLast(1 + Int(rng.next() % UInt64(body - 1)))
            case 1:
                for _ in 0...(rng.next() % 4) {
                    m[keep + Int(rng.next() % UInt64(body))] = tricky[Int(rng.next() % UInt64(tricky.count))]
                }
            case 2:
                let start = keep + Int(rng.next() % UInt64(body))
                let end = min(seed.count, start + 1 + Int(rng.next() % 64))
                m.insert(contentsOf: seed[start..<end], at: start)
            default:
                let start = keep + Int(rng.next() % UInt64(body))
                let end = min(seed.count, start + 1 + Int(rng.next() % 64))
                m.removeSubrange(start..<end)
            }
            out.append(m)
        }
        return out
    }
}
