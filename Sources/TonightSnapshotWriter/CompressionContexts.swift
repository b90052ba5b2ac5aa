import CZstd
import Foundation

/// A writer's zstd compression contexts, configured once (level, content checksum and size,
/// dictionary) and kept across its batches. One created per batch and worker allocated its
/// workspace anew every 4 MiB of records: fresh pages, so page faults, over a dataset of
/// gigabytes. Contexts are taken and given back under a lock, and freed in `deinit`.
final class CompressionContexts: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [OpaquePointer] = []
    private let level: Int32
    private let dictionary: CompressionDictionary?

    init(level: Int32, dictionary: CompressionDictionary?) {
        self.level = level
        self.dictionary = dictionary
    }

    deinit {
        for c in free { ZSTD_freeCCtx(c) }
    }

    /// Runs `body` with a configured context (nil when zstd cannot allocate one). A frame
    /// starts with `ZSTD_CCtx_reset(_, ZSTD_reset_session_only)`, which keeps the parameters
    /// and the dictionary: the bytes are those of a fresh context.
    func with<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T? {
        lock.lock()
        let reused = free.popLast()
        lock.unlock()
        guard let cctx = reused ?? makeContext() else { return nil }
        defer {
            lock.lock()
            free.append(cctx)
            lock.unlock()
        }
        return try body(cctx)
    }

    private func makeContext() -> OpaquePointer? {
        guard let cctx = ZSTD_createCCtx() else { return nil }
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1)
        if let dictionary { ZSTD_CCtx_refCDict(cctx, dictionary.cdict) }
        return cctx
    }
}
