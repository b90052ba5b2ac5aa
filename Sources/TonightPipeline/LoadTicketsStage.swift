import Foundation
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo

/// `load-tickets`: the Tickets Tonight CSV exports to the `users` table (one record per user
/// with location, budget, favourites, follows, dismissals), home ZIPs geocoded.
package struct LoadTicketsStage: Stage {
    package init() {}

    package let name = "load-tickets"
    package let summary = "read the Tickets Tonight exports (RFC 4180 CSV), validate, geocode home ZIPs"
    package let inputs: [StageInput] = [.directory(role: "tickets", path: "tickets"), .stage("parse-feed")]
    package let configKeys = ["exports.maxRejectShare"]
    package let implementationVersion = 1
    package let tables = ["users", "rejects"]

    package func run(_ context: StageContext) throws -> StageOutcome {
        let feedDir = context.upstream["parse-feed"]!
        let artists = try BinaryTable.read(
            FeedArtist.self, table: "artists", from: feedDir.appendingPathComponent("artists.bin"),
            row: FeedArtist.readIDAndName)
        let events = try BinaryTable.read(
            FeedEvent.self, table: "events", from: feedDir.appendingPathComponent("events.bin"), row: FeedEvent.readID)
        var loader = TicketsLoader(knownArtists: Set(artists.map(\.id)), knownEvents: Set(events), geocoder: Geocoder())
        loader.maxRejectShare = context.config.double("exports.maxRejectShare")
        let export = try loader.load(directory: context.inputsDirectory.appendingPathComponent("tickets"))
        let out = context.outputDirectory
        try BinaryTable.write(export.users, table: "users", to: out.appendingPathComponent("users.bin"))
        try writeNDJSON(export.rejects, to: out.appendingPathComponent("rejects.ndjson")) { r, w in r.writeJSON(to: &w) }
        var outcome = StageOutcome()
        outcome.rows = ["users": export.users.count]
        for (file, n) in export.rows { outcome.rows["rows." + file] = n }
        outcome.warnings = export.counts
        for r in export.rejects { outcome.rejects[r.reason, default: 0] += 1 }
        outcome.details["inputBytes"] = String(export.bytes)
        return outcome
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        switch table {
        case "users": try dumpTable(TicketsUser.self, table: table, from: dir, to: sink) { r, w in r.writeJSON(to: &w) }
        case "rejects": try dumpFile(dir.appendingPathComponent("rejects.ndjson"), to: sink)
        default: throw unknownTable(table)
        }
    }
}
