import CZlib
import Foundation

/// Streaming gzip decoder on zlib (multi-member files accepted). Owns the z_stream.
final class GzipSource: ByteSource {
    private let inner: any ByteSource
    private let path: String
    private var stream = z_stream()
    private var input: UnsafeMutableRawBufferPointer
    private var finished = false
    private var streamEnded = false

    init(_ inner: any ByteSource, path: String) throws {
        self.inner = inner
        self.path = path
        input = .allocate(byteCount: 1 << 18, alignment: 16)
        // 15 + 16: gzip wrapper only, 32 KiB window.
        // Every property is set by now, so a throw runs `deinit`, which frees `input` and
        // ends the stream (a no-op on one whose initialisation failed): freeing here too
        // would free the buffer twice.
        guard tonight_inflateInit2(&stream, 15 + 16) == Z_OK else {
            throw TonightError(.internal, "zlib initialisation failed", file: path)
        }
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    var compressedBytesRead: Int64 { inner.compressedBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if finished { return 0 }
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(buffer.count)
        while stream.avail_out > 0 {
            if stream.avail_in == 0 {
                let n = try inner.read(into: input)
                if n == 0 {
                    if !streamEnded {
                        throw TonightError(.invalidInput, "truncated gzip stream", file: path,
                                           hint: "the file is incomplete: fetch it again")
                    }
                    finished = true
                    break
                }
                stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(n)
                if streamEnded {
                    // Another gzip member follows.
                    inflateReset(&stream)
                    streamEnded = false
                }
            }
            let rc = inflate(&stream, Z_NO_FLUSH)
            if rc == Z_STREAM_END {
                streamEnded = true
                if stream.avail_in > 0 {
                    inflateReset(&stream)
                    streamEnded = false
                }
                continue
            }
            if rc != Z_OK && rc != Z_BUF_ERROR {
                let msg = stream.msg.map { String(cString: $0) } ?? "code \(rc)"
                throw TonightError(.invalidInput, "corrupt gzip data: \(msg)", file: path)
            }
        }
        return buffer.count - Int(stream.avail_out)
    }
}
