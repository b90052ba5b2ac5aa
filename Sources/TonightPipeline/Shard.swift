import Foundation
import TonightCore

/// One shard of the per-user stages (pipeline.md "Beyond one machine"): shard `index` of
/// `count` owns the users and players whose id's 64-bit FNV-1a hash modulo `count` is `index`.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package let index: Int
    package let count: Int

    package init(index: Int, count: Int) throws {
        guard count >= 1, count <= 10_000 else {
            throw TonightError(.usage, "a shard count must be between 1 and 10000, not \(count)")
        }
        guard (0..<count).contains(index) else {
            throw TonightError(.usage, "shard index \(index) is out of range for \(count) shard(s)",
                               hint: "indices run from 0 to \(count - 1)")
        }
        self.index = index
        self.count = count
    }

    /// `I/N`, e.g. `2/7`.
    package init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw TonightError(.usage, "cannot read shard '\(text)'", hint: "use --shard I/N, e.g. --shard 2/7 (indices from 0)")
        }
        try self.init(index: i, count: n)
    }

    package var description: String { "\(index)/\(count)" }

    /// The 64-bit FNV-1a hash of `id`'s UTF-8 bytes.
    package static func fnv1a(_ id: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in id.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// The 64-bit FNV-1a hash of an id's UTF-8 bytes.
    package static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// Whether this shard owns the user or player whose id has these UTF-8 bytes.
    package func owns(idBytes: UnsafeRawBufferPointer) -> Bool { Int(Self.fnv1a(idBytes) % UInt64(count)) == index }

    /// The shard (of `count`) that owns `id`.
    package static func owner(of id: String, count: Int) -> Int { Int(fnv1a(id) % UInt64(count)) }

    /// Whether this shard owns the user or player `id`.
    package func owns(_ id: String) -> Bool { Self.owner(of: id, count: count) == index }

    /// The environment variables that batch engines set to an array task's index, in the
    /// order they are named in messages.
    package static let indexVariables = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "SLURM_ARRAY_TASK_ID"]

    /// The shard of this process: `--shard I/N` (`flag`), or the index an engine set in the
    /// environment with the count from `sharding.count`; nil when neither says so. A flag and
    /// an environment (or config) that disagree, or two engines' variables that disagree, are
    /// usage errors: a task must never rank another task's users.
    package static func resolve(flag: String?, environment: [String: String], configCount: Int) throws -> Shard? {
        let set = indexVariables.compactMap { name in environment[name].map { (name, $0) } }
        var fromEnvironment: (name: String, index: Int)?
        for (name, value) in set {
            guard let i = Int(value.trimmingCharacters(in: .whitespaces)), i >= 0 else {
                throw TonightError(.usage, "\(name)=\(value) is not a shard index", hint: "an array task's index is a number from 0")
            }
            if let earlier = fromEnvironment, earlier.index != i {
                throw TonightError(.usage, "\(earlier.name)=\(earlier.index) and \(name)=\(i) disagree",
                                   hint: "run each task under one engine, or pass --shard I/N")
            }
            fromEnvironment = fromEnvironment ?? (name, i)
        }
        if let flag {
            let shard = try Shard(parsing: flag)
            if let env = fromEnvironment, env.index != shard.index {
                throw TonightError(.usage, "--shard \(shard) disagrees with \(env.name)=\(env.index)",
                                   hint: "drop --shard inside an array job, or make them agree")
            }
            if configCount > 1, configCount != shard.count {
                throw TonightError(.usage, "--shard \(shard) disagrees with sharding.count \(configCount)",
                                   hint: "every shard and the merge must use the same count")
            }
            return shard
        }
        guard let env = fromEnvironment else { return nil }
        // Unsharded (the default count 1): a one-task array job is a whole run that publishes,
        // not a shard 0 of 1 that leaves its part for a merge nobody runs.
        if configCount == 1 && env.index == 0 { return nil }
        guard env.index < configCount else {
            throw TonightError(.usage, "\(env.name)=\(env.index) is out of range for sharding.count \(configCount)",
                               hint: "set sharding.count in the config to the number of array tasks, or pass --shard I/N")
        }
        return try Shard(index: env.index, count: configCount)
    }
}
