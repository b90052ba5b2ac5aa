import Foundation
import Logging
import Testing
import TonightCore
@testable import TonightPipeline

/// The playmate stage reads its two tables side by side, but reports their errors in a fixed
/// order: when both are damaged, the players' error, as when they were read one after the
/// other. The runner recomputes a damaged output before any stage reads it, so these tests
/// run the stage on a damaged copy of `load-playmate`'s output directly.
@Suite struct PlaymateReadOrderTests {
    enum Damage: String, CaseIterable, Sendable {
        case players, sessions, both
    }

    @Test(arguments: Damage.allCases)
    func theErrorNamesTheTableThatWouldBeReadFirst(_ damage: Damage) throws {
        let work = temporaryDirectory()
        let run = try runner(inputs: tinyInputs, work: work).run()
        let loaded = RunStore(work: work).runDirectory(run.runId).appendingPathComponent("load-playmate")
        let copy = temporaryDirectory().appendingPathComponent("load-playmate")
        try FileManager.default.copyItem(at: loaded, to: copy)
        for table in ["players", "sessions"] where damage == .both || damage.rawValue == table {
            let file = copy.appendingPathComponent("\(table).bin")
            let bytes = try Data(contentsOf: file)
            // Cut short in the middle of its rows (as a disk that filled up would leave it).
            try bytes.prefix(bytes.count / 2).write(to: file)
        }
        let error = try #require(throws: TonightError.self) { try PlaymateStage().run(Self.context(loadPlaymate: copy)) }
        let expected = damage == .sessions ? "sessions.bin" : "players.bin"
        let other = damage == .sessions ? "players.bin" : "sessions.bin"
        #expect(error.description.contains(expected), "\(error)")
        #expect(!error.description.contains(other), "\(error)")
    }

    /// The context the runner would give the stage, reading `loadPlaymate` as its upstream.
    static func context(loadPlaymate: URL) -> StageContext {
        let out = temporaryDirectory()
        var logger = Logger(label: "test")
        logger.logLevel = .error
        return StageContext(
            stage: "playmate", config: TonightConfig(), inputsDirectory: tinyInputs, files: [:], directories: [:],
            upstream: ["load-playmate": loadPlaymate], outputDirectory: out, asOf: asOf, runDate: Int(asOf / 86_400), logger: logger,
            progress: ProgressReporter(enabled: false).begin(stage: "playmate"), outDirectory: out, allowShrink: false,
            runID: "test", records: [], timeZones: nil, baseline: nil)
    }
}
