import Foundation
import Testing
@testable import tonight_bench

/// `tonight-bench compare`'s round-by-round table: each round's pair of figures side by side
/// with its ratio, which build ran first, and how many rounds each stage favoured the second
/// build (the count that tells a bias from the host's drift).
@Suite struct CompareRoundsTests {
    static func figures(_ name: String, walls: [Double], publish: [Double], ranFirst: [Bool]) -> CompareBench.Figures {
        var f = CompareBench.Figures(name: name, executable: "/bin/\(name)")
        f.walls = walls
        f.stages = ["publish": publish, "tickets": walls.map { $0 / 2 }]
        f.ranFirst = ranFirst
        return f
    }

    @Test func eachRoundIsAPair() throws {
        let a = Self.figures("old", walls: [30, 32, 31], publish: [7, 8, 6], ranFirst: [true, false, true])
        let b = Self.figures("new", walls: [33, 30, 31.5], publish: [6, 8, 5], ranFirst: [false, true, false])
        let table = CompareBench.rounds(a, b)
        #expect(table.rows.count == 3)
        #expect(table.rows[0][0...4] == ["1", "old", "30.000", "33.000", "1.100"])
        #expect(table.rows[1][1] == "new")
        // whole run, tickets (half the whole run), publish: ratios of each round.
        #expect(table.rows[1][4] == String(format: "%.3f", 30.0 / 32))
        #expect(table.rows[2][10] == String(format: "%.3f", 5.0 / 6))
        #expect(table.notes.contains { $0.hasPrefix("whole run: new faster in 1 of 3 rounds") })
        #expect(table.notes.contains { $0.hasPrefix("tickets: new faster in 1 of 3 rounds") })
        // A tie (8 and 8) is not a round the new build won.
        #expect(table.notes.contains { $0.hasPrefix("publish: new faster in 2 of 3 rounds") })
        #expect(table.notes.contains { $0.contains("1 in 8") })
    }

    @Test func aStageOneBuildDidNotRecordIsLeftOut() throws {
        var a = Self.figures("old", walls: [30], publish: [7], ranFirst: [true])
        let b = Self.figures("new", walls: [29], publish: [6], ranFirst: [false])
        a.stages["publish"] = nil
        let table = CompareBench.rounds(a, b)
        #expect(table.columns.count == 8)
        #expect(!table.notes.contains { $0.hasPrefix("publish") })
    }
}
