import Foundation

/// The options of one `tonight run` (CLI flags over config).
package struct RunOptions: Sendable {
    package var inputs: URL
    package var work: URL
    package var out: URL
    package var asOf: Int64
    /// The run date D (days since the epoch), default the UTC date of asOf.
    package var date: Int
    package var only: [String] = []
    package var from: String?
    package var force = false
    package var dryRun = false
    /// The run instant is the clock's (no `--as-of`, no generated data set's): a sharded
    /// night's shards and merge then share the night's (`NightInstant`).
    package var asOfFromClock = false
    /// `--date` was given (a shared night instant leaves it as it is).
    package var dateGiven = false
    /// Publish even if a dataset shrinks more than `publish.maxShrink`.
    package var allowShrink = false
    /// Publish even if the run's as-of is earlier than CURRENT's (`--allow-earlier`).
    package var allowEarlier = false
    /// Worker threads of every parallel step (`--threads`); nil: `runs.threads` (0: every core).
    package var threads: Int?
    /// `--shard I/N`: run the per-user stages for one shard's users and write its success
    /// record instead of publishing.
    package var shard: Shard?
    /// `tonight merge --shards N`: build the per-user stages' outputs from N shards' parts.
    package var mergeShards: Int?

    package init(inputs: URL, work: URL, out: URL, asOf: Int64, date: Int? = nil) {
        self.inputs = inputs
        self.work = work
        self.out = out
        self.asOf = asOf
        self.date = date ?? Int(asOf >= 0 ? asOf / 86_400 : (asOf - 86_399) / 86_400)
    }
}

/// One line of the plan: run or reuse, and why.
package struct PlanEntry: Sendable {
    package enum Action: String, Sendable { case run, reuse }

    package var stage: String
    package var action: Action
    package var reason: String
    package var fingerprint: String
    /// The earlier output to reuse.
    package var reuseDirectory: URL?
    package var reuseRun: String?
    package var record: StageRecord
    /// The input files a run of the stage reads, as the plan hashed them.
    package var watched = InputWatch()
    /// The roles of the file inputs the stage hashes while it runs (a new night's file: their
    /// hash is `StageRunner.pendingHash` in `record` until then).
    package var deferred: [String] = []
    /// The fingerprint waits for a hash computed while a stage runs (this one's or an
    /// upstream one's): `record` is described again when the stage starts.
    package var provisional = false
}
