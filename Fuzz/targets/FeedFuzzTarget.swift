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

    /// The tiny feed plain, gzipped and zstd-compressed (the tools that are installed; `.ci/run`
    /// installs both), and the feed tests' hostile samples, which may be refused.
    package static func seeds(_ sources: FuzzSeedSources) throws -> [FuzzSeed] {
        let tiny = "Fixtures/tiny/input/feed.xml"
        var seeds = [FuzzSeed(name: "feed.xml", bytes: try sources.read(tiny), least: 20)]
        for tool in ["gzip", "zstd"] {
            if let bytes = try sources.compressed(tiny, with: tool) {
                seeds.append(FuzzSeed(name: "feed.xml." + (tool == "gzip" ? "gz" : "zst"), bytes: bytes, least: 20))
            }
        }
        let resources = "Tests/TonightFeedTests/Resources"
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.root.appendingPathComponent(resources).path).sorted()
        where file.hasSuffix(".xml") {
            seeds.append(FuzzSeed(name: file, bytes: try sources.read(resources + "/" + file), least: nil))
        }
        return seeds
    }
}
