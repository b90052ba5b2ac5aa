import Foundation
import TonightBase
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo
import TonightRanking
import TonightSnapshot
import TonightSnapshotWriter

/// `catalog`: the cleaned events, venues, artists and categories and the `artist_suggest`,
/// `category_artists` and `nearby` indexes and the artist and venue pages (`artist_events`,
/// `venue_events`, `artist_years`), written as snapshot datasets.
package struct CatalogStage: Stage {
    package init() {}

    package let name = "catalog"
    package let usesEveryCore = true
    package let summary = "catalog datasets (events, venues, artists, categories) and their indexes"
    package let inputs: [StageInput] = [.stage("parse-feed"), .stage("geocode"), .stage("load-tickets")]
    package let configKeys: [any AnyConfigKey] = [
        ConfigKeys.Recommendations.horizonDays, ConfigKeys.Recommendations.excludedStatuses, ConfigKeys.Catalog.suggestSize,
        ConfigKeys.Catalog.suggestMaxPrefix, ConfigKeys.Catalog.categoryArtistsSize, ConfigKeys.Catalog.geohashPrecision,
        ConfigKeys.ArtistEvents.size, ConfigKeys.Recommendations.popularityPrior,
    ] + DatasetFiles.configKeys
    package let readsAsOf = true
    package static let datasetNames = [
        "events", "venues", "artists", "categories", "artist_suggest", "category_artists", "nearby",
        "artist_events", "venue_events", "artist_years", "event_search",
    ]
    /// The datasets that take longest to build and write (`seconds.dataset.*` on realistic
    /// full), started first so that the short ones fill the cores at the end.
    static let longestFirst = ["events", "artist_suggest", "artists", "event_search", "artist_years", "artist_events"]
    package var tables: [String] { Self.datasetNames }
    package var datasets: [String] { Self.datasetNames }

    package static func settings(_ config: TonightConfig, asOf: Int64) -> CatalogBuilder.Settings {
        CatalogBuilder.Settings(
            asOf: asOf, horizonDays: config[ConfigKeys.Recommendations.horizonDays],
            excludedStatuses: Set(config[ConfigKeys.Recommendations.excludedStatuses].map(Int64.init)),
            suggestSize: config[ConfigKeys.Catalog.suggestSize], suggestMaxPrefix: config[ConfigKeys.Catalog.suggestMaxPrefix],
            categoryArtistsSize: config[ConfigKeys.Catalog.categoryArtistsSize],
            geohashPrecision: config[ConfigKeys.Catalog.geohashPrecision], artistEventsSize: config[ConfigKeys.ArtistEvents.size],
            popularityPrior: config[ConfigKeys.Recommendations.popularityPrior])
    }

    /// How `settings` shape the keys of dataset `name` (the manifest's `keyForm`): prefixes,
    /// cells, or nil for ids.
    static func keyForm(_ name: String, _ settings: CatalogBuilder.Settings) -> SnapshotManifest.KeyForm? {
        switch name {
        case "artist_suggest", "event_search": SnapshotManifest.KeyForm(maxPrefixScalars: settings.suggestMaxPrefix)
        case "nearby", "planner": SnapshotManifest.KeyForm(geohashLength: settings.geohashPrecision)
        default: nil
        }
    }

    package func run(_ context: StageContext) throws -> StageOutcome {
        var clock = PhaseClock()
        // The five tables on two cores (artists, the largest, beside the other four): read one
        // after another, they were a sixth of the stage with a core idle.
        let ((artists, categories), (venues, events, favorites)) = try Parallel.both({
            (try context.read(.feedArtists), try context.read(.feedCategories))
        }, {
            (try context.read(.placedVenues), try context.read(.locatedEvents), try Self.favoriteCounts(context))
        })
        clock.lap("read")
        let settings = Self.settings(context.config, asOf: context.asOf)
        let builder = CatalogBuilder(
            settings: settings, artists: artists, categories: categories,
            venues: venues, events: events)
        let makers: [@Sendable () throws -> CatalogBuilder.Records] = [
            builder.eventRecords, builder.venueRecords, { builder.artistRecords(favorites: favorites) },
            builder.categoryRecords, { builder.artistSuggestRecords(favorites: favorites) },
            { builder.categoryArtistRecords(favorites: favorites) }, builder.nearbyRecords,
            builder.artistEventRecords, builder.venueEventRecords, builder.artistYearRecords, builder.eventSearchRecords,
        ]
        // Progress: each dataset counts once built and once written.
        context.progress.measure(.datasets, total: Int64(2 * makers.count))
        let done = Locked<Int64>(0)
        let progress = context.progress
        var files = DatasetFiles(directory: context.outputDirectory, config: context.config)
        var outcome = StageOutcome()
        // Each dataset is built and written (its dictionary trained) by one task, the tasks
        // taken by the cores as they come free, the longest first: no core waits at a barrier
        // between building and writing. Summaries are listed in the fixed order.
        let names = Self.datasetNames, shape = files
        let order = Self.longestFirst.compactMap { names.firstIndex(of: $0) } + names.indices.filter { !Self.longestFirst.contains(names[$0]) }
        let results = try Parallel.map(order.count) { j -> (DatasetWriter.Summary, Int, Double, Double) in
            try Interruption.check()
            let k = order[j]
            let t0 = DispatchTime.now().uptimeNanoseconds
            let built = try makers[k]()
            let t1 = DispatchTime.now().uptimeNanoseconds
            progress.update(done: done.withLock { $0 += 1; return $0 })
            var w = try shape.writer(names[k])
            do {
                for r in built { try w.append(key: r.key, json: r.json) }
                let summary = try w.finish()
                progress.update(done: done.withLock { $0 += 1; return $0 })
                return (summary, built.count, Double(t1 - t0) / 1e9, Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9)
            } catch let e as SnapshotError {
                throw TonightError(e)
            }
        }
        var summaries = [DatasetWriter.Summary?](repeating: nil, count: names.count)
        var counts = [Int](repeating: 0, count: names.count)
        for (j, k) in order.enumerated() {
            (summaries[k], counts[k]) = (results[j].0, results[j].1)
            outcome.details["seconds.dataset.\(names[k])"] = String(format: "%.2f build, %.2f write", results[j].2, results[j].3)
        }
        clock.lap("build+write")
        for (k, summary) in summaries.enumerated() {
            try files.add(summary!, keyForm: Self.keyForm(names[k], settings))
            outcome.rows[names[k]] = counts[k]
        }
        try files.finish()
        clock.lap("finish")
        for (k, v) in clock.laps { outcome.details["seconds.\(k)"] = String(format: "%.2f", v) }
        return outcome
    }

    /// How many users list each artist as a favourite: load-tickets' `favorites` table.
    static func favoriteCounts(_ context: StageContext) throws -> [Int64: Int] {
        let rows = try context.read(.artistFavorites)
        var counts: [Int64: Int] = [:]
        counts.reserveCapacity(rows.count)
        for r in rows { counts[r.artist] = r.users }
        return counts
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }
}
