import Foundation
import Testing
import Logging
import TonightBase
import TonightCore
@testable import TonightPipeline

/// Which shard a process is, whose users it owns, and how shard list lengths add up.
@Suite struct ShardTests {
    struct Resolution: Sendable, CustomTestStringConvertible {
        var flag: String?
        var environment: [String: String]
        var count: Int
        /// `I/N`, nil for "not a shard", or `error: <text in the message>`.
        var expected: String?
        var testDescription: String { "\(flag ?? "-") \(environment) count \(count) → \(expected ?? "nil")" }
    }

    static let resolutions: [Resolution] = [
        .init(flag: nil, environment: [:], count: 1, expected: nil),
        .init(flag: nil, environment: [:], count: 8, expected: nil),
        .init(flag: "2/7", environment: [:], count: 1, expected: "2/7"),
        .init(flag: "0/1", environment: [:], count: 1, expected: "0/1"),
        .init(flag: nil, environment: ["JOB_COMPLETION_INDEX": "3"], count: 4, expected: "3/4"),
        .init(flag: nil, environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "0"], count: 8, expected: "0/8"),
        .init(flag: nil, environment: ["SLURM_ARRAY_TASK_ID": "7"], count: 8, expected: "7/8"),
        // The default count: a one-task array is a whole run; a second task is a mistake.
        .init(flag: nil, environment: ["JOB_COMPLETION_INDEX": "0"], count: 1, expected: nil),
        .init(flag: nil, environment: ["JOB_COMPLETION_INDEX": "1"], count: 1, expected: "error: out of range for sharding.count 1"),
        .init(flag: "3/4", environment: ["JOB_COMPLETION_INDEX": "3"], count: 1, expected: "3/4"),
        .init(flag: "3/4", environment: ["JOB_COMPLETION_INDEX": "3"], count: 4, expected: "3/4"),
        .init(flag: "2/4", environment: ["JOB_COMPLETION_INDEX": "3"], count: 4, expected: "error: disagrees with JOB_COMPLETION_INDEX=3"),
        .init(flag: "2/4", environment: [:], count: 5, expected: "error: disagrees with sharding.count 5"),
        .init(flag: nil, environment: ["JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "2"], count: 4, expected: "error: disagree"),
        .init(flag: nil, environment: ["SLURM_ARRAY_TASK_ID": "8"], count: 8, expected: "error: out of range for sharding.count 8"),
        .init(flag: nil, environment: ["SLURM_ARRAY_TASK_ID": "x"], count: 8, expected: "error: is not a shard index"),
        .init(flag: "4/4", environment: [:], count: 1, expected: "error: out of range"),
        .init(flag: "1/0", environment: [:], count: 1, expected: "error: between 1 and 10000"),
        .init(flag: "1-4", environment: [:], count: 1, expected: "error: cannot read shard"),
    ]

    @Test(arguments: resolutions) func resolvesTheShardOfAProcess(_ r: Resolution) throws {
        do {
            let shard = try Shard.resolve(flag: r.flag, environment: r.environment, configCount: r.count)
            #expect(shard?.description == r.expected)
        } catch let e as TonightError {
            let want = try #require(r.expected, "unexpected error \(e)")
            #expect(want.hasPrefix("error: ") && e.message.contains(want.dropFirst(7)), "\(e.message)")
            #expect(e.exitCode == 2)
        }
    }

    /// The published FNV-1a 64 test vectors: a shard's users must be the same on every
    /// machine and in every version, so the hash is pinned.
    @Test func fnv1aIsThe64BitFunction() {
        #expect(Shard.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a("foobar") == 0x8594_4171_f739_67e8)
        #expect(Shard.owner(of: "foobar", count: 7) == Int(0x8594_4171_f739_67e8 as UInt64 % 7))
    }

    @Test(arguments: [1, 2, 3, 7]) func everyIDHasExactlyOneShard(_ n: Int) throws {
        let shards = try (0..<n).map { try Shard(index: $0, count: n) }
        var sizes = [Int](repeating: 0, count: n)
        for k in 0..<20_000 {
            let id = "user-\(k)"
            let owners = shards.filter { $0.owns(id) }
            #expect(owners.count == 1)
            sizes[owners[0].index] += 1
        }
        // Roughly even (a skewed hash would make one shard the night's bottleneck).
        #expect(sizes.allSatisfy { abs($0 - 20_000 / n) < 20_000 / n / 5 + 50 }, "\(sizes)")
    }

    /// The distribution from a histogram is the one from the sorted lengths, and shards'
    /// histograms add up to the whole's.
    @Test func listLengthsAddUpAcrossShards() throws {
        var g = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let lengths = (0..<Int.random(in: 0...300, using: &g)).map { _ in Int.random(in: 1...60, using: &g) }
            let users = lengths.count + Int.random(in: 0...50, using: &g)
            let whole = ListLengths(lengths, users: users)
            let s = lengths.sorted()
            let expected = s.isEmpty ? "0 of \(users) users have a list"
                : "\(s.count) of \(users) users; length min \(s[0]) median \(s[s.count / 2]) p90 \(s[s.count * 9 / 10]) max \(s.last!)"
            #expect(whole.distribution == expected)
            #expect(ListLengths(text: whole.text) == whole)
            let cut = Int.random(in: 0...lengths.count, using: &g)
            var merged = ListLengths(Array(lengths[..<cut]), users: cut)
            merged.add(ListLengths(Array(lengths[cut...]), users: users - cut))
            #expect(merged == whole)
        }
        #expect(ListLengths(text: "users=3 lengths=1:x") == nil)
        #expect(ListLengths(text: "lengths=1:2") == nil)
    }

    /// Shards share the work directory with each other, never with a whole run or a merge.
    @Test func locksKeepWholeRunsAndShardsApart() throws {
        let work = temporaryDirectory()
        do {
            let shard = try WorkLock(work: work, mode: .shared)
            let sibling = try WorkLock(work: work, mode: .shared)
            #expect(throws: TonightError.self) { try runner(inputs: tinyInputs, work: work).run() }
            withExtendedLifetime((shard, sibling)) {}
        }
        do {
            let whole = try WorkLock(work: work)
            let error = #expect(throws: TonightError.self) {
                try runner(inputs: tinyInputs, work: work) { $0.shard = try! Shard(index: 0, count: 2) }.run()
            }
            #expect(error?.exitCode == 75)
            withExtendedLifetime(whole) {}
        }
    }

    /// A shard waits while a sibling runs the shared stages, then goes on.
    @Test func aShardWaitsForTheSharedStages() throws {
        let work = temporaryDirectory()
        var logger = Logger(label: "test")
        logger.logLevel = .error
        var held: WorkLock? = try WorkLock(waitingFor: "shared-stages.lock", in: work, logger: logger, what: "test")
        let done = Locked<Bool>(false)
        let thread = Thread {
            _ = try? runner(inputs: tinyInputs, work: work) { $0.shard = try! Shard(index: 1, count: 2) }.run()
            done.withLock { $0 = true }
        }
        thread.start()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!done.withLock { $0 })
        #expect(!FileIO.exists(work.appendingPathComponent("shards/2/1.json")))
        held = nil
        let deadline = Date().addingTimeInterval(120)
        while !done.withLock({ $0 }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(FileIO.exists(work.appendingPathComponent("shards/2/1.json")))
        withExtendedLifetime(held) {}
    }
}
