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
