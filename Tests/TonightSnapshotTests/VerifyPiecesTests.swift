import Foundation
import Testing
import TonightBase
@testable import TonightSnapshot

/// `verify` splits each dataset into runs of frames checked on any core and merges them in
/// frame order: the report must not depend on where the runs are cut, nor on the number of
/// workers; a key out of order at a seam between runs is still found.
@Suite(.serialized) struct VerifyPiecesTests {
    /// A snapshot of many small frames with dangling references spread over them (25 in
    /// explore, more than the ten reported one by one; one held back in events).
    static func snapshot(layout: Int) throws -> Snapshot {
        let root = temporaryDirectory("verify-pieces")
        func rec(_ key: String, _ body: String) -> (String, [UInt8]) { (key, Array("{\"key\":\"\(key)\"\(body)}".utf8)) }
        let events = (0..<40).map { String(format: "%016X", $0 * 7919) }
        var explore: [(String, [UInt8])] = []
        for u in 0..<600 {
            let key = String(format: "u%05d", u)
            let event = u % 24 == 5 ? String(format: "%016X", 999_999_000 + u) : events[u % events.count]
            explore.append(rec(key, #","items":[{"event":"\#(event)","artist":\#(u % 3 + 1),"because":[1],"distanceKm":\#(u).25}]"#))
        }
        let datasets: [String: [(String, [UInt8])]] = [
            "events": events.sorted().enumerated().map { k, e in rec(e, #","artists":[\#(k == 7 ? 9 : 1)],"venue":3"#) },
            "artists": (1...3).map { rec("\($0)", "") },
            "venues": [rec("3", "")],
            "categories": [rec("5", "")],
            "explore": explore,
        ]
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-0000000c", datasets: datasets, frameBytes: 256,
                                           layout: layout, dictionaryBytes: layout == 2 ? 2048 : 0)
        return try Snapshot.open(id: id, in: root)
    }

    static func summary(_ r: VerificationReport) -> [String] {
        ["datasets \(r.datasets) records \(r.records) references \(r.references) bytes \(r.bytes)"] + r.problems.map(\.message)
    }

    @Test(arguments: [1, 2])
    func theReportIsTheSameWhereverTheRunsAreCut(layout: Int) throws {
        let s = try Self.snapshot(layout: layout)
        #expect(s.datasets["explore"]!.entry.frames > 20)
        let whole = s.verify(references: true, sha256: nil, runBytes: .max)
        // 25 dangling events in explore: ten reported, then "15 more"; one artist in events.
        #expect(whole.problems.count == 12, "\(whole.problems.map(\.message).joined(separator: "\n"))")
        #expect(whole.problems.contains { $0.message.contains("15 more values are not keys of events") })
        #expect(whole.problems.contains { $0.message.contains("field artists[]: '9' is not a key of artists") })
        for runBytes in [1, 700, 5_000] {
            for width in [1, 3] {
                Parallel.setWidth(width)
                defer { Parallel.setWidth(nil) }
                let pieces = s.verify(references: true, sha256: nil, runBytes: runBytes)
                #expect(Self.summary(pieces) == Self.summary(whole), "runs of \(runBytes) bytes on \(width) workers")
            }
        }
    }

    /// The runs of a layout-2 file end on key-table blocks; a range inside blocks still
    /// yields exactly its frames, with the same bytes as a whole pass.
    @Test func aRangeOfFramesYieldsExactlyThoseFrames() throws {
        let s = try Self.snapshot(layout: 2)
        let store = s.datasets["explore"]!.store
        var all: [[UInt8]] = []
        try store.forEachFrame { _, f, _ in all.append(f.bytes) }
        for range in [0..<1, 3..<7, 1..<all.count, (all.count - 2)..<all.count] {
            var got: [(Int, [UInt8])] = []
            try store.forEachFrame(in: range) { i, f, _ in got.append((i, f.bytes)) }
            #expect(got.map(\.0) == Array(range))
            #expect(got.map(\.1) == Array(all[range]))
        }
        let runs = store.frameRuns(averageFrameBytes: 100, bytes: 1)
        #expect(runs.first?.lowerBound == 0 && runs.last?.upperBound == all.count)
        #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }

    /// Keys out of order exactly where one run ends and the next begins.
    @Test func aKeyOutOfOrderAtASeamIsFound() throws {
        let s = try Self.snapshot(layout: 1)
        var check = DatasetCheck(dataset: s.datasets["explore"]!, rules: [], collectKeys: false)
        check.open(directory: s.directory.path, runBytes: 1)
        #expect(check.runs.count > 2)
        func run(_ first: String, _ last: String) -> DatasetCheck.RunResult {
            var r = DatasetCheck.RunResult(dangling: [])
            r.firstKey = Array(first.utf8)
            r.lastKey = Array(last.utf8)
            return r
        }
        var ordered = check, disordered = check
        let rest = (2..<check.runs.count).map { run(String(format: "z%04d-a", $0), String(format: "z%04d-b", $0)) }
        ordered.merge(files: VerificationReport(), runs: [run("a", "b"), run("c", "d")] + rest)
        disordered.merge(files: VerificationReport(), runs: [run("a", "c"), run("c", "d")] + rest)
        #expect(!ordered.report.problems.contains { $0.message.contains("out of order") })
        #expect(disordered.report.problems.first?.message == "frame \(check.runs[1].lowerBound): key 'c' out of order or repeated")
    }
}
