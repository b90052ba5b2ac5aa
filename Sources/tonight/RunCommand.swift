import ArgumentParser
import Foundation
import TonightCore
import TonightPipeline

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the stage graph (or part of it), reusing unchanged outputs.",
        discussion: """
            Every stage has a fingerprint (its name, code version, the settings it reads and the \
            fingerprints of its inputs). A stage whose fingerprint matches a completed earlier output \
            reuses it; --force recomputes the selected stages. Stages outside --only/--from must have \
            an up-to-date earlier output.

            With --shard I/N (or, with sharding.count set, inside a Kubernetes Indexed Job, an AWS \
            Batch array job or a Slurm job array, whose task index is read from JOB_COMPLETION_INDEX, \
            AWS_BATCH_JOB_ARRAY_INDEX or SLURM_ARRAY_TASK_ID), the run ranks only the users and players \
            whose id's FNV-1a hash modulo N is I, writes its parts and a success record \
            (WORK/shards/N/I.json) and publishes nothing: `tonight merge --shards N` does.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var arguments: RunArguments

    @Option(parsing: .upToNextOption, help: "Run only these stages.")
    var only: [String] = []

    @Option(help: "Run this stage and everything downstream of it.")
    var from: String?

    @Flag(help: "Recompute the selected stages even if their outputs could be reused.")
    var force = false

    @Flag(name: .customLong("dry-run"), help: "Print the plan (run or reuse, and why) and run nothing.")
    var dryRun = false

    @Option(help: "Run shard I of N of the per-user stages (I from 0), e.g. 2/7.")
    var shard: String?

    func validate() throws {
        if !only.isEmpty && from != nil { throw ValidationError("use either --only or --from, not both") }
    }

    func run() throws {
        let config = try store.loadConfig()
        let logger = try store.makeLogger()
        var options = try arguments.options(config: config, store: store, logger: logger)
        options.only = only
        options.from = from
        options.force = force
        options.dryRun = dryRun
        options.shard = try Shard.resolve(flag: shard, environment: ProcessInfo.processInfo.environment,
                                          configCount: config[ConfigKeys.Sharding.count])
        Interruption.install()
        if let shard = options.shard, options.asOfFromClock {
            // Every shard of the night ranks as of the first one's instant (a dry run only reads it).
            try NightInstant.settle(&options, count: shard.count, shard: !dryRun, dateGiven: options.dateGiven,
                                    maxAgeHours: config[ConfigKeys.Sharding.nightHours], logger: logger)
        }
        let runner = StageRunner(config: config, options: options, logger: logger)
        if dryRun {
            let plan = try runner.plan()
            printPlan(plan, options: options, runner: runner, what: "run")
            return
        }
        let record = try runner.run()
        let what = options.shard.map { "shard \($0) run" } ?? "run"
        let stages = record.stages.map { "\($0.stage) \($0.action)" }.joined(separator: ", ")
        CommandOutput.result("\(what) \(record.runId) completed: " + stages, fields: ["run": record.runId, "stages": stages])
        if let shard = options.shard {
            let url = ShardRecord.url(work: options.work, shard: shard).path
            CommandOutput.result("success record: \(url); publish with `tonight merge --shards \(shard.count)`",
                                 fields: ["run": record.runId, "successRecord": url])
        }
    }
}
