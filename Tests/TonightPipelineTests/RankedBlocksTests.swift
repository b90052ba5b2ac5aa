import Foundation
import Testing
import TonightBase
@testable import TonightPipeline

/// The per-user stages' pipeline (`RankedBlocks`, shared by `tickets` and `playmate`): every
/// person reaches the writer once, in order, whatever the workers, block and chunk sizes; a
/// scratch is never lent to two chunks at once; batches are recycled; a writer's error stops
/// the ranking and is thrown.
@Suite(.serialized) struct RankedBlocksTests {
    /// A batch that notes the people it was filled with, and counts how many were made (the
    /// suite is serialized: the count is global).
    struct Batch: RecycledBatch {
        static let made = Locked(0)
        var people: [Int] = []
        init() { Self.made.withLock { $0 += 1 } }
        mutating func removeAll() { people.removeAll(keepingCapacity: true) }
    }

    /// A scratch that says when two chunks hold it at once.
    final class Scratch: @unchecked Sendable {
        let busy = Locked(false)
        let overlapped = Locked(false)
        let uses = Locked(0)
    }

    struct Failure: Error, Equatable {}

    static let cases: [(count: Int, blockSize: Int, chunksPerWorker: Int, workers: Int)] = [
        (0, 8, 2, 2), (1, 8, 2, 2), (7, 8, 2, 2), (8, 8, 2, 2), (9, 8, 2, 2),
        (1_000, 64, 8, 1), (1_000, 64, 8, 2), (1_000, 64, 8, 3), (1_000, 100, 3, 5), (5, 64, 8, 4),
    ]

    @Test(arguments: cases)
    func everyPersonIsWrittenOnceInOrder(_ c: (count: Int, blockSize: Int, chunksPerWorker: Int, workers: Int)) throws {
        let scratches = (0..<c.workers).map { _ in Scratch() }
        let written = Locked<[Int]>([])
        let notEmpty = Locked(0)
        let blocksDone = Locked<[Int]>([])
        let blocks = RankedBlocks<Batch, Scratch>(count: c.count, blockSize: c.blockSize, chunksPerWorker: c.chunksPerWorker)
        _ = try blocks.run(
            scratches: scratches,
            fill: { range, scratch, batch in
                scratch.busy.withLock { busy in
                    if busy { scratch.overlapped.withLock { $0 = true } }
                    busy = true
                }
                scratch.uses.withLock { $0 += 1 }
                usleep(100)  // held a while, so that a scratch lent twice would be seen
                if !batch.people.isEmpty { notEmpty.withLock { $0 += 1 } }  // a recycled batch comes back empty
                batch.people += range
                scratch.busy.withLock { $0 = false }
            },
            write: { parts in written.withLock { $0 += parts.flatMap(\.people) } },
            blockDone: { end in blocksDone.withLock { $0.append(end) } })
        #expect(written.current == Array(0..<c.count))
        #expect(notEmpty.current == 0)
        let blockEnds = stride(from: c.blockSize, to: c.count, by: c.blockSize).map { $0 } + (c.count > 0 ? [c.count] : [])
        #expect(blocksDone.current == blockEnds)
        #expect(scratches.allSatisfy { !$0.overlapped.current })
        let chunks = c.workers * c.chunksPerWorker
        #expect(scratches.reduce(0) { $0 + $1.uses.current } == chunks * blockEnds.count)
    }

    /// Over many blocks the batches made stay bounded by the blocks in flight (the block being
    /// ranked, those waiting and the one being written), instead of a set per block.
    @Test func batchesAreRecycled() throws {
        let before = Batch.made.current
        let blocks = RankedBlocks<Batch, Scratch>(count: 10_000, blockSize: 10, chunksPerWorker: 2)
        _ = try blocks.run(
            scratches: [Scratch(), Scratch()],
            fill: { range, _, batch in batch.people += range },
            write: { _ in })
        let made = Batch.made.current - before
        let chunks = 2 * 2
        #expect(made <= chunks * (RankedBlocks<Batch, Scratch>.waiting + 2), "\(made) batches for 1,000 blocks")
    }

    /// A writer that fails stops the ranking (within the blocks already in flight), and its
    /// error is the one thrown.
    @Test func aWritersErrorStopsTheRankingAndIsThrown() throws {
        let filled = Locked(0)
        let blocks = RankedBlocks<Batch, Scratch>(count: 100_000, blockSize: 10, chunksPerWorker: 1)
        #expect(throws: Failure.self) {
            _ = try blocks.run(
                scratches: [Scratch(), Scratch()],
                fill: { range, _, batch in
                    filled.withLock { $0 += range.count }
                    batch.people += range
                },
                write: { parts in
                    if parts.first?.people.first == 20 { throw Failure() }
                })
        }
        // Blocks 0 and 1 written, block 2 failed; at most the blocks waiting and the one being
        // ranked were filled after it.
        #expect(filled.current <= 10 * (3 + RankedBlocks<Batch, Scratch>.waiting + 1))
    }
}
