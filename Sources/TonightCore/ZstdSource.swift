import CZstd
import Foundation

/// Streaming zstd decoder (any number of frames, skippable frames ignored). Owns the DCtx.
final class ZstdSource: ByteSource {
    private let inner: any ByteSource
    private let path: String
    private let dctx: OpaquePointer
    private var input: UnsafeMutableRawBufferPointer
    private var inBuf = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
    private var finished = false
    private var lastRC: Int = 0
    private let windowLogMax: Int32

    init(_ inner: any ByteSource, path: String, windowLogMax: Int32) throws {
        self.inner = inner
        self.path = path
        self.windowLogMax = windowLogMax
        guard let d = ZSTD_createDCtx() else { throw TonightError(.internal, "zstd: out of memory", file: path) }
        dctx = d
        ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, windowLogMax)
        input = .allocate(byteCount: ZSTD_DStreamInSize(), alignment: 16)
    }

    deinit {
        ZSTD_freeDCtx(dctx)
        input.deallocate()
    }

    var compressedBytesRead: Int64 { inner.compressedBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if finished { return 0 }
        var out = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
        while out.pos < out.size {
            if inBuf.pos == inBuf.size {
                let n = try inner.read(into: input)
                if n == 0 {
                    // lastRC == 0 means the last frame was complete.
                    if lastRC != 0 {
                        throw TonightError(.invalidInput, "truncated zstd stream", file: path,
                                           hint: "the file is incomplete: fetch it again")
                    }
                    finished = true
                    break
                }
                inBuf = ZSTD_inBuffer(src: UnsafeRawPointer(input.baseAddress), size: n, pos: 0)
            }
            let rc = ZSTD_decompressStream(dctx, &out, &inBuf)
            if ZSTD_isError(rc) != 0 {
                if ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge {
                    throw TonightError(.invalidInput, "the zstd stream needs a window larger than 2^\(windowLogMax) bytes", file: path,
                                       hint: "raise feed.limits.zstdWindowLogMax if the file is genuine (zstd --long=N needs N)")
                }
                throw TonightError(.invalidInput, "corrupt zstd data: \(String(cString: ZSTD_getErrorName(rc)))", file: path)
            }
            lastRC = rc
        }
        return out.pos
    }
}
