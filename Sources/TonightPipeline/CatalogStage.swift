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

    package func run(_ context: StageContext) throws -> StageOutcome {
        var clock = PhaseClock()
        let artists = try context.read(.feedArtists)
        let categories = try context.read(.feedCategories)
        let venues = try context.read(.placedVenues)
        let events = try context.read(.locatedEvents)
        clock.lap("read")
        let favorites = try Self.favoriteCounts(context)
        clock.lap("favorites")
        let builder = CatalogBuilder(
            settings: Self.settings(context.config, asOf: context.asOf), artists: artists, categories: categories,
            venues: venues, events: events, favorites: favorites)
        let makers: [@Sendable () -> CatalogBuilder.Records] = [
            builder.eventRecords, builder.venueRecords, builder.artistRecords, builder.categoryRecords,
            builder.artistSuggestRecords, builder.categoryArtistRecords, builder.nearbyRecords,
            builder.artistEventRecords, builder.venueEventRecords, builder.artistYearRecords, builder.eventSearchRecords,
        ]
        // Progress: each dataset counts once built and once written.
        context.progress.measure(.datasets, total: Int64(2 * makers.count))
        let done = Locked<Int64>(0)
        let progress = context.progress
        let built = try Parallel.map(makers.count) { k -> CatalogBuilder.Records in
            let records = makers[k]()
            progress.update(done: done.withLock { $0 += 1; return $0 })
            return records
        }
        clock.lap("build")
        var files = DatasetFiles(directory: context.outputDirectory, config: context.config)
        var outcome = StageOutcome()
        // The datasets are written side by side (each trains its own dictionary, on one core),
        // then listed in their fixed order.
        let names = Self.datasetNames, shape = files
        let summaries = try Parallel.map(names.count) { k -> DatasetWriter.Summary in
            try Interruption.check()
            var w = try shape.writer(names[k])
            do {
                for r in built[k] { try w.append(key: r.key, json: r.json) }
                let summary = try w.finish()
                progress.update(done: done.withLock { $0 += 1; return $0 })
                return summary
            } catch let e as SnapshotError {
                throw TonightError(e)
            }
        }
        for (k, summary) in summaries.enumerated() {
            try files.add(summary)
            outcome.rows[names[k]] = built[k].count
        }
        try files.finish()
        clock.lap("write")
        for (k, v) in clock.laps { outcome.details["seconds.\(k)"] = String(format: "%.2f", v) }
        return outcome
    }

    /// How many users list each artist as a favourite: the favourites read into one flat
    /// array, then counted on every core (a dictionary per worker, merged).
    static func favoriteCounts(_ context: StageContext) throws -> [Int64: Int] {
        var flat: [Int64] = []
        _ = try context.read(.ticketsUsers, owned: { r, _ -> Never? in
            try TicketsUser.appendFavorites(&r, to: &flat)
            return nil
        })
        let all = flat
        let width = Parallel.width
        let parts = try Parallel.map(width) { w -> [Int64: Int] in
            var counts: [Int64: Int] = [:]
            for a in all[Parallel.range(w, of: width, in: all.count)] { counts[a, default: 0] += 1 }
            return counts
        }
        guard var counts = parts.first else { return [:] }
        for part in parts.dropFirst() { counts.merge(part, uniquingKeysWith: +) }
        return counts
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }
}
