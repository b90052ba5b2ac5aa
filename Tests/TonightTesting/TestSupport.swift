import Foundation

// Helpers every test target shares (one copy, not one per target).

/// A fresh, empty temporary directory per call (`tonight-tests-PID/NAME-RANDOM`).
///
/// Every directory of one test process lives under one parent that is removed when the
/// process exits, and parents left by test processes that are gone (a crash, a kill) are
/// removed by the next one: a test run must not fill the machine's `/tmp` (one run writes
/// several GB there, and CI runs on the developers' machine).
package func temporaryDirectory(_ name: String = "tonight-test") -> URL {
    let url = testProcessDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// `TMPDIR/tonight-tests-PID`, created on first use and removed at exit.
private let testProcessDirectory: URL = {
    let fm = FileManager.default
    let parent = fm.temporaryDirectory
    removeLeftOverTestDirectories(in: parent)
    let url = parent.appendingPathComponent("tonight-tests-\(getpid())")
    try! fm.createDirectory(at: url, withIntermediateDirectories: true)
    atexit {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-tests-\(getpid())")
        try? FileManager.default.removeItem(at: path)
    }
    return url
}()

/// Removes the `tonight-tests-PID` directories in `parent` whose process is gone (a crashed
/// or killed test run); those of live processes, this one's included, stay.
package func removeLeftOverTestDirectories(in parent: URL) {
    let fm = FileManager.default
    let prefix = "tonight-tests-"
    for entry in (try? fm.contentsOfDirectory(atPath: parent.path)) ?? [] where entry.hasPrefix(prefix) {
        guard let pid = pid_t(entry.dropFirst(prefix.count)), pid != getpid() else { continue }
        if kill(pid, 0) != 0 && errno == ESRCH {
            try? fm.removeItem(at: parent.appendingPathComponent(entry))
        }
    }
}

/// The package root, from this file's path.
package let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The committed `tiny` inputs (`Fixtures/tiny/input`).
package let tinyInputs = packageRoot.appendingPathComponent("Fixtures/tiny/input")

/// What a shell command printed and how it ended.
package struct ShellResult: Sendable {
    /// The exit status (128 + signal for a killed command).
    package var status: Int32
    /// Standard output (with standard error when merged).
    package var output: String
}

/// `(status, output)` of a shell result, for tests that destructure it.
package func unpack(_ r: ShellResult) -> (Int32, String) { (r.status, r.output) }

/// Runs `command` with `/bin/sh -c`; `environment` is added to this process's.
@discardableResult
package func shell(_ command: String, environment: [String: String] = [:], mergingStandardError: Bool = false) throws -> ShellResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", command]
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let out = Pipe()
    p.standardOutput = out
    p.standardError = mergingStandardError ? out : FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
    return ShellResult(status: status, output: String(decoding: data, as: UTF8.self))
}

/// External programs some tests use to check our files with other implementations. A test
/// that needs one says so with `.enabled(if: ExternalTool.zstd.isAvailable)`; `.ci/run`
/// (`make test`) installs all of them, so there every such test runs.
package enum ExternalTool: String, Sendable, CaseIterable {
    case zstd, xmllint, zdump, gzip, date
    /// Python 3 (the cross-check's definitions in `scripts/definitions`).
    case python3
    /// The Kubernetes schema validator (PyPI's `kubernetes-validate`).
    case kubernetesValidate = "kubernetes-validate"
    /// Python 3 with `html5lib` (an HTML5 parser that reports every parse error).
    case html5lib
    /// Headless Chromium (Debian's `chromium`), for rendering the report.
    case chromium
    /// Python 3 with the `pyzstd` module (seekable zstd reads by byte range).
    case pyzstd
    /// `strace`, which shows the order of a run's system calls (fsync before rename).
    case strace

    /// Whether the tool can be run here (looked up once per process).
    package var isAvailable: Bool { Self.available.contains(self) }

    private static let available: Set<ExternalTool> = Set(allCases.filter { tool in
        switch tool {
        case .pyzstd: return (try? shell("python3 -c 'import pyzstd'"))?.status == 0
        case .html5lib: return (try? shell("python3 -c 'import html5lib'"))?.status == 0
        default: return (try? shell("command -v \(tool.rawValue)"))?.status == 0
        }
    })
}

/// The `tonight` executable built next to the tests.
package func tonightExecutable() throws -> URL {
    let bundle = Bundle(for: Marker.self).bundleURL
    let candidates = [bundle.appendingPathComponent("tonight"), bundle.deletingLastPathComponent().appendingPathComponent("tonight"),
                      bundle.appendingPathComponent("debug/tonight"), packageRoot.appendingPathComponent(".build/debug/tonight")]
    guard let exe = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw MissingExecutable(searched: candidates.map(\.path))
    }
    return exe
}

/// The `tonight` executable is not where the build puts it.
package struct MissingExecutable: Error, CustomStringConvertible {
    package var searched: [String]
    package var description: String { "the tonight executable was not found next to the tests (looked in \(searched.joined(separator: ", ")))" }
}

/// Runs the `tonight` executable built next to the tests. `environment` is added to this
/// process's; a run killed by a signal has status 128 + signal.
package func runTonight(_ arguments: [String], cwd: URL = packageRoot, environment: [String: String] = [:], input: Data? = nil) throws
    -> (status: Int32, stdout: String, stderr: String)
{
    let p = Process()
    p.executableURL = try tonightExecutable()
    p.arguments = arguments
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    p.currentDirectoryURL = cwd
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let stdin = Pipe()
    if input != nil { p.standardInput = stdin }
    try p.run()
    if let input {
        // Small inputs only (a pipe buffer's worth is written before the child reads).
        try stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
    }
    // Standard error is drained on another thread so neither pipe fills while the other waits.
    let stderr = Drained(err.fileHandleForReading)
    let o = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
    return (status, String(decoding: o, as: UTF8.self), String(decoding: stderr.wait(), as: UTF8.self))
}

final class Marker {}

/// Reads a file handle to its end on another thread.
private final class Drained: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// The directory of the built modules (`.build/<triple>/debug/Modules`), next to the
/// `tonight` executable, for tests that compile code against them.
package func builtModulesDirectory() throws -> URL {
    try tonightExecutable().deletingLastPathComponent().appendingPathComponent("Modules")
}
