import CZstd
import Foundation

/// A pool of zstd decompression contexts shared by the threads reading a file. Creating a
/// context allocates ~100 KB, which would cost more than decompressing a small frame.
final class DecompressionContexts: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [OpaquePointer] = []

    init() {}

    deinit {
        for d in free { ZSTD_freeDCtx(d) }
    }

    /// Runs `body` with a context taken from the pool (or a new one) and returns it after.
    func with<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        lock.lock()
        let d = free.popLast()
        lock.unlock()
        guard let dctx = d ?? ZSTD_createDCtx() else { throw SnapshotError(file: "(zstd)", "out of memory") }
        defer {
            lock.lock()
            if free.count < 16 { free.append(dctx) } else { ZSTD_freeDCtx(dctx) }
            lock.unlock()
        }
        return try body(dctx)
    }
}
