import Foundation
import TonightBase
import TonightCore

/// A decoded stream read and pre-scanned a few chunks ahead of the parser, on a thread of
/// its own: the `read(2)` copies, the start-tag scan (and, for `.gz` and `.zst` feeds, the
/// decompression) leave libxml2's thread, the critical path of parse-feed
/// (parse-feed-log.md, "Reading ahead again").
///
/// The chunks, their order, the scan's verdicts, the final empty chunk and every error are
/// those of reading on libxml2's thread (`ReadAheadChunksTests`' `StreamChunks`); a read error
/// reaches the parser after the chunks before it, as it would have. Nothing is read after
/// the empty chunk, an error or a violation. At most `depth` chunks are held.
final class ReadAheadChunks: ChunkSource {
    static let depth = 4

    private let source: SourceBox
    let path: String
    /// The source's bytes consumed up to the chunk the parser was last given.
    private(set) var consumedBytes: Int64 = 0

    init(source: any ByteSource, path: String) {
        self.source = SourceBox(source)
        self.path = path
    }

    func forEachChunk(scanning tags: StartTagScan, _ body: (UnsafeRawBufferPointer, StartTagScan.Violation?) throws -> Void) throws {
        let filled = Handoff<Filled>(capacity: Self.depth)
        let empty = Handoff<ChunkBuffer>(capacity: Self.depth)
        for _ in 0..<Self.depth { empty.put(ChunkBuffer(byteCount: FeedParser.chunkSize)) }
        let reader = BackgroundJob()
        let source = self.source
        // The reader owns the source until it is joined: nothing else touches it meanwhile.
        reader.start {
            var tags = tags
            while let buffer = empty.take() {
                var item = Filled(buffer: buffer)
                do {
                    item.count = try source.value.read(into: buffer.memory)
                    item.consumed = source.value.compressedBytesRead
                    item.violation = tags.verdict(UnsafeRawBufferPointer(rebasing: buffer.memory[0..<item.count]))
                } catch {
                    item.error = error
                }
                guard filled.put(item), item.count > 0, item.error == nil, item.violation == nil else { break }
            }
            filled.close()
        }
        defer {
            filled.cancel()
            empty.cancel()
            try? reader.join()
        }
        while let item = filled.take() {
            if let failure = item.error {
                if var e = failure as? TonightError, e.file == nil {
                    e.file = path
                    throw e
                }
                throw failure
            }
            consumedBytes = item.consumed
            try body(UnsafeRawBufferPointer(rebasing: item.buffer.memory[0..<item.count]), item.violation)
            if item.count == 0 || item.violation != nil { return }
            empty.put(item.buffer)
        }
        throw TonightError(.internal, "the feed's reader stopped before the end of the input", file: path)
    }

    /// The source, handed to the reader's thread (used by one thread at a time).
    private final class SourceBox: @unchecked Sendable {
        let value: any ByteSource
        init(_ value: any ByteSource) { self.value = value }
    }

    /// One chunk's memory, passed between the two threads (owned by one at a time).
    private final class ChunkBuffer: @unchecked Sendable {
        let memory: UnsafeMutableRawBufferPointer
        init(byteCount: Int) { memory = .allocate(byteCount: byteCount, alignment: 16) }
        deinit { memory.deallocate() }
    }

    /// A chunk read and scanned (or the error that ended the reading).
    private struct Filled: Sendable {
        var buffer: ChunkBuffer
        var count = 0
        var consumed: Int64 = 0
        var violation: StartTagScan.Violation?
        var error: (any Error)?
    }
}
