import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a data set (feed, affinity, app exports) in the real formats.",
        discussion: """
            Deterministic: the same scale, seed and --as-of give the same bytes. Writes the input \
            layout (feed.xml, affinity.txt, tickets/, playmate/) and generated.json; with \
            --with-faults also faults/ (a bad copy of each input) and faults/faults.json listing \
            every planted fault with its file, line and expected reason.
            """)

    @Option(help: "tiny, small or full.") var scale: String
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(name: .customLong("as-of"), help: "Instant the dates are placed around (default 2026-01-15T06:00:00Z).")
    var asOf: String?
    @Option(help: "Output directory.") var out: String
    @Flag(name: .customLong("with-faults"), help: "Also write faulty copies under OUT/faults/.") var withFaults = false
    @Option(help: "realistic (default: real-world skew, Docs/DATASETS.md) or uniform (the first generator's world). tiny ignores it.")
    var shape: String = "realistic"
    @Option(help: "Tickets Tonight users instead of the scale's (the same world: feed and affinity unchanged).")
    var users: Int?
    @Option(help: "Playmate players instead of the scale's (the same sessions count, drawn the same way).")
    var players: Int?

    func run() throws {
        guard let s = GeneratorScale.named(scale) else {
            throw TonightError(.usage, "unknown scale '\(scale)'", hint: "use tiny, small or full")
        }
        guard let worldShape = GeneratorShape(rawValue: shape) else {
            throw TonightError(.usage, "unknown shape '\(shape)'", hint: "use realistic or uniform")
        }
        for (name, value) in [("--users", users), ("--players", players)] {
            if let value, value < 1 || value > 100_000_000 {
                throw TonightError(.usage, "\(name) \(value) is out of range", hint: "give a count from 1 to 100000000")
            }
        }
        let instant = try asOf.map(TimeArgument.instant) ?? DatasetGenerator.defaultAsOf
        let started = Date()
        let info = try DatasetGenerator(scale: s.with(users: users, players: players), seed: seed, asOf: instant, withFaults: withFaults, shape: worldShape)
            .generate(into: URL(fileURLWithPath: out))
        let counts = info.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("generated \(s.name) \(info.shape.map { "(\($0)) " } ?? "")(seed \(seed), as of \(info.asOfText)) into \(out) in "
              + String(format: "%.1f s", Date().timeIntervalSince(started)) + ": \(counts)")
    }
}
