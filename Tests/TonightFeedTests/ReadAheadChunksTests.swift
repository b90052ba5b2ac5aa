import Foundation
import Testing
import TonightBase
import TonightCore
@testable import TonightFeed

/// The feed read and pre-scanned on a thread of its own gives the parser what reading on
/// its own thread gave: the same chunks in the same order, the same start-tag verdicts, the
/// same final empty chunk, the same errors at the same place, nothing after a violation or
/// an error, and a consumer that stops early stops the reader.
@Suite struct ReadAheadChunksTests {
    /// A source of `bytes` handed out `piece` bytes at a time at most, failing once `failAt`
    /// bytes are out.
    final class ScriptedSource: ByteSource {
        let bytes: [UInt8]
        let piece: Int
        let failAt: Int?
        private(set) var at = 0
        private(set) var reads = 0

        init(_ bytes: [UInt8], piece: Int, failAt: Int? = nil) {
            (self.bytes, self.piece, self.failAt) = (bytes, piece, failAt)
        }

        var compressedBytesRead: Int64 { Int64(at) }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            reads += 1
            if let failAt, at >= failAt { throw TonightError(.invalidInput, "the source broke at byte \(at)") }
            let n = min(buffer.count, piece, bytes.count - at, (failAt ?? .max) - at)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + at, byteCount: n) }
            at += n
            return n
        }
    }

    /// What a parser sees: each chunk's bytes, verdict and the consumed count after it, then
    /// the error that ended the walk.
    struct Seen: Equatable {
        var chunks: [[UInt8]] = []
        var violations: [Int64?] = []
        var consumed: [Int64] = []
        var error: String?
    }

    static func walk(_ source: some ChunkSource, limit: Int, stopAfter: Int? = nil) -> Seen {
        var seen = Seen()
        do {
            try source.forEachChunk(scanning: StartTagScan(maxAttributes: limit)) { chunk, violation in
                seen.chunks.append(Array(chunk))
                seen.violations.append(violation?.offset)
                seen.consumed.append(source.consumedBytes)
                if let stopAfter, seen.chunks.count == stopAfter { throw TonightError(.internal, "the consumer stopped") }
            }
        } catch {
            seen.error = "\(error)"
        }
        return seen
    }

    @Test(arguments: [1, 7, 4096, 1 << 18], [false, true])
    func givesWhatTheReadingOnTheParsersThreadGave(piece: Int, failing: Bool) {
        for seed in UInt64(1)...12 {
            // Documents with and without an attribute flood (a limit of 3, or none reached).
            let limit = seed % 3 == 0 ? 1_000 : 3
            let (bytes, _) = StartTagScanTests.document(seed: seed, limit: limit)
            let failAt = failing ? bytes.count / 2 : nil
            let before = Self.walk(StreamChunks(source: ScriptedSource(bytes, piece: piece, failAt: failAt), path: "feed.xml"), limit: limit)
            let ahead = Self.walk(ReadAheadChunks(source: ScriptedSource(bytes, piece: piece, failAt: failAt), path: "feed.xml"), limit: limit)
            #expect(ahead == before, "seed \(seed), pieces of \(piece), failing \(failing)")
            // The walk ends as the source and the scan say: at a violation, an error, or the
            // empty chunk.
            if before.violations.last != nil {
                #expect(before.violations.dropLast().allSatisfy { $0 == nil })
            } else if failing {
                #expect(before.error?.contains("feed.xml") == true && before.error?.contains("broke") == true)
            } else {
                #expect(before.chunks.last == [] && before.error == nil)
                #expect(before.chunks.flatMap { $0 } == bytes)
            }
        }
    }

    @Test func nothingIsReadAfterAViolation() throws {
        let (bytes, violation) = StartTagScanTests.document(seed: 3, limit: 2)
        let at = try #require(violation)
        let source = ScriptedSource(bytes, piece: 64)
        let seen = Self.walk(ReadAheadChunks(source: source, path: "feed.xml"), limit: 2)
        #expect(seen.violations.last == at)
        // The chunk that holds the flood is the last one read.
        #expect(source.at == seen.chunks.reduce(0) { $0 + $1.count })
    }

    @Test func aConsumerThatStopsStopsTheReader() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let source = ScriptedSource(bytes, piece: 100)
        // On a thread of its own, waited for with a deadline: a reader left waiting for a
        // buffer would hang the walk's join, and this test must fail then, not hang.
        let done = DispatchSemaphore(value: 0)
        let seen = Locked<Seen?>(nil)
        let box = UncheckedBox(source)
        Thread.detachNewThread {
            seen.withLock { $0 = Self.walk(ReadAheadChunks(source: box.value, path: "feed.xml"), limit: 3, stopAfter: 2) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 30) == .success else {
            Issue.record("the walk did not return within 30 s: the reader was not stopped")
            return
        }
        let walked = seen.current
        #expect(walked?.chunks.count == 2)
        #expect(walked?.error?.contains("the consumer stopped") == true)
        // The reader was joined, and had read at most its few chunks ahead.
        #expect(source.reads <= 2 + ReadAheadChunks.depth + 1)
    }

    /// A value handed to the test's own thread.
    final class UncheckedBox<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }
}

/// The reference `ReadAheadChunks` is held to: the stream read and scanned on the caller's
/// thread, one chunk at a time (how parse-feed read its feed until 2026-11-30).
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
