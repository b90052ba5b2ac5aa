import Foundation
import Logging
import TonightCore
@testable import TonightPipeline

func temporaryDirectory(_ name: String = "tonight-pipeline") -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(name)-\(getpid())-\(UUID().uuidString.prefix(8))")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The package root, from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

let tinyInputs = packageRoot.appendingPathComponent("Fixtures/tiny/input")
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

/// The `tonight` executable built next to the tests.
func tonightExecutable() throws -> URL {
    let bundle = Bundle(for: Marker.self).bundleURL
    let candidates = [bundle.appendingPathComponent("tonight"), bundle.deletingLastPathComponent().appendingPathComponent("tonight"),
                      bundle.appendingPathComponent("debug/tonight"), packageRoot.appendingPathComponent(".build/debug/tonight")]
    guard let exe = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw TonightError(.internal, "the tonight executable was not found next to the tests", file: bundle.path)
    }
    return exe
}

/// Runs the `tonight` executable built next to the tests.
/// `environment` is added to this process's; a run killed by a signal has status 128 + signal.
func runTonight(_ arguments: [String], cwd: URL = packageRoot, environment: [String: String] = [:]) throws
    -> (status: Int32, stdout: String, stderr: String)
{
    let exe = try tonightExecutable()
    let p = Process()
    p.executableURL = exe
    p.arguments = arguments
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    p.currentDirectoryURL = cwd
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
    return (status, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

final class Marker {}
