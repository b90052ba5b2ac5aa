import Foundation
import Testing
import TonightBase
import TonightCore
import TonightSnapshot
import TonightTesting
@testable import TonightPipeline

/// The hash cache's prefetch (a new night's inputs hashed on every core before the plan):
/// the same hashes as hashing each file alone, each file read once, and an edit after the
/// prefetch still seen.
@Suite struct FileHashCacheTests {
    /// Files of 0 bytes to a few MiB (more than one read block), written now: inside the racy
    /// window, where only the prefetch's own entries may be trusted.
    static func files(in dir: URL) throws -> [URL] {
        try [0, 1, 4_095, 1 << 20, (3 << 20) + 17, 65_536, 12].enumerated().map { k, size in
            let url = dir.appendingPathComponent("input-\(k).csv")
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { b, n in
                var x = UInt64(k + 1) &* 0x9E37_79B9_7F4A_7C15
                for i in 0..<size {
                    x ^= x << 13; x ^= x >> 7; x ^= x << 17
                    b[i] = UInt8(truncatingIfNeeded: x)
                }
                n = size
            }
            try Data(bytes).write(to: url)
            return url
        }
    }

    /// The reader library's own SHA-256 (not swift-crypto's, which the cache uses).
    static func sha256(_ url: URL) throws -> String {
        var h = TonightSnapshot.SHA256()
        h.update(Array(try Data(contentsOf: url)))
        return h.finalizeHex()
    }

    @Test(arguments: [1, 2, 5])
    func prefetchHashesEachFileOnceAndRight(threads: Int) throws {
        let dir = temporaryDirectory("tonight-hash-prefetch")
        let inputs = try Self.files(in: dir)
        let cache = FileHashCache(work: dir)
        // Duplicates and a missing file are fine: the missing one is left to `hash`. (The
        // width is passed, not set for the process: other suites run their stages beside this one.)
        try cache.prefetch(inputs + [inputs[2], dir.appendingPathComponent("absent.csv")], width: threads)
        #expect(cache.filesHashed == inputs.count)
        for url in inputs {
            let (hash, bytes) = try cache.hash(url)
            #expect(hash == (try Self.sha256(url)), "\(url.lastPathComponent)")
            #expect(bytes == Int64(try Data(contentsOf: url).count))
        }
        #expect(cache.filesHashed == inputs.count, "a prefetched file was hashed again")
        #expect(throws: TonightError.self) { try cache.hash(dir.appendingPathComponent("absent.csv")) }
    }

    /// A file changed after the prefetch is hashed again (its identity changed); the others
    /// are still answered from the prefetch.
    @Test func anEditAfterThePrefetchIsSeen() throws {
        let dir = temporaryDirectory("tonight-hash-prefetch")
        let inputs = try Self.files(in: dir)
        let cache = FileHashCache(work: dir)
        try cache.prefetch(inputs)
        let handle = try FileHandle(forWritingTo: inputs[3])
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("late line\n".utf8))
        try handle.close()
        #expect(try cache.hash(inputs[3]).hash == (try Self.sha256(inputs[3])))
        #expect(try cache.hash(inputs[4]).hash == (try Self.sha256(inputs[4])))
        #expect(cache.filesHashed == inputs.count + 1)
    }
}
