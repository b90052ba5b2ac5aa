import ArgumentParser
import Foundation

/// The benchmark harness: speed and memory goals are measured here, never in unit tests.
/// Every figure is a median over interleaved runs, printed next to baselines measured in the
/// same invocation (this machine is shared and noisy).
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tonight-bench",
        abstract: "Benchmarks with baselines, medians and ratios.",
        subcommands: [ParseFeedBench.self, PipelineBench.self, GrowthBench.self, GeocodeBench.self, LoadTicketsBench.self, SnapshotBench.self, LookupsBench.self, HostileBench.self, ShardsBench.self, FramesBench.self, CompareBench.self,
                      ParseOnce.self])
}
