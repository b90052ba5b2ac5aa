import Foundation
import Testing
import TonightBase
import TonightGenerator

/// Ids → positions (parse-affinity's targets, the tickets stage's dense artist indexes)
/// against a dictionary filled in order.
@Suite struct IDPositionsTests {
    /// Id sets of every shape the index meets: dense small ids (the array), repeated ids
    /// (the later position wins), ids too sparse or negative for the array (the dictionary).
    static let idSets: [String: [Int64]] = {
        var random = SplitMix64(seed: 5)
        let dense = (0..<3_000).map { _ in Int64(random.next() % 40_000) }
        let sparse = (0..<500).map { _ in Int64(random.next() % 1_000_000_000_000) }
        return [
            "dense with repeats": dense,
            "dense from zero": (0..<2_000).map(Int64.init),
            "sparse": sparse,
            "negative": [-5, 3, 7, -5, 0, 12],
            "one": [0],
            "none": [],
        ]
    }()

    @Test(arguments: ["dense with repeats", "dense from zero", "sparse", "negative", "one", "none"])
    func positionsAreTheLastPositionOfEachID(_ name: String) throws {
        let ids = try #require(Self.idSets[name])
        var reference: [Int64: Int32] = [:]
        for (i, id) in ids.enumerated() { reference[id] = Int32(i) }
        let positions = IDPositions(ids)
        var probes = Set(ids)
        let top = ids.max() ?? 0
        probes.formUnion([-1, 0, 1, top, top + 1, top + 1_000, Int64.max, Int64.min])
        for id in ids.prefix(200) { probes.formUnion([id - 1, id + 1]) }
        for id in probes where positions[id] != reference[id] {
            Issue.record("\(name): id \(id) at \(String(describing: positions[id])), expected \(String(describing: reference[id]))")
            return
        }
    }

    /// Small non-negative ids take the table, others the dictionary (both checked above).
    @Test func theTableServesTicketmastersIDs() {
        #expect(IDPositions([0, 5, 60_000]).usesTable)
        #expect(IDPositions([0, 5, 1_333_908] + (0..<30_000).map { 7 + $0 * 40 }).usesTable)
        #expect(!IDPositions([-5, 3]).usesTable)
        #expect(!IDPositions([3, IDPositions.tableLimit]).usesTable)
        // A few ids with a large one: the dictionary, not a table of 16 M slots (64 MB).
        #expect(!IDPositions([3, IDPositions.tableLimit - 1]).usesTable)
        #expect(!IDPositions([3, IDPositions.tableFloor + 2 * IDPositions.tableSlotsPerID]).usesTable)
        #expect(IDPositions([3, IDPositions.tableFloor + 2 * IDPositions.tableSlotsPerID - 1]).usesTable)
        // Realistic `full`'s shape: 202,000 ids below 1,000,000.
        var random = SplitMix64(seed: 3)
        #expect(IDPositions((0..<202_000).map { _ in Int64(random.next() % 1_000_000) }).usesTable)
        #expect(IDPositions([]).usesTable == false && IDPositions([])[0] == nil)
    }
}
