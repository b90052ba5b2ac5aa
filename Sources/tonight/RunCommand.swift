import ArgumentParser
import Foundation
import TonightCore
import TonightGenerator
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
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "Input directory: feed.xml[.gz|.zst], affinity.txt, tickets/, playmate/.")
    var inputs: String?

    @Option(help: "Snapshot root (OUT/snapshots/...).")
    var out: String?

    @Option(name: .customLong("as-of"), help: "Run instant, ISO 8601 UTC (default: now, or the generated data's).")
    var asOf: String?

    @Option(help: "Run date D for the tonight list, YYYY-MM-DD (default: the UTC date of --as-of).")
    var date: String?

    @Option(parsing: .upToNextOption, help: "Run only these stages.")
    var only: [String] = []

    @Option(help: "Run this stage and everything downstream of it.")
    var from: String?

    @Flag(help: "Recompute the selected stages even if their outputs could be reused.")
    var force = false

    @Flag(name: .customLong("dry-run"), help: "Print the plan (run or reuse, and why) and run nothing.")
    var dryRun = false

    @Flag(name: .customLong("allow-shrink"), help: "Publish even if a dataset shrinks more than publish.maxShrink.")
    var allowShrink = false

    @Option(help: "Worker threads of every parallel step (default: runs.threads, 0 = every core). Outputs are the same for any value.")
    var threads: Int?

    func validate() throws {
        if !only.isEmpty && from != nil { throw ValidationError("use either --only or --from, not both") }
        if let threads, !(1...4096).contains(threads) { throw ValidationError("--threads must be between 1 and 4096") }
    }

    func run() throws {
        let config = try store.loadConfig()
        let logger = try store.makeLogger()
        let inputsURL: URL
        if let inputs {
            inputsURL = URL(fileURLWithPath: inputs)
        } else if !config[ConfigKeys.Paths.inputs].isEmpty {
            inputsURL = URL(fileURLWithPath: config[ConfigKeys.Paths.inputs])
        } else if let bundled = BundledFixtures.defaultInputs() {
            inputsURL = bundled
        } else {
            throw TonightError(.usage, "no inputs given and the bundled Fixtures/ were not found",
                               hint: "pass --inputs DIR or run from the package directory")
        }
        var instant = Int64(Date().timeIntervalSince1970)
        if let asOf {
            instant = try TimeArgument.instant(asOf)
        } else if let generated = GeneratedInfo.read(inputsURL) {
            instant = generated.asOf
            logger.info("as-of taken from the generated data set: \(CivilTime.formatUTC(instant))")
        }
        var options = RunOptions(
            inputs: inputsURL, work: store.workURL(config), out: URL(fileURLWithPath: out ?? config[ConfigKeys.Paths.out]),
            asOf: instant, date: try date.map(TimeArgument.date))
        options.only = only
        options.from = from
        options.force = force
        options.dryRun = dryRun
        options.allowShrink = allowShrink
        options.threads = threads
        Interruption.install()
        let runner = StageRunner(config: config, options: options, logger: logger)
        if dryRun {
            let plan = try runner.plan()
            print("plan (dry run; nothing is run): inputs \(inputsURL.path), work \(options.work.path)")
            let width = plan.map(\.stage.count).max() ?? 10
            for e in plan {
                print("  " + e.stage.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                      + e.action.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0) + "  " + e.reason)
            }
            return
        }
        let record = try runner.run()
        print("run \(record.runId) completed: " + record.stages.map { "\($0.stage) \($0.action)" }.joined(separator: ", "))
    }
}
