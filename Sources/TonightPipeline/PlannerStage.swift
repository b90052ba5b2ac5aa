import Foundation
import TonightBase
import TonightCore
import TonightRanking

/// `planner`: the planners' calendar (issue 16) — `planner` (per geohash cell and venue-local
/// date, the upcoming events there that day with headliners, popularity and per-category
/// counts) and `similar_dates` (per artist, the upcoming events of its affinity neighbours),
/// written as snapshot datasets. A shared stage: a sharded night runs it in the merge.
package struct PlannerStage: Stage {
    package init() {}

    package let name = "planner"
    package let summary = "planners' calendar per cell and date, and where and when similar artists play"
    package let inputs: [StageInput] = [.stage("parse-feed"), .stage("parse-affinity"), .stage("geocode")]
    package let configKeys: [any AnyConfigKey] = [
        ConfigKeys.Recommendations.horizonDays, ConfigKeys.Recommendations.excludedStatuses,
        ConfigKeys.Recommendations.popularityPrior, ConfigKeys.Catalog.geohashPrecision,
        ConfigKeys.Planner.size, ConfigKeys.Planner.similarSize, ConfigKeys.Planner.minScore,
    ] + DatasetFiles.configKeys
    package let readsAsOf = true
    package static let datasetNames = ["planner", "similar_dates"]
    package var tables: [String] { Self.datasetNames }
    package var datasets: [String] { Self.datasetNames }

    package func run(_ context: StageContext) throws -> StageOutcome {
        var settings = CatalogStage.settings(context.config, asOf: context.asOf)
        settings.plannerSize = context.config[ConfigKeys.Planner.size]
        settings.similarSize = context.config[ConfigKeys.Planner.similarSize]
        settings.plannerMinScore = context.config[ConfigKeys.Planner.minScore]
        let edges = try context.read(.affinityEdges).map { (source: $0.source, target: $0.target, score: $0.score) }
        let builder = CatalogBuilder(
            settings: settings, artists: try context.read(.feedArtists), categories: [],
            venues: try context.read(.placedVenues), events: try context.read(.locatedEvents))
        context.progress.measure(.datasets, total: 2)
        let (planner, similar) = try Parallel.both({ builder.plannerRecords() }, { builder.similarDateRecords(edges: edges) })
        var files = DatasetFiles(directory: context.outputDirectory, config: context.config)
        var outcome = StageOutcome()
        for (k, (name, records)) in zip(Self.datasetNames, [planner, similar]).enumerated() {
            try Interruption.check()
            try files.write(name, keyForm: CatalogStage.keyForm(name, settings)) { w in
                for r in records { try w.append(key: r.key, json: r.json) }
            }
            outcome.rows[name] = records.count
            context.progress.update(done: Int64(k + 1))
        }
        try files.finish()
        return outcome
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }
}
