import Foundation
import TonightFuzzTargets

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// libFuzzer's driver (linked as a library, since SwiftPM gives every executable its own
/// `main`) around a `FuzzTarget`.
package enum FuzzSupport {
    nonisolated(unsafe) private static var body: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// Sets `target` up with a scratch directory of its own and runs libFuzzer with the
    /// process's arguments, calling it with every input; a `FuzzFinding` (or any error) stops
    /// the process like a crash, so that libFuzzer keeps the input. Exits with libFuzzer's status.
    ///
    /// `fuzz-NAME --write-seeds DIR` instead writes the target's seeds (`FuzzTarget.seeds`,
    /// made from the package in the working directory) into DIR, one file each, and exits.
    package static func run<Target: FuzzTarget>(_ target: Target.Type) -> Never {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--write-seeds" { exit(writeSeeds(Target.self, into: URL(fileURLWithPath: arguments[2]))) }
        let fuzzed: Target
        do { fuzzed = try Target(scratch: scratch(Target.name)) } catch { fatalError("setting up \(Target.name): \(error)") }
        body = { input in
            do { _ = try fuzzed.run(input) } catch { fatalError("\(error)") }
        }
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzSupport.body?(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
            return 0
        }
        exit(status)
    }

    /// Writes `target`'s seeds into `directory`; the process's exit status.
    static func writeSeeds<Target: FuzzTarget>(_ target: Target.Type, into directory: URL) -> Int32 {
        let scratch = scratch(Target.name + "-seeds")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let seeds = try Target.seeds(FuzzSeedSources(root: root, scratch: scratch))
            for (k, seed) in seeds.enumerated() {
                try Data(seed.bytes).write(to: directory.appendingPathComponent(seed.fileName(position: k)))
            }
            print("\(seeds.count) seeds of \(Target.name) in \(directory.path)")
            return 0
        } catch {
            FileHandle.standardError.write(Data("making the seeds of \(Target.name) from \(root.path): \(error)\n".utf8))
            return 1
        }
    }

    /// A scratch directory of a fuzz target (in /dev/shm when there is one: thousands of
    /// writes a second).
    static func scratch(_ name: String) -> URL {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("tonight-fuzz-\(name)-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
