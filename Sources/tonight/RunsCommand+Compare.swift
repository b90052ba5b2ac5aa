import ArgumentParser
import Foundation
import TonightCore
import TonightPipeline

extension RunsCommand {
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two runs stage by stage: reused or recomputed and why, durations, rows, rejects, list lengths.",
            discussion: "Without ids: the two newest completed runs (older as A). With one id: that run against the newest other completed run.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Run A (default: the second newest completed run).") var a: String?
        @Argument(help: "Run B (default: the newest completed run).") var b: String?
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() throws {
            let s = RunStore(work: store.workURL(try store.loadConfig()))
            let comparison = try RunComparison.load(s, a: a, b: b)
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try e.encode(comparison), as: UTF8.self))
            } else {
                print(comparison.text(), terminator: "")
            }
        }
    }
}
