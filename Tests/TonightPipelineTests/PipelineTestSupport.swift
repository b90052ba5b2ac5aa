import Foundation
import Logging
import TonightCore
@_exported import TonightTesting
@testable import TonightPipeline
import TonightBase

let asOf = CivilTime.parseInstant("2026-01-15T06:00:00Z")!

/// A copy of the tiny inputs that a test may change.
func copyOfTinyInputs() -> URL {
    let dir = temporaryDirectory("tonight-inputs")
    let dest = dir.appendingPathComponent("input")
    try! FileManager.default.copyItem(at: tinyInputs, to: dest)
    return dest
}

func runner(inputs: URL, work: URL, config: TonightConfig = TonightConfig(), configure: (inout RunOptions) -> Void = { _ in })
    -> StageRunner
{
    var options = RunOptions(inputs: inputs, work: work, out: work.appendingPathComponent("out"), asOf: asOf)
    configure(&options)
    var logger = Logger(label: "test")
    logger.logLevel = .error
    return StageRunner(config: config, options: options, logger: logger, progress: ProgressReporter(enabled: false))
}

