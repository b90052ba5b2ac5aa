import Foundation
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo

/// `load-tickets`: the Tickets Tonight CSV exports to the `users` table (one record per user
/// with location, budget, favourites, follows, dismissals), home ZIPs geocoded, and the
/// `favorites` table (users per favourite artist, which the catalog publishes).
package struct LoadTicketsStage: Stage {
    package init() {}

    package let name = "load-tickets"
    package let summary = "read the Tickets Tonight exports (RFC 4180 CSV), validate, geocode home ZIPs"
    package let inputs: [StageInput] = [.directory(role: "tickets", path: "tickets"), .stage("parse-feed")]
    package let configKeys: [any AnyConfigKey] = [
        ConfigKeys.Exports.maxRejectShare, ConfigKeys.Exports.maxFieldBytes, ConfigKeys.Exports.maxFieldLines,
        ConfigKeys.Exports.allowEmpty,
    ]

    /// How far a quoted CSV field may run (`exports.maxFieldBytes`, `exports.maxFieldLines`).
    static func csvLimits(_ config: TonightConfig) -> CSVLimits {
        CSVLimits(maxFieldBytes: config[ConfigKeys.Exports.maxFieldBytes], maxFieldLines: config[ConfigKeys.Exports.maxFieldLines])
    }
    package let tables = ["users", "favorites", "rejects"]
    /// Home ZIPs are placed with the bundled table's ZIP points.
    package let bundledData: [BuildIdentity.Resource] = [.geotable]

    package func run(_ context: StageContext) throws -> StageOutcome {
        func seconds(since t: UInt64) -> String { String(format: "%.2f", Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9) }
        // The feed's ids are read on one core while users.csv is parsed on the other.
        var loader = TicketsLoader(zips: { try ZIPPoints.bundled() }) {
            let artists = try context.read(.feedArtists).map(\.id)
            let events = try context.read(.feedEvents).map(\.id)
            return KnownFeedIDs(artists: IntegerSet(artists), events: IntegerSet(events))
        }
        loader.maxRejectShare = context.config[ConfigKeys.Exports.maxRejectShare]
        loader.allowEmpty = context.config[ConfigKeys.Exports.allowEmpty]
        loader.csvLimits = Self.csvLimits(context.config)
        let input = (try? FileManager.default.contentsOfDirectory(atPath: context.inputsDirectory.appendingPathComponent("tickets").path)) ?? []
        context.progress.measure(.bytes, total: input.reduce(Int64(0)) { $0 + max(0, FileIO.size(context.inputsDirectory.appendingPathComponent("tickets/" + $1))) })
        let loadStart = DispatchTime.now().uptimeNanoseconds
        let export = try loader.load(directory: context.inputsDirectory.appendingPathComponent("tickets"))
        let loaded = seconds(since: loadStart)
        context.progress.update(done: Int64(export.bytes))
        let writeStart = DispatchTime.now().uptimeNanoseconds
        let out = context.outputDirectory
        try export.users.write(to: context.url(of: .ticketsUsers))
        try context.write(try export.users.favoriteCounts(), to: .artistFavorites)
        try writeNDJSON(export.rejects, to: out.appendingPathComponent("rejects.ndjson"))
        var outcome = StageOutcome()
        outcome.rows = ["users": export.users.count]
        for (file, n) in export.rows { outcome.rows["rows." + file] = n }
        outcome.warnings = export.counts
        for r in export.rejects { outcome.rejects[r.reason, default: 0] += 1 }
        outcome.countRejectsByFile(export.rejects.map(\.file))
        outcome.details["inputBytes"] = String(export.bytes)
        outcome.details["seconds.load"] = loaded
        for (phase, t) in export.seconds { outcome.details["seconds.load." + phase] = String(format: "%.2f", t) }
        outcome.details["seconds.write"] = seconds(since: writeStart)
        context.sayExportFaults(export.examples, counts: export.counts, folder: "tickets", into: &outcome)
        return outcome
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        switch table {
        case "users": try dump(.ticketsUsers, from: dir, to: sink)
        case "favorites": try dump(.artistFavorites, from: dir, to: sink)
        case "rejects": try dumpFile(dir.appendingPathComponent("rejects.ndjson"), to: sink)
        default: throw unknownTable(table)
        }
    }
}
