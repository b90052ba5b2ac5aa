import Foundation
import TonightCore

/// Where the parser's input chunks come from; the last call passes an empty chunk.
protocol ChunkSource {
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws
    var consumedBytes: Int64 { get }
}

/// A decoded stream (gzip, zstd, or a plain file read with read(2)).
final class StreamChunks: ChunkSource {
    let source: any ByteSource
    let path: String

    init(source: any ByteSource, path: String) {
        self.source = source
        self.path = path
    }

    var consumedBytes: Int64 { source.compressedBytesRead }

    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FeedParser.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do {
                n = try source.read(into: buffer)
            } catch var e as TonightError {
                if e.file == nil { e.file = path }
                throw e
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            if n == 0 { return }
        }
    }
}
