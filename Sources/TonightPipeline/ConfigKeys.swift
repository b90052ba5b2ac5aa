/// Every configuration key, declared once: name, default, meaning and valid values. The config
/// file may set any of them (nested mappings name the dotted parts); an unknown key, a wrong
/// type or a value outside its range is an error with its line. Stages name the keys they
/// read, and exactly those values enter their fingerprints. `Pipelines/nightly.yaml` lists
/// them all (a test keeps it in step).
package enum ConfigKeys {
    package enum Paths {
        package static let inputs = ConfigKey("paths.inputs", "", "input directory (feed.xml, affinity.txt, tickets/, playmate/); empty: the bundled Fixtures/tiny/input",
                                              check: ConfigRule.text(max: 4096))
        package static let work = ConfigKey("paths.work", ".tonight/work", "run store", check: nonEmptyPath)
        package static let out = ConfigKey("paths.out", ".tonight", "snapshot root's parent (OUT/snapshots/...)", check: nonEmptyPath)

        static let nonEmptyPath: @Sendable (String) -> String? = { $0.isEmpty ? "must not be empty" : ConfigRule.text(max: 4096)($0) }
    }

    package enum Runs {
        package static let retain = ConfigKey("runs.retain", 20, "run directories kept in the run store after a successful run (older ones are removed unless a kept run or a snapshot still needs them)",
                                              check: ConfigRule.range(1...100_000))
        package static let threads = ConfigKey("runs.threads", 0, "worker threads of every parallel step (0: every core); outputs are the same for any value",
                                               check: ConfigRule.range(0...4096))
        package static let stagesAtOnce = ConfigKey("runs.stagesAtOnce", 0, "stages that may run side by side once their inputs are ready (0: one per worker thread; 1: one after another); two stages that use every core never run together; outputs are the same for any value",
                                                    check: ConfigRule.range(0...4096))
    }

    package enum Feed {
        package static let camefrom = ConfigKey("feed.camefrom", "", "affiliate code replacing [=CAMEFROM=] in URLs", check: ConfigRule.text(max: 256))
        package static let maxRejectShare = ConfigKey("feed.maxRejectShare", 0.05, "largest share of rejected records per section", check: ConfigRule.share)

        package enum Limits {
            package static let maxDepth = ConfigKey("feed.limits.maxDepth", 32, "deepest element nesting", check: ConfigRule.range(5...1_000))
            package static let maxTextBytes = ConfigKey("feed.limits.maxTextBytes", 1 << 20, "longest text of a field or attribute value, in bytes",
                                                        check: ConfigRule.range(64...(1 << 30)))
            package static let maxNameBytes = ConfigKey("feed.limits.maxNameBytes", 1024, "longest element name", check: ConfigRule.range(32...(1 << 20)))
            package static let maxAttributes = ConfigKey("feed.limits.maxAttributes", 64, "most attributes (and namespace declarations) per element",
                                                         check: ConfigRule.range(2...10_000))
            package static let maxUnknownNames = ConfigKey("feed.limits.maxUnknownNames", 1000, "most distinct unknown element/attribute/namespace names",
                                                           check: ConfigRule.range(0...1_000_000))
            package static let maxInputBytes = ConfigKey("feed.limits.maxInputBytes", 4 << 30, "largest decompressed input, in bytes",
                                                         check: ConfigRule.range(1_024...(1 << 40)))
            package static let maxCompressionRatio = ConfigKey("feed.limits.maxCompressionRatio", 200.0, "largest decompressed/compressed ratio (decompression bombs)",
                                                               check: ConfigRule.range(1.0...1_000_000.0))
            package static let zstdWindowLogMax = ConfigKey("feed.limits.zstdWindowLogMax", 27, "largest zstd window accepted, as a power of two (27: 128 MiB, `zstd --long=27`)",
                                                            check: ConfigRule.range(10...31))
        }
    }

    package enum Affinity {
        package static let maxRejectShare = ConfigKey("affinity.maxRejectShare", 0.05, "largest share of rejected recommendation lines", check: ConfigRule.share)
    }

    package enum Exports {
        package static let maxRejectShare = ConfigKey("exports.maxRejectShare", 0.01, "largest share of rejected rows per export file", check: ConfigRule.share)
        package static let maxFieldBytes = ConfigKey("exports.maxFieldBytes", 1 << 16, "longest quoted CSV field (longer: taken for an unterminated quote)",
                                                     check: ConfigRule.range(64...(1 << 20)))
        package static let maxFieldLines = ConfigKey("exports.maxFieldLines", 16, "most lines one quoted CSV field may span", check: ConfigRule.range(1...10_000))
        package static let allowEmpty = ConfigKey("exports.allowEmpty", false,
                                                  "users.csv, favorites.csv, players.csv and sessions.csv may hold a header and no rows (an app that has none yet)")
    }

    package enum Recommendations {
        package static let horizonDays = ConfigKey("recommendations.horizonDays", 60.0, "upcoming window in days", check: ConfigRule.above(0, upTo: 3_650))
        package static let excludedStatuses = ConfigKey("recommendations.excludedStatuses", [Int](), "EventStatus codes never recommended",
                                                        check: ConfigRule.codes(max: 1_000_000))
        package static let radiusKm = ConfigKey("recommendations.radiusKm", 80.0, "default user radius, km", check: ConfigRule.above(0, upTo: 40_075))
        package static let popularityPrior = ConfigKey("recommendations.popularityPrior", 50.0, "C of the Bayesian star rating", check: ConfigRule.range(0.0...1e9))

        package enum Explore {
            package static let includeFavorites = ConfigKey("recommendations.explore.includeFavorites", true, "favourites score 1.0")
            package static let timeDecayDays = ConfigKey("recommendations.explore.timeDecayDays", 21.0, "tau_t, days", check: ConfigRule.above(0, upTo: 36_500))
            package static let distanceDecayKm = ConfigKey("recommendations.explore.distanceDecayKm", 40.0, "tau_d, km", check: ConfigRule.above(0, upTo: 40_075))
            package static let perArtist = ConfigKey("recommendations.explore.perArtist", 2, "events per artist", check: ConfigRule.range(1...1_000))
            package static let size = ConfigKey("recommendations.explore.size", 50, "explore list length", check: ConfigRule.range(1...10_000))
            package static let minItems = ConfigKey("recommendations.explore.minItems", 10, "popular backfill up to this many (at most explore.size)",
                                                    check: ConfigRule.range(0...10_000))
        }

        package enum Feed {
            package static let size = ConfigKey("recommendations.feed.size", 100, "favourites feed length", check: ConfigRule.range(1...10_000))
        }

        package enum Tonight {
            package static let from = ConfigKey("recommendations.tonight.from", "17:00", "earliest venue-local start on the run date D", check: ConfigRule.clock)
            package static let until = ConfigKey("recommendations.tonight.until", "04:00", "latest venue-local start on D+1", check: ConfigRule.clock)
            package static let size = ConfigKey("recommendations.tonight.size", 3, "notification picks", check: ConfigRule.range(1...1_000))
        }

        package enum Sessions {
            package static let radiusKm = ConfigKey("recommendations.sessions.radiusKm", 80.4672, "Playmate radius, km (50 miles)",
                                                    check: ConfigRule.above(0, upTo: 40_075))
            package static let size = ConfigKey("recommendations.sessions.size", 8, "suggested sessions", check: ConfigRule.range(1...1_000))
            package static let weightSport = ConfigKey("recommendations.sessions.weights.sport", 5.2, "sportWeight weight", check: weight)
            package static let weightFriends = ConfigKey("recommendations.sessions.weights.friends", 2.3, "friends weight", check: weight)
            package static let weightGender = ConfigKey("recommendations.sessions.weights.gender", 1.2, "genderMatches weight", check: weight)
            package static let weightAge = ConfigKey("recommendations.sessions.weights.age", 1.9, "ageMatches weight", check: weight)

            static let weight: @Sendable (Double) -> String? = ConfigRule.range(-1_000.0...1_000.0)
        }
    }

    package enum Catalog {
        package static let suggestSize = ConfigKey("catalog.suggestSize", 10, "artists per artist_suggest prefix", check: ConfigRule.range(1...1_000))
        package static let suggestMaxPrefix = ConfigKey("catalog.suggestMaxPrefix", 4, "longest artist_suggest prefix, in Unicode scalars", check: ConfigRule.range(1...16))
        package static let categoryArtistsSize = ConfigKey("catalog.categoryArtistsSize", 200, "artists per category_artists entry", check: ConfigRule.range(1...100_000))
        package static let geohashPrecision = ConfigKey("catalog.geohashPrecision", 4, "nearby cell precision (geohash characters)", check: ConfigRule.range(1...12))
    }

    package enum ArtistEvents {
        package static let size = ConfigKey("artistEvents.size", 200, "longest list of an artist's or a venue's upcoming events (artist_events, venue_events)",
                                            check: ConfigRule.range(1...10_000))
    }

    package enum Planner {
        package static let size = ConfigKey("planner.size", 50, "events listed per planner cell and date (all are counted)", check: ConfigRule.range(1...10_000))
        package static let similarSize = ConfigKey("planner.similarSize", 200, "longest similar_dates list", check: ConfigRule.range(1...10_000))
        package static let minScore = ConfigKey("planner.minScore", 0.05, "least affinity score of an artist's neighbours in similar_dates",
                                                check: ConfigRule.range(0.0...1.0))
    }

    package enum Snapshot {
        package static let frameBytes = ConfigKey("snapshot.frameBytes", 2 << 10, "largest uncompressed frame, in bytes", check: ConfigRule.range(1_024...(64 << 20)))
        package static let dictionaryBytes = ConfigKey(
            "snapshot.dictionaryBytes", 112 << 10, "largest zstd dictionary trained per dataset, in bytes (0: none)",
            check: ConfigRule.range(0...(4 << 20)))
        package static let compressionLevel = ConfigKey("snapshot.compressionLevel", 1, "zstd level", check: ConfigRule.range(-7...19))
        package static let retain = ConfigKey("snapshot.retain", 7, "snapshots kept (never CURRENT or the one before it)", check: ConfigRule.range(1...10_000))
    }

    package enum Publish {
        package static let maxShrink = ConfigKey("publish.maxShrink", 0.5, "largest shrink of a dataset's records against the current snapshot",
                                                 check: ConfigRule.share)
        package static let maxShrinkByDataset = ConfigKey(
            "publish.maxShrinkByDataset", ["tonight": 1.0, "alerts": 1.0],
            "per-dataset overrides of maxShrink (1: unguarded); tonight's picks and alerts follow the day of the week",
            check: ConfigRule.shares)
    }

    package enum Sharding {
        package static let count = ConfigKey("sharding.count", 1, "shards of the per-user stages", check: ConfigRule.range(1...10_000))
        package static let nightHours = ConfigKey(
            "sharding.nightHours", 12, "how long a sharded night's recorded run instant is adopted by its shards and merge",
            check: ConfigRule.range(1...48))
    }

    /// Every key, in the order of the YAML file.
    package static let all: [any AnyConfigKey] = [
        Paths.inputs, Paths.work, Paths.out, Runs.retain, Runs.threads, Runs.stagesAtOnce,
        Feed.camefrom, Feed.maxRejectShare, Feed.Limits.maxDepth, Feed.Limits.maxTextBytes, Feed.Limits.maxNameBytes,
        Feed.Limits.maxAttributes, Feed.Limits.maxUnknownNames, Feed.Limits.maxInputBytes, Feed.Limits.maxCompressionRatio,
        Feed.Limits.zstdWindowLogMax,
        Affinity.maxRejectShare,
        Exports.maxRejectShare, Exports.maxFieldBytes, Exports.maxFieldLines, Exports.allowEmpty,
        Recommendations.horizonDays, Recommendations.excludedStatuses, Recommendations.radiusKm, Recommendations.popularityPrior,
        Recommendations.Explore.includeFavorites, Recommendations.Explore.timeDecayDays, Recommendations.Explore.distanceDecayKm,
        Recommendations.Explore.perArtist, Recommendations.Explore.size, Recommendations.Explore.minItems,
        Recommendations.Feed.size, Recommendations.Tonight.from, Recommendations.Tonight.until, Recommendations.Tonight.size,
        Recommendations.Sessions.radiusKm, Recommendations.Sessions.size, Recommendations.Sessions.weightSport,
        Recommendations.Sessions.weightFriends, Recommendations.Sessions.weightGender, Recommendations.Sessions.weightAge,
        Catalog.suggestSize, Catalog.suggestMaxPrefix, Catalog.categoryArtistsSize, Catalog.geohashPrecision,
        ArtistEvents.size, Planner.size, Planner.similarSize, Planner.minScore,
        Snapshot.frameBytes, Snapshot.compressionLevel, Snapshot.dictionaryBytes, Snapshot.retain,
        Publish.maxShrink, Publish.maxShrinkByDataset, Sharding.count, Sharding.nightHours,
    ]

    package static let byName: [String: any AnyConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// Rules between keys, checked once the whole file is read.
    static func crossCheck(_ c: TonightConfig) -> String? {
        if c[Recommendations.Explore.minItems] > c[Recommendations.Explore.size] {
            return "recommendations.explore.minItems (\(c[Recommendations.Explore.minItems])) must not exceed recommendations.explore.size (\(c[Recommendations.Explore.size]))"
        }
        return nil
    }
}
