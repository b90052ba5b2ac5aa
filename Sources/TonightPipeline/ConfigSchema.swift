/// Every configuration key with its default, type and meaning. The config file may set any
/// of them; an unknown key is an error. Stages declare which keys they read, and exactly
/// those values enter their fingerprints.
package enum ConfigSchema {
    package enum Kind: Sendable { case string, int, double, bool, stringList, intList }

    package struct Key: Sendable {
        package let name: String
        package let kind: Kind
        package let defaultValue: ConfigValue
        package let doc: String
    }

    package static let keys: [Key] = [
        // paths
        Key(name: "paths.inputs", kind: .string, defaultValue: .string(""), doc: "input directory (feed.xml, affinity.txt, tickets/, playmate/); empty: bundled Fixtures/tiny/input"),
        Key(name: "paths.work", kind: .string, defaultValue: .string(".tonight/work"), doc: "run store"),
        Key(name: "paths.out", kind: .string, defaultValue: .string(".tonight"), doc: "snapshot root (OUT/snapshots/...)"),
        Key(name: "work.retainRuns", kind: .int, defaultValue: .int(20), doc: "run directories kept in the run store"),
        // feed.md
        Key(name: "feed.camefrom", kind: .string, defaultValue: .string(""), doc: "affiliate code replacing [=CAMEFROM=] in URLs"),
        Key(name: "feed.maxRejectShare", kind: .double, defaultValue: .double(0.05), doc: "largest share of rejected records per section"),
        Key(name: "feed.limits.maxDepth", kind: .int, defaultValue: .int(32), doc: "deepest element nesting"),
        Key(name: "feed.limits.maxTextBytes", kind: .int, defaultValue: .int(1 << 20), doc: "longest text or attribute value"),
        Key(name: "feed.limits.maxNameBytes", kind: .int, defaultValue: .int(1024), doc: "longest element name"),
        Key(name: "feed.limits.maxAttributes", kind: .int, defaultValue: .int(64), doc: "most attributes per element"),
        Key(name: "feed.limits.maxUnknownNames", kind: .int, defaultValue: .int(1000), doc: "most distinct unknown element/attribute/namespace names"),
        Key(name: "feed.limits.maxInputBytes", kind: .int, defaultValue: .int(4 << 30), doc: "largest decompressed input"),
        Key(name: "feed.limits.maxCompressionRatio", kind: .double, defaultValue: .double(200), doc: "largest decompressed/compressed ratio (bombs)"),
        // affinity.md
        Key(name: "affinity.maxRejectShare", kind: .double, defaultValue: .double(0.05), doc: "largest share of rejected recommendation lines"),
        // user-data.md
        Key(name: "exports.maxRejectShare", kind: .double, defaultValue: .double(0.01), doc: "largest share of rejected rows per export file"),
        Key(name: "exports.maxFieldBytes", kind: .int, defaultValue: .int(1 << 16), doc: "longest quoted CSV field (longer: an unterminated quote)"),
        Key(name: "exports.maxFieldLines", kind: .int, defaultValue: .int(16), doc: "most lines one quoted CSV field may span"),
        // recommendations.md
        Key(name: "recommendations.horizonDays", kind: .double, defaultValue: .double(60), doc: "upcoming window"),
        Key(name: "recommendations.excludedStatuses", kind: .intList, defaultValue: .intList([]), doc: "EventStatus codes never recommended"),
        Key(name: "recommendations.radiusKm", kind: .double, defaultValue: .double(80), doc: "default user radius"),
        Key(name: "recommendations.popularityPrior", kind: .double, defaultValue: .double(50), doc: "C of the Bayesian star rating"),
        Key(name: "recommendations.explore.includeFavorites", kind: .bool, defaultValue: .bool(true), doc: "favourites score 1.0"),
        Key(name: "recommendations.explore.timeDecayDays", kind: .double, defaultValue: .double(21), doc: "tau_t"),
        Key(name: "recommendations.explore.distanceDecayKm", kind: .double, defaultValue: .double(40), doc: "tau_d"),
        Key(name: "recommendations.explore.perArtist", kind: .int, defaultValue: .int(2), doc: "events per artist"),
        Key(name: "recommendations.explore.size", kind: .int, defaultValue: .int(50), doc: "explore list length"),
        Key(name: "recommendations.explore.minItems", kind: .int, defaultValue: .int(10), doc: "popular backfill up to"),
        Key(name: "recommendations.feed.size", kind: .int, defaultValue: .int(100), doc: "favourites feed length"),
        Key(name: "recommendations.tonight.from", kind: .string, defaultValue: .string("17:00"), doc: "earliest local start on D"),
        Key(name: "recommendations.tonight.until", kind: .string, defaultValue: .string("04:00"), doc: "latest local start on D+1"),
        Key(name: "recommendations.tonight.size", kind: .int, defaultValue: .int(3), doc: "notification picks"),
        Key(name: "recommendations.sessions.radiusKm", kind: .double, defaultValue: .double(80.4672), doc: "Playmate radius (50 miles)"),
        Key(name: "recommendations.sessions.size", kind: .int, defaultValue: .int(8), doc: "suggested sessions"),
        Key(name: "recommendations.sessions.weights.sport", kind: .double, defaultValue: .double(5.2), doc: "sportWeight weight"),
        Key(name: "recommendations.sessions.weights.friends", kind: .double, defaultValue: .double(2.3), doc: "friends weight"),
        Key(name: "recommendations.sessions.weights.gender", kind: .double, defaultValue: .double(1.2), doc: "genderMatches weight"),
        Key(name: "recommendations.sessions.weights.age", kind: .double, defaultValue: .double(1.9), doc: "ageMatches weight"),
        Key(name: "catalog.suggestSize", kind: .int, defaultValue: .int(10), doc: "artists per artist_suggest prefix"),
        Key(name: "catalog.suggestMaxPrefix", kind: .int, defaultValue: .int(4), doc: "longest artist_suggest prefix"),
        Key(name: "catalog.categoryArtistsSize", kind: .int, defaultValue: .int(200), doc: "artists per category"),
        Key(name: "catalog.geohashPrecision", kind: .int, defaultValue: .int(4), doc: "nearby cell precision"),
        // snapshots.md
        Key(name: "snapshot.frameBytes", kind: .int, defaultValue: .int(64 << 10), doc: "largest uncompressed frame"),
        Key(name: "snapshot.compressionLevel", kind: .int, defaultValue: .int(1), doc: "zstd level"),
        Key(name: "snapshot.retain", kind: .int, defaultValue: .int(7), doc: "snapshots kept"),
        Key(name: "publish.maxShrink", kind: .double, defaultValue: .double(0.5), doc: "largest shrink of a dataset against the current snapshot"),
        // pipeline.md
        Key(name: "sharding.count", kind: .int, defaultValue: .int(1), doc: "shards of the per-user stages"),
    ]

    package static let byName: [String: Key] = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })
}

/// A typed configuration value with a canonical text form (used in fingerprints).
package enum ConfigValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case stringList([String])
    case intList([Int])

    package var description: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .stringList(let l): return "[" + l.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        case .intList(let l): return "[" + l.map(String.init).joined(separator: ",") + "]"
        }
    }
}
