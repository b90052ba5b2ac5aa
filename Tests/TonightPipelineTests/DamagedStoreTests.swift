import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// The run store is evidence, not trusted blindly: a reused output is checked against the
/// SHA-256 its `stage.json` recorded, and a damaged one is recomputed, never published.
@Suite struct DamagedStoreTests {
    /// Flips one byte in the middle of a file.
    static func flipByte(_ url: URL) throws {
        var bytes = Array(try Data(contentsOf: url))
        bytes[bytes.count / 2] ^= 0x5A
        // In place, keeping the file's size and inode (as a failing disk would).
        let h = try FileHandle(forWritingTo: url)
        try h.write(contentsOf: bytes)
        try h.close()
    }

    @Test(arguments: [("geocode", "venues.bin"), ("load-tickets", "users.bin")])
    func aFlippedByteIsRecomputedNotReused(_ stage: String, _ file: String) throws {
        let work = temporaryDirectory()
        let first = try runner(inputs: tinyInputs, work: work).run()
        try Self.flipByte(RunStore(work: work).runDirectory(first.runId).appendingPathComponent(stage).appendingPathComponent(file))
        let second = try runner(inputs: tinyInputs, work: work) { $0.allowShrink = true }.run()
        let entry = try #require(second.stages.first { $0.stage == stage })
        #expect(entry.action == "run", "\(entry)")
        #expect(entry.reason.contains("damaged") && entry.reason.contains(file), "\(entry.reason)")
        let record = try #require(RunStore(work: work).record(run: second.runId, stage: stage))
        #expect(record.reusedFrom == nil)
        // The damaged output is marked, so no later run tries it again.
        #expect(RunStore(work: work).record(run: first.runId, stage: stage)?.status == "damaged")
        // What was published verifies, references included.
        let snapshot = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
        #expect(snapshot.verify(references: true).isValid)
        // And the next run reuses the recomputed output.
        let third = try runner(inputs: tinyInputs, work: work).plan()
        #expect(third.first { $0.stage == stage }?.reuseRun == second.runId)
    }
}
