import Foundation
import Synchronization
import Testing
import TonightFuzzTargets
import TonightSnapshot
import TonightTesting

/// The libFuzzer targets' bodies in CI: each compiles with the code it reaches (the `playmate`
/// target's had stopped compiling when the ranker's JSON functions were renamed, unseen, since
/// the fuzz build is only made with `TONIGHT_FUZZ=1`), gets its seeds through to the code under
/// test (a body that refused its own seeds would fuzz only the first parser's errors), takes
/// mutations of them without a finding or a trap, and is no longer broken by any input it has
/// found (`Fixtures/fuzz-findings`).
@Suite struct FuzzTargetsTests {
    static let names = ["feed", "affinity", "csv", "config", "snapshot", "playmate"]

    static func target(_ name: String) throws -> any FuzzTarget {
        let scratch = temporaryDirectory("fuzz-\(name)")
        switch name {
        case "feed": return FeedFuzzTarget(scratch: scratch)
        case "affinity": return AffinityFuzzTarget(scratch: scratch)
        case "csv": return try CSVFuzzTarget(scratch: scratch)
        case "config": return ConfigFuzzTarget(scratch: scratch)
        case "snapshot": return try SnapshotFuzzTarget(scratch: scratch)
        default: return PlaymateFuzzTarget(scratch: scratch)
        }
    }

    /// Runs `input` through `target`.
    static func run(_ target: any FuzzTarget, _ input: [UInt8]) throws -> FuzzOutcome {
        try input.withUnsafeBufferPointer { try target.run($0) }
    }

    @Test(arguments: names)
    func everyTargetIsNamedAfterItsDirectory(_ name: String) throws {
        let target = try Self.target(name)
        #expect(type(of: target).name == name)
        #expect(FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Fuzz/\(name)/main.swift").path))
    }

    /// Every seed `scripts/fuzz.sh` makes is accepted and reaches what the target is for.
    @Test(arguments: names)
    func seedsGetThrough(_ name: String) throws {
        let target = try Self.target(name)
        let seeds = try FuzzSeeds.seeds(type(of: target))
        #expect(!seeds.isEmpty)
        for seed in seeds where seed.least != nil {
            let outcome = try Self.run(target, seed.bytes)
            guard case .accepted(let reached) = outcome else {
                Issue.record("\(name) seed \(seed.name) was refused")
                continue
            }
            #expect(reached >= seed.least!, "\(name) seed \(seed.name) reached \(reached)")
        }
    }

    /// The feed's compressed seeds come from the stock tools (`env` finds them on `PATH`):
    /// each is the tool's own format and decompresses to the tiny feed; a tool that is not
    /// installed gives no seed rather than an error.
    @Test(.enabled(if: ExternalTool.gzip.isAvailable && ExternalTool.zstd.isAvailable),
          arguments: [(ExternalTool.gzip, "feed.xml.gz", [UInt8]([0x1F, 0x8B])), (.zstd, "feed.xml.zst", [0x28, 0xB5, 0x2F, 0xFD])])
    func compressedFeedSeeds(_ tool: ExternalTool, _ name: String, _ magic: [UInt8]) throws {
        let seed = try #require(try FuzzSeeds.seeds(FeedFuzzTarget.self).first { $0.name == name })
        #expect(Array(seed.bytes.prefix(magic.count)) == magic)
        let file = temporaryDirectory("fuzz-seed").appendingPathComponent(name)
        try Data(seed.bytes).write(to: file)
        let plain = try shell("\(tool.rawValue) -dc '\(file.path)'").output
        #expect(Array(plain.utf8) == (try FuzzSeeds.sources.tiny("feed.xml")))
        #expect(try FuzzSeeds.sources.compressed("Fixtures/tiny/input/feed.xml", with: "no-such-compressor") == nil)
    }

    /// A compressor that fails is an error carrying what it wrote to stderr, however much: a
    /// tool that writes more than a pipe holds there before closing stdout must not block the
    /// seed source (it read stdout to its end before stderr until 2026-11-30).
    @Test func aFailingCompressorsMessagesAreKept() throws {
        let tool = temporaryDirectory("noisy-compressor").appendingPathComponent("noisy")
        try FileManager.default.createDirectory(at: tool.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written with O_CLOEXEC and closed before it runs: a descriptor open for writing that
        // another test's fork inherited would make the exec fail with "Text file busy".
        let script = Array("#!/bin/sh\nhead -c 200000 /dev/zero | tr '\\0' x >&2\necho tail-of-the-message >&2\nexit 3\n".utf8)
        let fd = open(tool.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(fd >= 0)
        #expect(script.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == script.count)
        close(fd)
        // The narrow window left (another test's spawn between this open and its exec) is
        // retried, not mistaken for the tool's failure.
        for attempt in 1...5 {
            // On a thread of its own, waited for with a deadline: a blocked call would hang the
            // whole test run (a time limit does not interrupt a blocked read).
            let outcome = Mutex<Result<[UInt8]?, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            let path = tool.path
            Thread.detachNewThread {
                let result = Result { try FuzzSeeds.sources.compressed("Fixtures/tiny/input/feed.xml", with: path) }
                outcome.withLock { $0 = result }
                done.signal()
            }
            guard done.wait(timeout: .now() + 60) == .success, let result = outcome.withLock({ $0 }) else {
                Issue.record("the seed source blocked on a tool that wrote 200,000 bytes to stderr")
                return
            }
            switch result {
            case .success:
                Issue.record("a compressor that exits 3 gave a seed")
            case .failure(let error):
                let text = "\(error)"
                if text.contains("Text file busy"), attempt < 5 { continue }
                #expect(error is FuzzSeedSources.SeedError)
                #expect(text.contains("exited with 3"))
                #expect(text.contains("tail-of-the-message"))
                #expect(text.utf8.count > 200_000)
            }
            break
        }
    }

    /// Every input a fuzz target has found (`Fixtures/fuzz-findings/TARGET-what`) runs through
    /// its target without a finding.
    @Test func findingsStayFixed() throws {
        let dir = packageRoot.appendingPathComponent("Fixtures/fuzz-findings")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "README.md" }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let name = String(file.prefix { $0 != "-" })
            #expect(Self.names.contains(name), "\(file) names no target")
            guard Self.names.contains(name) else { continue }
            _ = try Self.run(try Self.target(name), Array(try Data(contentsOf: dir.appendingPathComponent(file))))
        }
    }

    /// Mutations of every seed (cut short, bytes replaced by the ones parsers trip on,
    /// pieces repeated or dropped) are refused or accepted, never a finding; a trap would end
    /// the test process.
    @Test(arguments: names)
    func mutantsAreNeverAFinding(_ name: String) throws {
        let target = try Self.target(name)
        var refused = 0, accepted = 0
        // An empty input: nothing to read, but for the config, whose every key has a default.
        #expect(try Self.run(target, []) == (name == "config" ? .accepted(reached: 1) : .refused))
        for seed in try FuzzSeeds.seeds(type(of: target)) {
            // The snapshot target's first byte chooses the parser: kept, so each gets mutants.
            let keep = name == "snapshot" ? 1 : 0
            for mutant in FuzzSeeds.mutants(of: seed.bytes, keepingPrefix: keep, count: name == "snapshot" ? 96 : 48) {
                switch try Self.run(target, mutant) {
                case .refused: refused += 1
                case .accepted: accepted += 1
                }
            }
        }
        // Both paths are taken: mutants that only ever failed would not test the later steps.
        #expect(refused > 0)
        #expect(accepted > 0)
    }
}
