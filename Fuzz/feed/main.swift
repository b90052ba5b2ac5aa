// libFuzzer target: the feed parser (plain, gzip or zstd by magic bytes) on arbitrary bytes.
// Build and run: scripts/fuzz.sh feed SECONDS
import Foundation
import TonightFuzzSupport
import TonightCore
import TonightFeed

let directory = FuzzSupport.scratch("feed")

FuzzSupport.run { data, size in
    let url = directory.appendingPathComponent("feed.xml")
    FuzzSupport.write(data, size, to: url)
    var options = FeedParserOptions()
    options.maxRejectShare = 1
    // Small limits so that hostile shapes hit them within the fuzzer's input sizes.
    options.limits.maxTextBytes = 4096
    options.limits.maxDepth = 16
    options.limits.maxUnknownNames = 64
    options.input.maxBytes = 1 << 22
    _ = try? FeedParser.parse(url, options: options)
}
