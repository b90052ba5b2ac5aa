import Foundation
import TonightBase
import TonightCore
import TonightFeed

/// `parse-feed`: the Ticketmaster XML feed to binary tables `artists`, `categories`,
/// `venues`, `events`, plus `rejects` (NDJSON).
package struct ParseFeedStage: Stage {
    package init() {}

    package let name = "parse-feed"
    package let summary = "stream-parse the Ticketmaster feed (libxml2 SAX2) into binary tables"
    package let inputs: [StageInput] = [
        .file(role: "feed", candidates: ["feed.xml", "feed.xml.gz", "feed.xml.zst"], optional: false)
    ]
    package let configKeys: [any AnyConfigKey] = [
        ConfigKeys.Feed.camefrom, ConfigKeys.Feed.maxRejectShare, ConfigKeys.Feed.Limits.maxDepth, ConfigKeys.Feed.Limits.maxTextBytes,
        ConfigKeys.Feed.Limits.maxNameBytes, ConfigKeys.Feed.Limits.maxAttributes, ConfigKeys.Feed.Limits.maxUnknownNames,
        ConfigKeys.Feed.Limits.maxInputBytes, ConfigKeys.Feed.Limits.maxCompressionRatio, ConfigKeys.Feed.Limits.zstdWindowLogMax,
    ]
    package let tables = ["artists", "categories", "venues", "events", "rejects"]

    package static func options(_ config: TonightConfig) -> FeedParserOptions {
        var o = FeedParserOptions()
        o.camefrom = config[ConfigKeys.Feed.camefrom]
        o.maxRejectShare = config[ConfigKeys.Feed.maxRejectShare]
        o.limits.maxDepth = config[ConfigKeys.Feed.Limits.maxDepth]
        o.limits.maxTextBytes = config[ConfigKeys.Feed.Limits.maxTextBytes]
        o.limits.maxNameBytes = config[ConfigKeys.Feed.Limits.maxNameBytes]
        o.limits.maxAttributes = config[ConfigKeys.Feed.Limits.maxAttributes]
        o.limits.maxUnknownNames = config[ConfigKeys.Feed.Limits.maxUnknownNames]
        o.input.maxBytes = Int64(config[ConfigKeys.Feed.Limits.maxInputBytes])
        o.input.maxCompressionRatio = config[ConfigKeys.Feed.Limits.maxCompressionRatio]
        o.input.zstdWindowLogMax = Int32(config[ConfigKeys.Feed.Limits.zstdWindowLogMax])
        return o
    }

    package func run(_ context: StageContext) throws -> StageOutcome {
        let url = context.files["feed"]!
        let size = FileIO.size(url)
        context.progress.measure(.bytes, total: size)
        let result = try Self.parseAndWrite(url, options: Self.options(context.config), to: context.outputDirectory) {
            context.progress.update(done: $0)
        }
        defer { Self.releaseInBackground(result) }
        var outcome = StageOutcome()
        outcome.rows = [
            "artists": result.artists.count, "categories": result.categories.count,
            "venues": result.venues.count, "events": result.events.count,
        ]
        outcome.warnings = result.warnings
        for r in result.rejects { outcome.rejects[r.reason, default: 0] += 1 }
        if !result.unknownElements.isEmpty {
            // Up to 1,000 names (`XMLLimits.maxUnknownNames`), each as long as libxml2 lets a
            // name be: the record lists the first 50, cut at 40 characters, and counts the rest.
            let names = result.unknownElements.sorted { $0.key < $1.key }
            outcome.details["unknownElements"] = Quoted.list(names.lazy.map { "\(TonightError.quoted($0.key, limit: 40)) (\($0.value))" }, limit: 50)
        }
        outcome.details["inputBytes"] = String(result.inputBytes)
        return outcome
    }

    /// Parses and writes the tables: artists, venues and categories are written on another
    /// thread while events are linked; then events and rejects.
    package static func parseAndWrite(
        _ url: URL, options: FeedParserOptions, to dir: URL, progress: ((Int64) -> Void)? = nil
    ) throws -> FeedParseResult {
        let early = BackgroundJob()
        defer { try? early.join() }
        let result = try FeedParser.parse(url, options: options, progress: progress) { artists, venues, categories in
            early.start {
                try StageTable.feedArtists.write(artists, in: dir)
                try StageTable.feedVenues.write(venues, in: dir)
                try StageTable.feedCategories.write(categories, in: dir)
            }
        }
        try StageTable.feedEvents.write(result.events, in: dir)
        try ParseFeedStage().writeNDJSON(result.rejects, to: dir.appendingPathComponent("rejects.ndjson"))
        try early.join()
        return result
    }

    /// Frees a large result on a background thread: a million small strings take tens of
    /// milliseconds to release, which the next stage need not wait for.
    package static func releaseInBackground(_ r: FeedParseResult) {
        let box = ReleaseBox(r)
        Thread.detachNewThread { box.drop() }
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        switch table {
        case "artists": try dump(.feedArtists, from: dir, to: sink)
        case "categories": try dump(.feedCategories, from: dir, to: sink)
        case "venues": try dump(.feedVenues, from: dir, to: sink)
        case "events": try dump(.feedEvents, from: dir, to: sink)
        case "rejects": try dumpFile(dir.appendingPathComponent("rejects.ndjson"), to: sink)
        default: throw unknownTable(table)
        }
    }
}

/// Holds a value until `drop` is called on another thread.
final class ReleaseBox<T>: @unchecked Sendable {
    private var value: T?
    init(_ value: T) { self.value = value }
    func drop() { value = nil }
}
