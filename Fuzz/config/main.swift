// libFuzzer target: the config loader (YAML through Yams, then every key's rule).
// Build and run: scripts/fuzz.sh config SECONDS
import Foundation
import TonightFuzzSupport
import TonightPipeline

FuzzSupport.run { data, size in
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? TonightConfig.parse(text, path: "fuzz.yaml")
}
