import Foundation
import Testing
@testable import tonight_bench

/// The floors' arithmetic in `tonight-bench pipeline`: a round's floor is its `cat` plus its
/// `zstd` (a part the stage has none of counts 0, a part not yet timed makes no floor), in
/// wall and in CPU seconds alike, and a stage's distance from its floor is the median of the
/// rounds' own ratios, not a ratio of medians.
@Suite struct PipelineFloorsTests {
    static func stage(inputs: [String], datasets: [String]) -> PipelineFloors.Stage {
        PipelineFloors.Stage(name: "s", inputs: inputs, inputBytes: 1, directory: URL(fileURLWithPath: "/tmp"), datasets: datasets)
    }

    @Test func aRoundsFloorIsItsCatAndItsZstd() {
        var s = Self.stage(inputs: ["in"], datasets: ["d"])
        s.cat = [0.5, 0.25]
        s.zstd = [6, 7]
        s.catCPU = [0.5, 0.25]
        s.zstdCPU = [9, 10]
        #expect(s.floor(round: 0) == 6.5)
        #expect(s.floor(round: 1) == 7.25)
        #expect(s.floor(round: 2) == nil)
        #expect(s.floorCPU(round: 1) == 10.25)
        // A stage without datasets (binary tables only) has its cat alone.
        var tables = Self.stage(inputs: ["in"], datasets: [])
        tables.cat = [0.1]
        tables.catCPU = [0.2]
        #expect(tables.floor(round: 0) == 0.1)
        #expect(tables.floorCPU(round: 0) == 0.2)
        // Its zstd not yet timed: no floor for the round.
        var untimed = Self.stage(inputs: ["in"], datasets: ["d"])
        untimed.cat = [0.1]
        #expect(untimed.floor(round: 0) == nil)
    }

    @Test func theRatioIsTheMedianOfTheRounds() throws {
        // Rounds 2×, 4× and 3×: the median of the ratios is 3; the ratio of the medians
        // (20 ÷ 5) would be 4.
        #expect(PipelineFloors.medianRatio([10, 20, 30], [5, 5, 10]) == 3)
        // A floor of 0 (not measured) is left out, and nothing left gives no ratio.
        #expect(PipelineFloors.medianRatio([10, 20], [5, 0]) == 2)
        #expect(PipelineFloors.medianRatio([10], [0]) == nil)
        #expect(PipelineFloors.medianRatio([], []) == nil)
    }
}

/// The floors table as `tonight-bench pipeline` prints it: the tickets row's medians, its goal
/// on the wall ratio, and the note of how many cores each side kept busy, computed from the
/// same medians (CPU seconds ÷ wall seconds), never assumed.
@Suite struct PipelineFloorsTableTests {
    static func tickets() -> PipelineFloors.Stage {
        var s = PipelineFloors.Stage(name: "tickets", inputs: ["in"], inputBytes: 2_000_000, directory: URL(fileURLWithPath: "/tmp"), datasets: ["explore"])
        s.ndjsonBytes = 3_000_000
        // Three rounds: floors of 6.5, 7.0 and 8.0 s (cat + zstd); CPU floors of 9.5, 10.0, 12.0 s.
        s.cat = [0.5, 1.0, 1.0]
        s.zstd = [6, 6, 7]
        s.catCPU = [0.5, 1.0, 1.0]
        s.zstdCPU = [9, 9, 11]
        return s
    }

    @Test func theTicketsRowItsGoalAndTheCoresEachKeptBusy() throws {
        let floors = PipelineFloors(stages: [Self.tickets()])
        // Wall 13, 17, 20 s: ratios 2.0, 2.43, 2.5 (median 2.43); CPU 26, 30, 36 s: ratios
        // 2.74, 3.0, 3.0 (median 3.0). Medians: stage 17 s and 30 CPU-s (1.76 cores busy),
        // floor 7 s and 10 CPU-s (1.43 cores).
        let table = floors.table(durations: ["tickets": [13, 17, 20]], cpu: ["tickets": [26, 30, 36]])
        let row = try #require(table.rows.first)
        #expect(row[0] == "tickets")
        #expect(row[6] == sec(7))  // the median floor
        #expect(row[7] == "2.43")
        #expect(row[10] == "3.00")
        #expect(table.notes.contains { $0.contains("tickets / floor") && $0.contains("2.43") })
        let cores = try #require(table.notes.first { $0.hasPrefix("tickets CPU / floor CPU") })
        #expect(cores.contains("= 3.00×"))
        #expect(cores.contains("the stage 1.76, the floor 1.43"), "\(cores)")
    }

    @Test func noCoresNoteWithoutCPUFigures() {
        let floors = PipelineFloors(stages: [Self.tickets()])
        let table = floors.table(durations: ["tickets": [13, 17, 20]], cpu: [:])
        #expect(!table.notes.contains { $0.hasPrefix("tickets CPU / floor CPU") })
        #expect(table.notes.contains { $0.contains("tickets / floor") })
    }
}
