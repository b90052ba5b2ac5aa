import ArgumentParser
import Foundation
import TonightCore
import TonightPipeline

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the parts of N shards and publish the snapshot a single run would.",
        discussion: """
            Give it the --inputs, --work, --out, --as-of and --config of the shards. It reuses the \
            shared stages, checks that all N success records are there and agree with it (build, run \
            instant, settings, inputs, fingerprints), checks every part's SHA-256, merges the per-user \
            datasets by key and publishes: dataset files, indexes and content hash are byte-identical \
            to a single-machine run's. A missing, duplicated, stale or corrupt part exits 65 naming \
            the shard, and publishes nothing.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var arguments: RunArguments

    @Option(help: "The number of shards (default: sharding.count).")
    var shards: Int?

    @Flag(help: "Merge again even if the merged outputs could be reused.")
    var force = false

    @Flag(name: .customLong("dry-run"), help: "Print the plan and check the success records; merge nothing.")
    var dryRun = false

    func run() throws {
        let config = try store.loadConfig()
        let logger = try store.makeLogger()
        let count = shards ?? config[ConfigKeys.Sharding.count]
        guard (1...10_000).contains(count) else {
            throw TonightError(.usage, "--shards must be between 1 and 10000, not \(count)")
        }
        if let shards, config[ConfigKeys.Sharding.count] > 1, config[ConfigKeys.Sharding.count] != shards {
            throw TonightError(.usage, "--shards \(shards) disagrees with sharding.count \(config[ConfigKeys.Sharding.count])",
                               hint: "every shard and the merge must use the same count")
        }
        var options = try arguments.options(config: config, store: store, logger: logger)
        options.mergeShards = count
        options.force = force
        Interruption.install()
        if options.asOfFromClock {
            // The night's instant, as its shards ranked (the merge starts after the last of them).
            try NightInstant.settle(&options, count: count, shard: false, dateGiven: options.dateGiven,
                                    maxAgeHours: config[ConfigKeys.Sharding.nightHours], logger: logger)
        }
        let runner = StageRunner(config: config, options: options, logger: logger)
        if dryRun {
            let plan = try runner.plan()
            _ = try runner.shards(count: count, plan: plan)
            printPlan(plan, options: options, runner: runner, what: "merge")
            print("all \(count) success records are present and agree with this merge")
            return
        }
        let record = try runner.run()
        let stages = record.stages.map { "\($0.stage) \($0.action)" }.joined(separator: ", ")
        CommandOutput.result("merge \(record.runId) of \(count) shard(s) completed: " + stages,
                             fields: ["run": record.runId, "stages": stages, "shards": "\(count)"])
    }
}
