import Foundation
import TonightExports
import TonightGeo

/// The RFC 4180 reader through the Tickets Tonight loader. The input is cut at its first two
/// 0xFF bytes (never in UTF-8 text) into users.csv, favorites.csv and follows.csv (event ids;
/// its header alone when the input has fewer parts). Reached: the users loaded.
package struct CSVFuzzTarget: FuzzTarget {
    package static let name = "csv"
    private let directory: URL
    private let zips: ZIPPoints

    package init(scratch: URL) throws {
        directory = scratch
        zips = try ZIPPoints.bundled()
    }

    package func run(_ input: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome {
        let parts = input.split(separator: 0xFF, maxSplits: 2, omittingEmptySubsequences: false)
        try Self.write(parts[0], to: directory.appendingPathComponent("users.csv"))
        try Self.write(parts.count > 1 ? Array(parts[1]) : [], to: directory.appendingPathComponent("favorites.csv"))
        let follows = parts.count > 2 ? Array(parts[2]) : Array("user_id,event_id\n".utf8)
        try Self.write(follows, to: directory.appendingPathComponent("follows.csv"))
        var loader = TicketsLoader(knownArtists: [1, 2, 3], knownEvents: [0xAA], zips: zips)
        loader.maxRejectShare = 1
        loader.csvLimits = CSVLimits(maxFieldBytes: 256, maxFieldLines: 4)
        guard let export = try? loader.load(directory: directory) else { return .refused }
        return .accepted(reached: export.users.count)
    }

    /// The tiny users with their favourites, and with their follows too: every user loads.
    package static func seeds(_ sources: FuzzSeedSources) throws -> [FuzzSeed] {
        let users = try sources.tiny("tickets/users.csv"), favorites = try sources.tiny("tickets/favorites.csv")
        let count = try sources.tinyRows("tickets/users.csv")
        return [
            FuzzSeed(name: "favorites", bytes: users + [0xFF] + favorites, least: count),
            FuzzSeed(name: "with follows", bytes: users + [0xFF] + favorites + [0xFF] + (try sources.tiny("tickets/follows.csv")), least: count),
        ]
    }
}
