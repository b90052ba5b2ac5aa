import Foundation
import TonightFeed

/// The feed parser (plain, gzip or zstd, told by magic bytes) on arbitrary bytes, with limits
/// small enough that hostile shapes reach them within the fuzzer's input sizes. Reached: the
/// records kept.
package struct FeedFuzzTarget: FuzzTarget {
    package static let name = "feed"
    private let url: URL
    private let options: FeedParserOptions

    package init(scratch: URL) {
        url = scratch.appendingPathComponent("feed.xml")
        var options = FeedParserOptions()
        options.maxRejectShare = 1
        options.limits.maxTextBytes = 4096
        options.limits.maxDepth = 16
        options.limits.maxUnknownNames = 64
        options.input.maxBytes = 1 << 22
        self.options = options
    }

    package func run(_ input: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome {
        try Self.write(input, to: url)
        guard let result = try? FeedParser.parse(url, options: options) else { return .refused }
        return .accepted(reached: result.artists.count + result.categories.count + result.venues.count + result.events.count)
    }
}
