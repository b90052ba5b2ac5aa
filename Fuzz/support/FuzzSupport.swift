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
    package static func run<Target: FuzzTarget>(_ target: Target.Type) -> Never {
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

    /// A scratch directory of a fuzz target (in /dev/shm when there is one: thousands of
    /// writes a second).
    static func scratch(_ name: String) -> URL {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("tonight-fuzz-\(name)-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
