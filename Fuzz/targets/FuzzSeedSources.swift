import Foundation
import Logging
import TonightBase
import TonightGenerator
import TonightPipeline

/// Where seeds come from: the package's committed files (`Fixtures/tiny`, `Pipelines/`, the
/// feed tests' hostile samples), stock compressors, and the snapshot the tiny job publishes
/// (made once, in-process, into `scratch`, which the caller owns and removes).
package final class FuzzSeedSources: @unchecked Sendable {
    /// The package's root directory.
    package let root: URL
    private let scratch: URL
    private let snapshot = Locked<Result<URL, any Error>?>(nil)

    package init(root: URL, scratch: URL) {
        self.root = root
        self.scratch = scratch
    }

    /// `Fixtures/tiny/input`.
    package var tinyInputs: URL { root.appendingPathComponent("Fixtures/tiny/input") }

    /// The bytes of `path` (relative to the package root).
    package func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// The tiny input file `name` (relative to `Fixtures/tiny/input`).
    package func tiny(_ name: String) throws -> [UInt8] {
        try read("Fixtures/tiny/input/" + name)
    }

    /// Rows of the tiny CSV file `name` after its header.
    package func tinyRows(_ name: String) throws -> Int {
        try tiny(name).split(separator: 0x0A).count - 1
    }

    /// `file` (relative to the package root) through `tool -c` (`gzip`, `zstd -q`); nil when
    /// the tool is not installed. `env` looks the tool up on `PATH` and exits 127 when it
    /// finds none, so no search is written here. The tool's messages go to a file, not a
    /// second pipe: a pipe read only after stdout's end would block a tool that wrote more
    /// than the pipe holds to it.
    package func compressed(_ file: String, with tool: String) throws -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + (tool == "zstd" ? ["-q"] : []) + ["-c", root.appendingPathComponent(file).path]
        let pipe = Pipe()
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let log = scratch.appendingPathComponent("\(URL(fileURLWithPath: tool).lastPathComponent)-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw SeedError("cannot create \(log.path) for \(tool)'s messages")
        }
        defer { try? FileManager.default.removeItem(at: log) }
        let errors = try FileHandle(forWritingTo: log)
        defer { try? errors.close() }
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 127 { return nil }
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw SeedError("\(tool) -c \(file) exited with \(process.terminationStatus): \(message)")
        }
        return Array(out)
    }

    /// A new directory in the scratch directory, its name starting with `name` (one of its
    /// own for every call: tests make seeds on several threads).
    package func directory(_ name: String) throws -> URL {
        let url = scratch.appendingPathComponent(name + "-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The directory of the snapshot the tiny job publishes (`tonight run` on the bundled
    /// fixtures, as of their generated instant), made on first use.
    package func tinySnapshot() throws -> URL {
        try snapshot.withLock { made in
            if made == nil { made = Result { try makeTinySnapshot() } }
            return try made!.get()
        }
    }

    private func makeTinySnapshot() throws -> URL {
        let inputs = tinyInputs
        guard let asOf = GeneratedInfo.read(inputs)?.asOf else { throw SeedError("\(inputs.path)/generated.json is missing") }
        let work = scratch.appendingPathComponent("tiny-work"), out = scratch.appendingPathComponent("tiny-out")
        var logger = Logger(label: "fuzz-seeds")
        logger.logLevel = .error
        let runner = StageRunner(config: TonightConfig(), options: RunOptions(inputs: inputs, work: work, out: out, asOf: asOf),
                                 logger: logger, progress: ProgressReporter(enabled: false))
        _ = try runner.run()
        let snapshots = out.appendingPathComponent("snapshots")
        let id = try String(contentsOf: snapshots.appendingPathComponent("CURRENT"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return snapshots.appendingPathComponent(id)
    }

    /// A seed that could not be made (a fixture missing, a tool failing).
    package struct SeedError: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }
}
