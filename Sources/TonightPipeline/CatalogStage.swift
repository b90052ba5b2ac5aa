import Foundation
import TonightBase
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo
import TonightRanking

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
        let artists = try context.read(.feedArtists)
        let categories = try context.read(.feedCategories)
        let venues = try context.read(.placedVenues)
        let events = try context.read(.locatedEvents)
        var favorites: [Int64: Int] = [:]
        for list in try context.read(.ticketsUsers, row: TicketsUser.readFavorites) {
            for a in list { favorites[a, default: 0] += 1 }
        }
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
        var files = DatasetFiles(directory: context.outputDirectory, config: context.config)
        var outcome = StageOutcome()
        for (k, (name, records)) in zip(Self.datasetNames, built).enumerated() {
            try Interruption.check()
            context.progress.update(done: Int64(makers.count + k))
            try files.write(name) { w in
                for r in records { try w.append(key: r.key, json: r.json) }
            }
            outcome.rows[name] = records.count
        }
        try files.finish()
        return outcome
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }
}
