import ArgumentParser
import Foundation
import TonightCore
import TonightPipeline

extension PipelineBench {
    /// What one stage's unavoidable work costs with stock tools, in the same invocation: its
    /// input bytes through `cat` (the input files of a source stage; the output directories of
    /// the stages a later stage reads) and, for a stage that writes datasets, their NDJSON
    /// through `zstd -1 -T0` (decompressed first into memory-backed files, so that only the
    /// compression is timed). The stage's median against the sum is its distance from the floor.
    static func floorsTable(work: URL, order: [String], durations: [String: [Double]], runs: Int = 3) throws -> BenchTable {
        let store = RunStore(work: work)
        guard let id = store.runIDs().first else { throw ValidationError("no run recorded") }
        let runDir = store.runDirectory(id)
        let scratch = URL(fileURLWithPath: FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
            .appendingPathComponent("tonight-floors-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var table = BenchTable(
            "Floors: each stage's input bytes through `cat` and its datasets' NDJSON through `zstd -1 -T0` (medians of \(runs), same invocation)",
            columns: ["stage", "stage s", "input MB", "cat s", "NDJSON MB", "zstd -1 -T0 s", "floor s", "stage ÷ floor"])
        for stage in order {
            guard let record = store.record(run: id, stage: stage) else { continue }
            var inputs: [String] = []
            for input in record.inputs {
                switch input.kind {
                case "stage":
                    let dir = runDir.appendingPathComponent(input.role)
                    inputs += (store.record(run: id, stage: input.role)?.outputs ?? []).map { dir.appendingPathComponent($0.file).path }
                default:
                    if let files = input.files { inputs += files.compactMap(\.path) } else if let p = input.path { inputs.append(p) }
                }
            }
            // Regular files only (the tzdata input is a directory of rules).
            inputs = inputs.filter { var dir: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &dir) && !dir.boolValue }
            let inputBytes = inputs.reduce(Int64(0)) { $0 + FileIO.size(URL(fileURLWithPath: $1)) }
            // The stage's datasets as NDJSON (stages that write binary tables have none).
            let dir = runDir.appendingPathComponent(stage)
            var ndjson: [String] = []
            var ndjsonBytes: Int64 = 0
            for entry in try DatasetFiles.read(dir) {
                let out = scratch.appendingPathComponent("\(stage).\(entry.name).ndjson")
                let sink = try FileSink(out)
                try DatasetFiles.dump(entry.name, from: dir) { try sink.write(Array($0)) }
                try sink.close()
                ndjson.append(out.path)
                ndjsonBytes += FileIO.size(out)
            }
            var cat: [Double] = [], zstd: [Double] = []
            for _ in 0..<runs {
                if !inputs.isEmpty { cat.append(try timed("cat \(quoted(inputs)) > /dev/null")) }
                if !ndjson.isEmpty { zstd.append(try timed("cat \(quoted(ndjson)) | zstd -1 -T0 -q -c > /dev/null")) }
            }
            for name in ndjson { try? FileManager.default.removeItem(atPath: name) }
            let floor = (cat.isEmpty ? 0 : median(cat)) + (zstd.isEmpty ? 0 : median(zstd))
            let seconds = median(durations[stage] ?? [])
            table.row([stage, sec(seconds), String(format: "%.0f", Double(inputBytes) / 1e6), cat.isEmpty ? "" : sec(median(cat)),
                       ndjson.isEmpty ? "" : String(format: "%.0f", Double(ndjsonBytes) / 1e6), zstd.isEmpty ? "" : sec(median(zstd)),
                       sec(floor), floor > 0 ? String(format: "%.2f", seconds / floor) : ""])
            if stage == "tickets", floor > 0 {
                table.goal(Goal(name: "tickets / floor", value: seconds / floor, goal: 2, direction: .atMost, unit: "×", decimals: 2))
            }
        }
        table.note("A later stage's input is the whole output directory of each stage it reads (it may read less); publish's floor is reading every dataset it verifies and links.")
        return table
    }

    private static func quoted(_ paths: [String]) -> String { paths.map { "'\($0)'" }.joined(separator: " ") }

    private static func timed(_ command: String) throws -> Double {
        let r = try ChildProcess.run(["/bin/sh", "-c", command], captureOutput: true)
        guard r.status == 0 else { throw ValidationError("\(command.prefix(80)) ended with status \(r.status): \(r.output.suffix(300))") }
        return r.seconds
    }
}
