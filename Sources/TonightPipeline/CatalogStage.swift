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
    /// full), started first so that the short ones fill the cores at the end; `artist_suggest`
    /// and `artists` wait for the favourite counts.
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

    package func run(_ context: StageContext) throws -> StageOutcome {
        var clock = PhaseClock()
        // The four tables on two cores (artists, the largest, beside the other three): read one
        // after another, they were a sixth of the stage with a core idle.
        let ((artists, categories), (venues, events)) = try Parallel.both({
            (try context.read(.feedArtists), try context.read(.feedCategories))
        }, {
            (try context.read(.placedVenues), try context.read(.locatedEvents))
        })
        clock.lap("read")
        let builder = CatalogBuilder(
            settings: Self.settings(context.config, asOf: context.asOf), artists: artists, categories: categories,
            venues: venues, events: events)
        // The favourite counts (read from the users table) are the first task; the three
        // datasets that need them wait for them, the others are built meanwhile.
        let favorites = Pending<[Int64: Int]>()
        let makers: [@Sendable () throws -> CatalogBuilder.Records] = [
            builder.eventRecords, builder.venueRecords, { builder.artistRecords(favorites: try favorites.value()) },
            builder.categoryRecords, { builder.artistSuggestRecords(favorites: try favorites.value()) },
            { builder.categoryArtistRecords(favorites: try favorites.value()) }, builder.nearbyRecords,
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
        let favoritesSeconds = Locked(0.0)
        let results = try Parallel.map(order.count + 1) { j -> (DatasetWriter.Summary, Int, Double, Double)? in
            guard j > 0 else {
                // Always set (an error included): the datasets that wait for it must wake.
                let t = DispatchTime.now().uptimeNanoseconds
                favorites.set(Result {
                    try Interruption.check()
                    return try Self.favoriteCounts(context)
                })
                favoritesSeconds.withLock { $0 = Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9 }
                _ = try favorites.value()  // its error, if any, is the stage's
                return nil
            }
            try Interruption.check()
            let k = order[j - 1]
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
        }.dropFirst().map { $0! }
        outcome.details["seconds.favorites"] = String(format: "%.2f", favoritesSeconds.current)
        var summaries = [DatasetWriter.Summary?](repeating: nil, count: names.count)
        var counts = [Int](repeating: 0, count: names.count)
        for (j, k) in order.enumerated() {
            (summaries[k], counts[k]) = (results[j].0, results[j].1)
            // (The build of artists, artist_suggest and category_artists includes waiting for
            // the favourite counts.)
            outcome.details["seconds.dataset.\(names[k])"] = String(format: "%.2f build, %.2f write", results[j].2, results[j].3)
        }
        clock.lap("build+write")
        for (k, summary) in summaries.enumerated() {
            try files.add(summary!)
            outcome.rows[names[k]] = counts[k]
        }
        try files.finish()
        clock.lap("finish")
        for (k, v) in clock.laps { outcome.details["seconds.\(k)"] = String(format: "%.2f", v) }
        return outcome
    }

    /// How many users list each artist as a favourite: the favourites read into one flat
    /// array, then counted: in a dense array when the ids are small non-negative numbers (the
    /// feed's are: a few million at most), else on every core (a dictionary per worker,
    /// merged). The dense count is one increment per favourite instead of a hash lookup.
    static func favoriteCounts(_ context: StageContext) throws -> [Int64: Int] {
        var flat: [Int64] = []
        _ = try context.read(.ticketsUsers, owned: { r, _ -> Never? in
            try TicketsUser.appendFavorites(&r, to: &flat)
            return nil
        })
        return try count(flat)
    }

    /// Occurrences of each value of `all`.
    static func count(_ all: [Int64]) throws -> [Int64: Int] {
        if all.count < Int(Int32.max), let low = all.min(), let high = all.max(), low >= 0, high < Int64(denseLimit) {
            var dense = [Int32](repeating: 0, count: Int(high) + 1)
            dense.withUnsafeMutableBufferPointer { d in
                for a in all { d[Int(a)] &+= 1 }
            }
            var counts: [Int64: Int] = [:]
            counts.reserveCapacity(dense.lazy.filter { $0 != 0 }.count)
            for (a, n) in dense.enumerated() where n != 0 { counts[Int64(a)] = Int(n) }
            return counts
        }
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

    /// Ids below this are counted in a dense array (at most 64 MiB of counters).
    static let denseLimit = 1 << 24

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }
}
