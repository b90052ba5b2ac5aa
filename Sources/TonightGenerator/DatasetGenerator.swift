import Foundation
import TonightCore
import TonightGeo
import TonightBase

/// `generated.json`: what a generated data set is (scale, seed, asOf) and what it holds.
package struct GeneratedInfo: Codable, Sendable {
    package var scale: String
    package var seed: UInt64
    package var asOfText: String
    package var counts: [String: Int]
    /// `realistic` or `uniform` (absent in data sets of earlier versions: uniform).
    package var shape: String?

    package var asOf: Int64 { CivilTime.parseInstant(asOfText) ?? 0 }

    enum CodingKeys: String, CodingKey {
        case scale, seed, counts, shape
        case asOfText = "asOf"
    }

    /// Reads `DIR/generated.json` if there is one.
    package static func read(_ dir: URL) -> GeneratedInfo? {
        guard let data = try? FileIO.read(dir.appendingPathComponent("generated.json")) else { return nil }
        return try? JSONDecoder().decode(GeneratedInfo.self, from: data)
    }
}

/// `tonight generate`: writes the input layout of pipeline.md for a scale, deterministically.
package struct DatasetGenerator: Sendable {
    package var scale: GeneratorScale
    package var seed: UInt64
    package var asOf: Int64
    package var withFaults: Bool
    package var shape: GeneratorShape

    package static let defaultAsOf: Int64 = CivilTime.parseInstant("2026-01-15T06:00:00Z")!

    package init(scale: GeneratorScale, seed: UInt64, asOf: Int64 = DatasetGenerator.defaultAsOf, withFaults: Bool = false,
                 shape: GeneratorShape = .realistic) {
        self.scale = scale
        self.seed = seed
        self.asOf = asOf
        self.withFaults = withFaults
        self.shape = shape
    }

    /// Writes the data set into `out` (and `out/faults/` with `withFaults`).
    @discardableResult
    package func generate(into out: URL) throws -> GeneratedInfo {
        let root = SplitMix64(seed: seed)
        let geo = GeoTable.bundled
        let database = try TimeZoneDatabase.system()
        var zones: [String: ZoneRules] = [:]
        for name in Set(geo.places.map(\.timeZone) + geo.zips.map(\.timeZone)) { zones[name] = try database.rules(name) }
        let feed = FeedGenerator(scale: scale, asOf: asOf, rng: root.fork(1), geo: geo, zones: zones, shape: shape).generate()
        try FileIO.createDirectory(out.appendingPathComponent("tickets"))
        try FileIO.createDirectory(out.appendingPathComponent("playmate"))
        var planted: [PlantedFault] = []
        let variants = withFaults ? [false, true] : [false]
        for faulty in variants {
            let dir = faulty ? out.appendingPathComponent("faults") : out
            let prefix = faulty ? "faults/" : ""
            try FileIO.createDirectory(dir.appendingPathComponent("tickets"))
            try FileIO.createDirectory(dir.appendingPathComponent("playmate"))
            var xml = FeedXMLWriter(feed: feed, rng: root.fork(2))
            let (feedBytes, feedFaults) = xml.render(faults: faulty, file: prefix + "feed.xml")
            try feedBytes.write(to: dir.appendingPathComponent("feed.xml"))
            var aff = AffinityGenerator(scale: scale, feed: feed, rng: root.fork(3), shape: shape)
            let (affBytes, affFaults) = aff.render(faults: faulty, file: prefix + "affinity.txt")
            try affBytes.write(to: dir.appendingPathComponent("affinity.txt"))
            var users = UserExportGenerator(scale: scale, feed: feed, asOf: asOf, geo: geo, rng: root.fork(4), shape: shape)
            let (csvs, csvFaults) = users.render(faults: faulty, prefix: prefix)
            for (path, bytes) in csvs { try bytes.write(to: dir.appendingPathComponent(path)) }
            planted += feedFaults + affFaults + csvFaults
            if faulty {
                // A truncated copy: cut in the middle of the events section.
                let cut = feedBytes.bytes.count * 3 / 4
                var truncated = ByteBuffer(capacity: cut)
                truncated.bytes = Array(feedBytes.bytes[0..<cut])
                try truncated.write(to: dir.appendingPathComponent("feed-truncated.xml"))
                planted.append(PlantedFault(file: "faults/feed-truncated.xml", line: truncated.currentLine,
                                            reason: "not-well-formed"))
            }
        }
        let info = GeneratedInfo(
            scale: scale.name, seed: seed, asOfText: CivilTime.formatUTC(asOf),
            counts: [
                "artists": feed.artists.count, "categories": feed.categories.count, "venues": feed.venues.count,
                "events": feed.events.count, "affinityBlocks": scale.affinityBlocks, "users": scale.users,
                "players": scale.players, "sessions": scale.sessions,
            ], shape: scale.name == "tiny" ? nil : shape.rawValue)
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try FileIO.write(Array(try enc.encode(info)) + [10], to: out.appendingPathComponent("generated.json"))
        if withFaults {
            try FileIO.write(Array(try enc.encode(planted)) + [10], to: out.appendingPathComponent("faults/faults.json"))
        }
        return info
    }
}
