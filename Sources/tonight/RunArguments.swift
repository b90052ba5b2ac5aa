import ArgumentParser
import Logging
import Foundation
import TonightCore
import TonightGenerator
import TonightPipeline
import TonightBase

/// The options `tonight run` and `tonight merge` share: where the inputs and snapshots are,
/// the run instant, publishing and threads.
struct RunArguments: ParsableArguments {
    @Option(help: "Input directory: feed.xml[.gz|.zst], affinity.txt, tickets/, playmate/.")
    var inputs: String?

    @Option(help: "Snapshot root (OUT/snapshots/...).")
    var out: String?

    @Option(name: .customLong("as-of"), help: "Run instant, ISO 8601 (2026-01-15T06:00:00Z; an offset such as `date -Iseconds` prints is converted to UTC; default: now, or the generated data's).")
    var asOf: String?

    @Option(help: "Run date D for the tonight list, YYYY-MM-DD (default: the UTC date of --as-of).")
    var date: String?

    @Flag(name: .customLong("allow-shrink"), help: "Publish even if a dataset shrinks more than publish.maxShrink.")
    var allowShrink = false

    @Flag(name: .customLong("allow-earlier"), help: "Publish even if this run is as of an earlier instant than CURRENT's snapshot (`tonight snapshot rollback` is the usual way back to an earlier night).")
    var allowEarlier = false

    @Option(help: "Worker threads of every parallel step (default: runs.threads, 0 = every core). Outputs are the same for any value.")
    var threads: Int?

    func validate() throws {
        if let threads, !(1...4096).contains(threads) { throw ValidationError("--threads must be between 1 and 4096") }
    }

    /// The run's options: flags over config over the bundled fixtures.
    func options(config: TonightConfig, store: StoreOptions, logger: Logger) throws -> RunOptions {
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
        var fromClock = false
        if let asOf {
            instant = try TimeArgument.instant(asOf)
        } else if let generated = GeneratedInfo.read(inputsURL) {
            instant = generated.asOf
            logger.info("as-of taken from the generated data set: \(CivilTime.formatUTC(instant))")
        } else {
            fromClock = true
        }
        var options = RunOptions(
            inputs: inputsURL, work: store.workURL(config), out: URL(fileURLWithPath: out ?? config[ConfigKeys.Paths.out]),
            asOf: instant, date: try date.map(TimeArgument.date))
        options.allowShrink = allowShrink
        options.allowEarlier = allowEarlier
        options.threads = threads
        options.asOfFromClock = fromClock
        options.dateGiven = date != nil
        if date != nil { try options.checkRunDate(config: config) }
        return options
    }
}

/// Prints a dry run's plan, and why a run (`what`: "run", "merge") would stop before its
/// first stage (`StageRunner.publishRefusal`).
func printPlan(_ plan: [PlanEntry], options: RunOptions, runner: StageRunner, what: String) {
    print("plan (dry run; nothing is run): inputs \(options.inputs.path), work \(options.work.path)")
    let width = plan.map(\.stage.count).max() ?? 10
    for e in plan {
        print("  " + e.stage.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
              + e.action.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0) + "  " + e.reason)
    }
    if let refusal = runner.publishRefusal(plan) {
        print("a \(what) would stop before its first stage: \(refusal.message)" + (refusal.hint.map { " (\($0))" } ?? ""))
    }
}
