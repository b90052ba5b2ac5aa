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

    @Test(arguments: [("geocode", "venues.bin"), ("tickets", "explore.ndjson.zst"), ("load-tickets", "users.bin")])
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

/// Input hashes are cached, but an in-place edit that keeps size, inode and mtime (as
/// `rsync --inplace -t` leaves a file) is still seen: the cache also compares ctime.
@Suite struct InPlaceEditTests {
    @Test func anEditKeepingSizeInodeAndMtimeIsSeen() throws {
        let inputs = copyOfTinyInputs()
        let feed = inputs.appendingPathComponent("feed.xml")
        var st = stat()
        #expect(stat(feed.path, &st) == 0)
        // Old enough that its cache entry is trusted (not within the racy window).
        sleep(4)
        let work = temporaryDirectory()
        try runner(inputs: inputs, work: work).run()
        #expect(try runner(inputs: inputs, work: work).plan().first { $0.stage == "parse-feed" }?.action == .reuse)
        // The same number of bytes, written in place, then the old mtime put back.
        var bytes = Array(try Data(contentsOf: feed))
        let at = try #require(String(decoding: bytes, as: UTF8.self).range(of: "<VenueName>").map {
            String(decoding: bytes, as: UTF8.self).utf8.distance(from: String(decoding: bytes, as: UTF8.self).utf8.startIndex, to: $0.upperBound) })
        bytes[at] = bytes[at] == UInt8(ascii: "Q") ? UInt8(ascii: "R") : UInt8(ascii: "Q")
        let h = try FileHandle(forWritingTo: feed)
        try h.write(contentsOf: bytes)
        try h.close()
        var times = [st.st_atim, st.st_mtim]
        #expect(utimensat(AT_FDCWD, feed.path, &times, 0) == 0)
        var after = stat()
        #expect(stat(feed.path, &after) == 0 && after.st_ino == st.st_ino && after.st_size == st.st_size
                && after.st_mtim.tv_sec == st.st_mtim.tv_sec && after.st_mtim.tv_nsec == st.st_mtim.tv_nsec)
        let plan = try runner(inputs: inputs, work: work).plan()
        #expect(plan.first { $0.stage == "parse-feed" }?.action == .run)
        #expect(plan.first { $0.stage == "parse-feed" }?.reason.contains("input feed changed") == true)
    }
}
