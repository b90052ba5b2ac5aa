import Foundation
import Testing
import TonightCore
import TonightGenerator
@testable import TonightPipeline
import TonightSnapshot

/// `catalog.categoryArtistsSize` (200) cuts each `category_artists` list after the ranking
/// (recommendations.md: favourites, then upcoming events, name, id). No generated category
/// holds 200 artists (`small`'s hold 1 to 5), so the cap is tested at 1 and 2: the same
/// `small` night re-run with the smaller cap must publish, for every category, the first
/// artists of the uncut list.
@Suite struct CategoryArtistsCapTests {
    struct Entry: Decodable {
        let key: String
        let items: [ArtistSummary]
    }

    static func lists(_ snapshot: Snapshot) throws -> [String: [ArtistSummary]] {
        var out: [String: [ArtistSummary]] = [:]
        try snapshot.dataset("category_artists").forEachRecord { json in
            let entry = try JSONDecoder().decode(Entry.self, from: Data(json))
            out[entry.key] = entry.items
        }
        return out
    }

    @Test(arguments: [1, 2])
    func aSmallerCapPublishesTheFirstArtistsOfEachList(_ cap: Int) throws {
        let inputs = temporaryDirectory("tonight-small")
        _ = try DatasetGenerator(scale: .small, seed: 11).generate(into: inputs)
        let work = temporaryDirectory()
        let snapshots = work.appendingPathComponent("out/snapshots")
        try runner(inputs: inputs, work: work).run()
        let full = try Self.lists(Snapshot.openCurrent(in: snapshots))

        let config = try TonightConfig.parse("catalog:\n  categoryArtistsSize: \(cap)\n", path: "test.yaml")
        let record = try runner(inputs: inputs, work: work, config: config).run()
        // Only the catalog (and what reads it) runs again.
        #expect(record.stages.first { $0.stage == "catalog" }?.action == "run")
        #expect(record.stages.first { $0.stage == "tickets" }?.action == "reuse")
        let s = try Snapshot.openCurrent(in: snapshots)
        let cut = try Self.lists(s)
        #expect(cut.keys.sorted() == full.keys.sorted())
        for (category, items) in full {
            #expect(cut[category]?.map(\.id) == items.prefix(cap).map(\.id), "category \(category)")
            #expect(cut[category]?.map(\.favorites) == items.prefix(cap).map(\.favorites), "category \(category)")
        }
        // The cut binds: many categories have more artists than that (34 and 13).
        #expect(full.values.filter { $0.count > cap }.count > 10, "\(full.values.map(\.count).sorted())")
        let report = s.verify(references: true)
        #expect(report.isValid, "\(report.problems)")
    }
}
