import Foundation
import TonightAffinity
import TonightCore
import TonightFeed

/// `parse-affinity`: the affinity text file to the `edges` table, sources resolved by name
/// against parse-feed's artists, targets by id.
package struct ParseAffinityStage: Stage {
    package init() {}

    package let name = "parse-affinity"
    package let summary = "read the artist affinity file and resolve it to feed artist ids"
    package let inputs: [StageInput] = [
        .file(role: "affinity", candidates: ["affinity.txt"], optional: false), .stage("parse-feed"),
    ]
    package let configKeys: [any AnyConfigKey] = [ConfigKeys.Affinity.maxRejectShare]
    package let tables = ["edges", "rejects"]

    package func run(_ context: StageContext) throws -> StageOutcome {
        let t0 = Date()
        // Ids and names straight into one arena (no String per artist).
        var names = ArtistNames()
        _ = try context.read(.feedArtists) { r in
            let (id, name) = try FeedArtist.readIDAndNameBytes(&r)
            names.append(id: id, name: name)
        }
        let t1 = Date()
        var parser = AffinityParser(names: names)
        let t2 = Date()
        parser.maxRejectShare = context.config[ConfigKeys.Affinity.maxRejectShare]
        let size = FileIO.size(context.files["affinity"]!)
        context.progress.measure(.bytes, total: size)
        let result = try parser.parse(context.files["affinity"]!)
        context.progress.update(done: size)
        let t3 = Date()
        context.logger.debug("parse-affinity phases", metadata: ["read": "\(t1.timeIntervalSince(t0))", "index": "\(t2.timeIntervalSince(t1))", "parse": "\(t3.timeIntervalSince(t2))"])
        let out = context.outputDirectory
        try context.write(result.edges, to: .affinityEdges)
        try writeNDJSON(result.rejects, to: out.appendingPathComponent("rejects.ndjson"))
        try FileIO.write(result.unknownSources.map { $0 + "\n" }.joined(), to: out.appendingPathComponent("unknown-sources.txt"))
        var outcome = StageOutcome()
        for (phase, from, to) in [("read", t0, t1), ("index", t1, t2), ("parse", t2, t3)] {
            outcome.details["seconds." + phase] = String(format: "%.3f", to.timeIntervalSince(from))
        }
        outcome.rows = ["edges": result.edges.count, "blocks": result.blocks, "lines": result.recommendationLines]
        for (k, v) in result.counts {
            if k == "bad-score" || k == "bad-line" { outcome.rejects[k] = v } else { outcome.warnings[k] = v }
        }
        if !result.unknownSources.isEmpty {
            outcome.details["unknownSources"] = result.unknownSources.prefix(50).joined(separator: "; ")
                + (result.unknownSources.count > 50 ? " … (\(result.unknownSources.count) in unknown-sources.txt)" : "")
        }
        return outcome
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        switch table {
        case "edges": try dump(.affinityEdges, from: dir, to: sink)
        case "rejects": try dumpFile(dir.appendingPathComponent("rejects.ndjson"), to: sink)
        default: throw unknownTable(table)
        }
    }
}
