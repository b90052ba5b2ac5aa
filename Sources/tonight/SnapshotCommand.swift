import ArgumentParser
import Foundation
import Logging
import TonightBase
import TonightCore
import TonightPipeline
import TonightSnapshot

/// `tonight snapshot list|show|get|verify|rollback`: the published snapshots.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "List, inspect, read, verify and roll back published snapshots.",
        subcommands: [List.self, Show.self, Get.self, Verify.self, Rollback.self])

    struct Location: ParsableArguments {
        @Option(help: "Config file (YAML); its paths.out locates the snapshots.")
        var config: String?

        @Option(help: "Snapshot root's parent (overrides paths.out): snapshots are in OUT/snapshots.")
        var out: String?

        /// Snapshot `id`, or the current one (no frame cache: the CLI reads once).
        func open(_ id: String?) throws -> Snapshot {
            let root = try root()
            return try id.map { try Snapshot.open(id: $0, in: root, cacheBytes: 0) } ?? Snapshot.openCurrent(in: root, cacheBytes: 0)
        }

        func root() throws -> URL {
            let config = try config.map { try TonightConfig.load(URL(fileURLWithPath: $0)) } ?? TonightConfig()
            return URL(fileURLWithPath: out ?? config[ConfigKeys.Paths.out]).appendingPathComponent("snapshots")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the complete snapshots, newest last; * marks CURRENT.",
            discussion: """
                A snapshot an operator rolled back from (with `tonight snapshot rollback`, or by writing CURRENT by hand) \
                says "rolled back": it is no night's alerts baseline, and a re-run \
                of its night does not publish it again (`tonight snapshot rollback ID` reinstates it). One published after \
                CURRENT that never became current (a publish that died before the switch) says "never current".
                """)
        @OptionGroup var location: Location

        func run() throws {
            let dir = SnapshotDirectory(root: try location.root())
            let current = try dir.currentIDIfAny()
            let ids = dir.snapshotIDs()
            let withdrawn = RollbackLog(root: dir.root).withdrawn(current: current)
            if ids.isEmpty { print("no snapshots in \(dir.root.path)") }
            for id in ids {
                let m = try? dir.manifest(id)
                let records = m.map { $0.datasets.values.reduce(0) { $0 + $1.records } } ?? 0
                let bytes = m.map { $0.datasets.values.reduce(Int64(0)) { $0 + $1.files.reduce(0) { $0 + $1.bytes } } } ?? 0
                let note = withdrawn[id] != nil ? "  (rolled back)" : current.map({ id > $0 }) == true ? "  (never current)" : ""
                print("\(id == current ? "*" : " ") \(id)  asOf \(m?.asOf ?? "?")  \(m?.datasets.count ?? 0) datasets  "
                      + "\(records) records  \(bytes) bytes" + note)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a snapshot's manifest (default: CURRENT).")
        @OptionGroup var location: Location
        @Argument(help: "Snapshot id.") var id: String?

        func run() throws {
            // Printed as published (field order and all; DEL and C1 escaped, as every command
            // that prints JSON does), after checking that it decodes.
            let dir = SnapshotDirectory(root: try location.root())
            let snapshot = try id ?? dir.currentID()
            _ = try dir.manifest(snapshot)
            let path = dir.root.appendingPathComponent(snapshot).appendingPathComponent("manifest.json").path
            FileHandle.standardOutput.write(Data(Quoted.jsonControls(Array(try FileIO.read(URL(fileURLWithPath: path))))))
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print one record as JSON: tonight snapshot get DATASET KEY (exit 1 if absent), or one line per key of --keys FILE.")
        @OptionGroup var location: Location
        @Option(help: "Snapshot id (default: CURRENT).") var id: String?
        @Option(help: "A file of keys, one a line ('-': standard input): one NDJSON line per key, in order; an absent key prints {\"key\":…,\"missing\":true}.")
        var keys: String?
        @Argument(help: "Dataset: explore, feed, tonight, alerts, sessions, player_stats, events, artists, …") var dataset: String
        @Argument(help: "Key: a user id, record id, prefix or geohash cell.") var key: String?

        func validate() throws {
            if (key == nil) == (keys == nil) { throw ValidationError("give either a KEY or --keys FILE") }
        }

        func run() throws {
            let snapshot = try location.open(id)
            if let keys { return try batch(snapshot, keys) }
            let key = self.key!
            guard let json = try snapshot.json(dataset, key: key) else {
                FileHandle.standardError.write(Data("tonight: no record '\(Quoted.text(key))' in \(Quoted.text(dataset)) of snapshot \(snapshot.id)\n".utf8))
                throw ExitCode(1)
            }
            // DEL and C1 in a feed's text are valid JSON but act on a terminal: escaped, the
            // same JSON value (`Quoted.jsonControls`).
            FileHandle.standardOutput.write(Data(Quoted.jsonControls(json) + [0x0A]))
        }

        /// Every key of the file, frames decompressed once each; output in the file's order.
        func batch(_ snapshot: Snapshot, _ path: String) throws {
            let data: Data
            if path == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let d = FileManager.default.contents(atPath: path) else {
                    throw TonightError(.io, "cannot read the keys file", file: path, hint: "one key a line; '-' reads standard input")
                }
                data = d
            }
            // Lines split on bytes (splitting a String by Characters took ~0.1 s per 100,000 keys).
            let list = [UInt8](data).split(separator: 0x0A, omittingEmptySubsequences: true).compactMap { line -> String? in
                let l = line.last == 0x0D ? line.dropLast() : line
                return l.isEmpty ? nil : String(decoding: l, as: UTF8.self)
            }
            let records = try snapshot.dataset(dataset).records(keys: list)
            var out: [UInt8] = []
            out.reserveCapacity(1 << 20)
            for (k, record) in zip(list, records) {
                if let record {
                    out += Quoted.jsonControls(record)
                } else {
                    var w = JSONWriter()
                    w.beginObject()
                    w.field("key", k)
                    w.field("missing", true)
                    w.endObject()
                    out += Quoted.jsonControls(w.bytes)
                }
                out.append(0x0A)
                if out.count >= 1 << 20 {
                    FileHandle.standardOutput.write(Data(out))
                    out.removeAll(keepingCapacity: true)
                }
            }
            FileHandle.standardOutput.write(Data(out))
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every file's SHA-256, every frame's checksum, keys and counts (exit 65 if anything is wrong).")
        @OptionGroup var location: Location
        @Argument(help: "Snapshot id (default: CURRENT).") var id: String?

        @Flag(help: "Also check that every id a record points at (event, venue, artist, category, session, player) is a key of its dataset.")
        var references = false

        func run() throws {
            let snapshot = try location.open(id)
            let report = snapshot.verify(references: references) { try ContentHash.file(URL(fileURLWithPath: $0)) }
            for p in report.problems { print("problem: \(Quoted.line(p.description))") }
            print("snapshot \(snapshot.id): \(report.datasets) datasets, \(report.records) records, \(report.bytes) bytes"
                  + (references ? ", \(report.references) references" : "") + ": "
                  + (report.isValid ? "OK" : "\(report.problems.count) problem(s)"))
            if !report.isValid { throw ExitCode(65) }
        }
    }

    struct Rollback: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Point CURRENT back at an earlier snapshot (default: the one before CURRENT), after verifying it.")
        @OptionGroup var location: Location
        @Argument(help: "Snapshot id to make current.") var id: String?

        func run() throws {
            // The publisher logs the switch (for the journal) in the job's own format, not
            // swift-log's default one.
            LoggingSystem.bootstrap { TonightLogHandler(label: $0, format: .human) }
            let target = try SnapshotPublisher(root: try location.root()).rollback(to: id)
            print("CURRENT is now \(target)")
        }
    }
}
