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
