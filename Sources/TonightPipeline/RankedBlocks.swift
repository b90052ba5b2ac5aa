import Foundation
import TonightBase
import TonightCore

/// What a per-user stage's workers fill with one chunk's records: emptied after it is written
/// and filled again, so that its buffers are allocated once per run, not once per block.
protocol RecycledBatch: Sendable {
    /// An empty batch (only while no spare one is left).
    init()
    /// Empties every buffer, keeping its storage.
    mutating func removeAll()
}

/// The pipeline of the per-user stages (`tickets`, `playmate`): people in blocks, each block
/// ranked on every core into batches while a writer thread appends the previous block's
/// batches to the datasets (whose frames compress on every core), so ranking and writing
/// overlap.
///
/// A block is cut into contiguous chunks, several per worker, taken as workers come free
/// (people's costs are skewed, and the writer thread takes a core now and then: one slice per
/// worker left a core idle at the end of every block). A chunk borrows a free scratch (a
/// ranker's buffers; never two chunks at once) and a spare batch. The batches reach `write` in
/// people order, so the bytes written do not depend on the number of workers or on who ranked
/// what.
struct RankedBlocks<Batch: RecycledBatch, Scratch: Sendable> {
    /// People in all (indexes `0..<count`).
    let count: Int
    /// People per block: each block is ranked on all cores, then handed to the writer.
    let blockSize: Int
    /// Chunks of a block per worker (load balance against a chunk's fixed cost).
    let chunksPerWorker: Int
    /// Blocks ranked but not yet written (besides the one being written).
    static var waiting: Int { 2 }

    /// Ranks every block with `fill` (people `range`, a scratch, an empty batch) on exactly
    /// `scratches.count` workers, and hands each block's batches, in order, to `write` on a
    /// thread of its own. Checks for an interruption before every block and reports each
    /// finished block's end to `blockDone`. An error of `write` stops the ranking and is
    /// thrown here. Returns the nanoseconds spent ranking.
    ///
    /// On exactly `scratches.count` threads, one scratch each: the package's width is global
    /// and may change while the stage runs (another run in the process, a test).
    func run(
        scratches: [Scratch],
        fill: @Sendable (Range<Int>, inout Scratch, inout Batch) -> Void,
        write: @escaping @Sendable ([Batch]) throws -> Void,
        blockDone: (Int) -> Void = { _ in }
    ) throws -> UInt64 {
        let workers = scratches.count
        precondition(workers > 0 && blockSize > 0 && chunksPerWorker > 0)
        let idle = Locked(scratches)
        let handoff = Handoff<[Batch]>(capacity: Self.waiting)
        // Emptied batches come back for the next blocks (their buffers are reused).
        let spare = Locked<[Batch]>([])
        let writer = BackgroundJob()
        writer.start {
            do {
                while var parts = handoff.take() {
                    try write(parts)
                    // Popped, each batch's buffers are referenced once, so emptying them keeps
                    // their memory (emptying a copy while `parts` still held the original
                    // allocated fresh buffers for every block).
                    while var p = parts.popLast() {
                        p.removeAll()
                        spare.withLock { $0.append(p) }
                    }
                }
            } catch {
                handoff.cancel()
                throw error
            }
        }
        // If anything below throws, the writer thread must not wait for blocks forever.
        defer { handoff.cancel() }
        let chunks = workers * chunksPerWorker
        var rankNanos: UInt64 = 0
        var start = 0
        while start < count {
            try Interruption.check()
            let t0 = DispatchTime.now().uptimeNanoseconds
            let blockStart = start, blockEnd = min(count, start + blockSize)
            let parts = try Parallel.map(chunks, width: workers) { c -> Batch in
                var scratch = idle.withLock { $0.popLast() }!  // at most `workers` chunks run at once
                defer { idle.withLock { [scratch] in $0.append(scratch) } }
                var batch = spare.withLock { $0.popLast() } ?? Batch()
                let r = Parallel.range(c, of: chunks, in: blockEnd - blockStart)
                fill((blockStart + r.lowerBound)..<(blockStart + r.upperBound), &scratch, &batch)
                return batch
            }
            rankNanos += DispatchTime.now().uptimeNanoseconds - t0
            guard handoff.put(parts) else { break }  // the writer failed: its error is thrown below
            start = blockEnd
            blockDone(start)
        }
        handoff.close()
        try writer.join()
        return rankNanos
    }
}
