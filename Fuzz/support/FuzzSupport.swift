import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// What the fuzz targets share: libFuzzer's driver (linked as a library, since SwiftPM gives
/// every executable its own `main`) and scratch files.
public enum FuzzSupport {
    nonisolated(unsafe) private static var body: ((UnsafePointer<UInt8>, Int) -> Void)?

    /// Runs libFuzzer with the process's arguments, calling `body` with every input; exits
    /// with libFuzzer's status.
    public static func run(_ body: @escaping (UnsafePointer<UInt8>, Int) -> Void) -> Never {
        Self.body = body
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let empty: [UInt8] = [0]
            if let data { FuzzSupport.body?(data, size) } else { empty.withUnsafeBufferPointer { FuzzSupport.body?($0.baseAddress!, 0) } }
            return 0
        }
        exit(status)
    }

    /// A scratch directory of a fuzz target (in /dev/shm when there is one: thousands of
    /// writes a second).
    public static func scratch(_ name: String) -> URL {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("tonight-fuzz-\(name)-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    public static func write(_ data: UnsafePointer<UInt8>, _ count: Int, to url: URL) {
        try? Data(bytes: data, count: count).write(to: url)
    }

    public static func write(_ bytes: [UInt8], to url: URL) {
        try? Data(bytes).write(to: url)
    }
}
