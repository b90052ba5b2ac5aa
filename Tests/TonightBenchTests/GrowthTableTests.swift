import Foundation
import Testing
@testable import tonight_bench

/// The table `tonight-bench growth` prints: each stage's growth from the medians of its
/// rounds, the growth of its floor beside it (`cat` of its inputs plus `zstd -1 -T0` of its
/// NDJSON, timed in the same rounds), and the note that says when the floor alone grows more
/// than the users: then no program that writes those datasets meets the goal on that pair.
@Suite struct GrowthTableTests {
    static func run(tickets: Double, floor: Double?, output: Double, playmate: Double = 1, wall: Double) -> GrowthBench.Run {
        var r = GrowthBench.Run(order: ["parse-feed", "tickets", "playmate"], wall: wall)
        r.stages = ["parse-feed": 0.5, "tickets": tickets, "playmate": playmate]
        r.output = ["tickets": output]
        if let floor { r.floors["tickets"] = floor }
        return r
    }

    @Test func theFloorsGrowthAndTheStagesAgainstIt() throws {
        // Medians: tickets 0.1 → 20 s (200×), floor 0.02 → 6 s (300×), output 5 → 3,500 MB.
        let small = [Self.run(tickets: 0.1, floor: 0.02, output: 5e6, wall: 1), Self.run(tickets: 0.2, floor: 0.03, output: 5e6, wall: 1),
                     Self.run(tickets: 0.05, floor: 0.01, output: 5e6, wall: 1)]
        let full = [Self.run(tickets: 20, floor: 6, output: 3.5e9, wall: 40), Self.run(tickets: 21, floor: 7, output: 3.5e9, wall: 40),
                    Self.run(tickets: 19, floor: 5, output: 3.5e9, wall: 40)]
        let table = GrowthBench.table("t", small: small, full: full, factor: 100)
        #expect(table.columns.count == 11)
        #expect(table.rows.allSatisfy { $0.count == 11 })
        let tickets = try #require(table.rows.first { $0[0] == "tickets" })
        #expect(tickets[3] == "200.0×")
        #expect(tickets[4] == "2.00")
        #expect(tickets[7] == "700.0×")
        #expect(tickets[9] == "300.0×")
        #expect(tickets[10] == "0.67")
        // No floor timed for playmate: its floor cells stay empty.
        let playmate = try #require(table.rows.first { $0[0] == "playmate" })
        #expect(playmate[9] == "" && playmate[10] == "")
        #expect(table.notes.contains { $0.contains("tickets: time growth for ×100 users") && $0.contains("200.0") })
        let note = try #require(table.notes.first { $0.hasPrefix("tickets: its floor grows") })
        #expect(note.contains("300.0×") && note.contains("0.020 → 6.000 s") && note.contains("0.67×"), "\(note)")
    }

    @Test func noFloorNoteWhenTheFloorGrowsLessThanTheUsers() throws {
        // The same world: the floor grows 50× for ×100 users, so the goal is not out of reach.
        let small = [Self.run(tickets: 0.5, floor: 0.1, output: 3.5e7, wall: 5)]
        let full = [Self.run(tickets: 14, floor: 5, output: 3.5e9, wall: 30)]
        let table = GrowthBench.table("t", small: small, full: full, factor: 100)
        let tickets = try #require(table.rows.first { $0[0] == "tickets" })
        #expect(tickets[9] == "50.0×")
        #expect(tickets[10] == "0.56")
        #expect(!table.notes.contains { $0.contains("its floor grows") })
        #expect(table.notes.contains { $0.contains("whole run: time growth for ×100 users") && $0.contains("6.0") })
    }
}
