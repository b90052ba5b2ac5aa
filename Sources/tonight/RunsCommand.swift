import ArgumentParser
import Foundation
import TonightBase
import TonightCore
import TonightPipeline

struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs", abstract: "List past runs, show or compare them, or dump an intermediate table.",
        subcommands: [List.self, Show.self, Compare.self, Dump.self, GC.self], defaultSubcommand: List.self)

    struct GC: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gc",
            abstract: "Remove old run directories: keep the newest N (default runs.retain), and any run a kept run reused from or CURRENT was made by.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Run directories to keep (default: the config's runs.retain).") var keep: Int?
        @Option(help: "Snapshot root's parent (default: the config's paths.out).") var out: String?

        func run() throws {
            let config = try store.loadConfig()
            let keep = keep ?? config[ConfigKeys.Runs.retain]
            guard keep >= 1 else { throw TonightError(.usage, "--keep must be at least 1") }
            let work = store.workURL(config)
            let lock = try WorkLock(work: work)
            defer { withExtendedLifetime(lock) {} }
            let removed = RunStore(work: work).gc(keep: keep, snapshots: URL(fileURLWithPath: out ?? config[ConfigKeys.Paths.out]).appendingPathComponent("snapshots"))
            print(removed.isEmpty ? "nothing to remove" : "removed \(removed.count) run(s): \(removed.joined(separator: " "))")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List past runs, newest first.")
        @OptionGroup var store: StoreOptions

        func run() throws {
            let s = RunStore(work: store.workURL(try store.loadConfig()))
            let ids = s.runIDs()
            if ids.isEmpty { print("no runs in \(s.runsDirectory.path)") }
            for id in ids {
                guard let r = try? RunRecord.read(s.runDirectory(id).appendingPathComponent("run.json")) else {
                    print("\(id)  (no run record)")
                    continue
                }
                let acts = r.stages.map { "\($0.stage):\($0.action)" }.joined(separator: " ")
                print("\(id)  \(r.status.padding(toLength: 9, withPad: " ", startingAt: 0))  as-of \(r.asOf)  \(acts)")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a run's record and its stages' records.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Run id (default: the newest).") var id: String?

        func run() throws {
            let s = RunStore(work: store.workURL(try store.loadConfig()))
            guard let id = id ?? s.runIDs().first else {
                throw TonightError(.usage, "no runs yet", file: s.runsDirectory.path)
            }
            let dir = s.runDirectory(id)
            guard FileIO.exists(dir) else { throw TonightError(.usage, "no run \(id)", file: s.runsDirectory.path) }
            // The records as written, DEL and C1 escaped (`Quoted.jsonControls`): a record from
            // an older build or a damaged store may hold them raw, and this prints to a terminal.
            print(String(decoding: Quoted.jsonControls(Array(try FileIO.read(dir.appendingPathComponent("run.json")))), as: UTF8.self))
            for stage in FileIO.list(dir) where FileIO.isDirectory(dir.appendingPathComponent(stage)) {
                let f = dir.appendingPathComponent(stage).appendingPathComponent("stage.json")
                if let data = try? FileIO.read(f) { print(String(decoding: Quoted.jsonControls(Array(data)), as: UTF8.self)) }
            }
        }
    }

    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an intermediate table as NDJSON (snapshot field names).")
        @OptionGroup var store: StoreOptions
        @Option(name: .customLong("run"), help: "Run id (default: the newest run that completed the stage).") var runID: String?
        @Argument(help: "Stage name, e.g. parse-feed.") var stage: String
        @Argument(help: "Table name, e.g. events.") var table: String

        func run() throws {
            let s = RunStore(work: store.workURL(try store.loadConfig()))
            let st = try StageGraph.standard.stage(stage)
            guard st.tables.contains(table) else {
                throw TonightError(.usage, "stage \(stage) has no table '\(table)'",
                                   hint: "tables: \(st.tables.joined(separator: ", "))")
            }
            let dir = try s.stageDirectory(stage: stage, run: runID)
            // Tables hold the feed's and exports' text: DEL and C1 escaped, the same JSON
            // (every piece ends at a line's end, so no character is split).
            try st.dump(table: table, from: dir) { piece in
                Quoted.jsonControls(Array(piece)).withUnsafeBytes { raw in
                    var done = 0
                    while done < raw.count {
                        let n = Foundation.write(1, raw.baseAddress! + done, raw.count - done)
                        if n <= 0 { break }
                        done += n
                    }
                }
            }
        }
    }
}
