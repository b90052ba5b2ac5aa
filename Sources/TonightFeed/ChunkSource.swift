import Foundation
import TonightCore

/// Where the parser's input chunks come from; the last call passes an empty chunk.
///
/// Each chunk comes with the start-tag pre-scan's verdict on it (`StartTagScan`, run on
/// every chunk in order before libxml2 sees it): the first attribute flood found, after
/// which no chunk follows.
protocol ChunkSource {
    func forEachChunk(scanning tags: StartTagScan, _ body: (UnsafeRawBufferPointer, StartTagScan.Violation?) throws -> Void) throws
    var consumedBytes: Int64 { get }
}

/// A decoded stream (gzip, zstd, or a plain file read with read(2)), read and scanned on
/// the caller's thread.
final class StreamChunks: ChunkSource {
    let source: any ByteSource
    let path: String

    init(source: any ByteSource, path: String) {
        self.source = source
        self.path = path
    }

    var consumedBytes: Int64 { source.compressedBytesRead }

    func forEachChunk(scanning tags: StartTagScan, _ body: (UnsafeRawBufferPointer, StartTagScan.Violation?) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FeedParser.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var tags = tags
        while true {
            let n: Int
            do {
                n = try source.read(into: buffer)
            } catch var e as TonightError {
                if e.file == nil { e.file = path }
                throw e
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            let violation = tags.verdict(chunk)
            try body(chunk, violation)
            if n == 0 || violation != nil { return }
        }
    }
}

extension StartTagScan {
    /// `scan` as a value: the violation in `chunk`, if any.
    mutating func verdict(_ chunk: UnsafeRawBufferPointer) -> Violation? {
        do {
            try scan(chunk)
            return nil
        } catch {
            return error
        }
    }
}
