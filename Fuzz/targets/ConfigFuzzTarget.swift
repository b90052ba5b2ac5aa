import Foundation
import TonightPipeline

/// The config loader: YAML through Yams, then every key's rule. Reached: 1 for a config taken.
package struct ConfigFuzzTarget: FuzzTarget {
    package static let name = "config"

    package init(scratch: URL) {}

    package func run(_ input: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome {
        let text = String(decoding: input, as: UTF8.self)
        guard (try? TonightConfig.parse(text, path: "fuzz.yaml")) != nil else { return .refused }
        return .accepted(reached: 1)
    }

    /// The committed nightly config.
    package static func seeds(_ sources: FuzzSeedSources) throws -> [FuzzSeed] {
        [FuzzSeed(name: "nightly.yaml", bytes: try sources.read("Pipelines/nightly.yaml"), least: 1)]
    }
}
