import Foundation
import TonightCore
import TonightExports
import TonightGeo

/// `load-playmate`: the Playmate CSV exports to the `players` and `sessions` tables.
package struct LoadPlaymateStage: Stage {
    package init() {}

    package let name = "load-playmate"
    package let summary = "read the Playmate exports (RFC 4180 CSV): players, quiz, sessions, members, friends"
    package let inputs: [StageInput] = [.directory(role: "playmate", path: "playmate")]
    package let configKeys: [any AnyConfigKey] = [
        ConfigKeys.Exports.maxRejectShare, ConfigKeys.Exports.maxFieldBytes, ConfigKeys.Exports.maxFieldLines,
        ConfigKeys.Exports.allowEmpty,
    ]
    /// Birthdays after the run date are rejected.
    package let readsAsOf = true
    package let tables = ["players", "sessions", "rejects"]
    /// Coordinates given the wrong way round are found with the bundled table's ZIP points.
    package let bundledData: [BuildIdentity.Resource] = [.geotable]

    package func run(_ context: StageContext) throws -> StageOutcome {
        var loader = PlaymateLoader(runDate: context.runDate)
        loader.maxRejectShare = context.config[ConfigKeys.Exports.maxRejectShare]
        loader.allowEmpty = context.config[ConfigKeys.Exports.allowEmpty]
        loader.zipPoints = try ZIPPoints.bundled()
        loader.csvLimits = LoadTicketsStage.csvLimits(context.config)
        context.progress.measure(.bytes, total: context.directories["playmate"]?.reduce(Int64(0)) { $0 + max(0, FileIO.size($1)) } ?? 0)
        let export = try loader.load(directory: context.inputsDirectory.appendingPathComponent("playmate"))
        context.progress.update(done: Int64(export.bytes))
        let out = context.outputDirectory
        try context.write(export.players, to: .players)
        try context.write(export.sessions, to: .sessions)
        try writeNDJSON(export.rejects, to: out.appendingPathComponent("rejects.ndjson"))
        var outcome = StageOutcome()
        outcome.rows = ["players": export.players.count, "sessions": export.sessions.count]
        for (file, n) in export.rows { outcome.rows["rows." + file] = n }
        outcome.warnings = export.counts
        for r in export.rejects { outcome.rejects[r.reason, default: 0] += 1 }
        outcome.countRejectsByFile(export.rejects.map(\.file))
        outcome.details["inputBytes"] = String(export.bytes)
        context.sayExportFaults(export.examples, counts: export.counts, folder: "playmate", into: &outcome)
        return outcome
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard table != "rejects" else { return try dumpFile(dir.appendingPathComponent("rejects.ndjson"), to: sink) }
        guard tables.contains(table) else { throw unknownTable(table) }
        // Player indices are shown as the players' ids.
        let ids = try StageTable.players.read(in: dir).map(\.id)
        switch table {
        case "players": try dump(.players, from: dir, names: ids, to: sink)
        default: try dump(.sessions, from: dir, names: ids, to: sink)
        }
    }
}
