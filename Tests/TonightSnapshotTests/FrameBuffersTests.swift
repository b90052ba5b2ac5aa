import CZstd
import Foundation
import Testing
import TonightBase
@testable import TonightSnapshotWriter

/// The compression workers' kept buffers: each worker's own, grown on demand (contents not
/// kept), workers growing theirs at the same time.
@Suite struct FrameBuffersTests {
    @Test func eachWorkerGrowsAndReadsItsOwnBuffer() throws {
        let buffers = FrameBuffers(workers: 3)
        let sizes = [100, 5_000, 70_000, 64, 1 << 20]
        // Every worker at once, several rounds of different sizes: worker w fills its buffer
        // with its own pattern, then the buffers are read back after the workers are done.
        for (round, size) in sizes.enumerated() {
            try Parallel.forEach(buffers.workers, width: buffers.workers) { w in
                let b = buffers.buffer(w, atLeast: size)
                for i in 0..<size { b.storeBytes(of: UInt8(truncatingIfNeeded: i &* 31 &+ w &* 7 &+ round), toByteOffset: i, as: UInt8.self) }
            }
            for w in 0..<buffers.workers {
                let bytes = buffers.bytes(w, 0..<size)
                #expect(bytes.count == size)
                #expect(bytes.indices.allSatisfy { bytes[$0] == UInt8(truncatingIfNeeded: $0 &* 31 &+ w &* 7 &+ round) }, "worker \(w), round \(round)")
            }
            #expect(buffers.bytes(1, 10..<20).count == 10)
        }
        // A smaller request reuses the buffer it has.
        let big = buffers.buffer(0, atLeast: 1 << 20)
        #expect(buffers.buffer(0, atLeast: 10) == big)
    }

    /// A dataset of many 4 MiB batches (so the kept buffers are reused and grown) reads back
    /// whole, and a second writer of the same records writes the same bytes.
    @Test func aWriterOfManyBatchesIsDeterministic() throws {
        var expected: [UInt8] = []
        func write() throws -> [UInt8] {
            expected = []
            var w = SeekableZstdWriter(frameBytes: 2 << 10, level: 1)
            for i in 0..<60_000 {
                let key = String(format: "k%08d", i)
                let padding = String(repeating: "x", count: i % 300)
                let json = Array(#"{"key":"\#(key)","pad":"\#(padding)"}"#.utf8)
                try w.append(key: key, json: json)
                expected += json + [0x0A]
            }
            return try w.finish()
        }
        let a = try write(), b = try write()
        #expect(a == b)
        #expect(expected.count > 3 * (4 << 20) / 2)  // ~11 MB of records: several batches
        // Every frame decompressed in order (the seek table is a skippable frame).
        var out = [UInt8](repeating: 0, count: expected.count + 1)
        let n = ZSTD_decompress(&out, out.count, a, a.count)
        #expect(ZSTD_isError(n) == 0)
        #expect(Array(out[..<min(n, out.count)]) == expected)
    }
}
