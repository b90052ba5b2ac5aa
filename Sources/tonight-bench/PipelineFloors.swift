import ArgumentParser
import Foundation
import TonightCore
import TonightPipeline

/// What each stage's unavoidable work costs with stock tools, in the same invocation: its
/// input bytes through `cat` (the input files of a source stage; the output directories of
/// the stages a later stage reads) and, for a stage that writes datasets, their NDJSON
/// through `zstd -1 -T0` (decompressed first into memory-backed files, so that only the
/// compression is timed).
///
/// Timed once per round, beside the round's runs (before or after them, by turns: the
/// bench's rounds run forward and backward), so that the floors see the same host as the
/// stages: measured once after every round, they came from whatever minute the
/// bench ended in (on 2026-11-27 a round at half speed gave tickets 3.83× a floor measured
/// after the host had recovered). Each stage's distance from its floor is the median of the
/// rounds' own ratios.
struct PipelineFloors {
    struct Stage {
        var name: String
        var inputs: [String]
        var inputBytes: Int64
        /// The stage's directory in the run and its datasets (none: binary tables only).
        var directory: URL
        var datasets: [String]
        var ndjsonBytes: Int64 = 0
        var cat: [Double] = []
        var zstd: [Double] = []
        /// The CPU seconds of the same commands (every process of the pipeline).
        var catCPU: [Double] = []
        var zstdCPU: [Double] = []

        /// One round's floor (cat plus zstd), or nil before it is timed.
        func floor(round r: Int) -> Double? {
            let c = inputs.isEmpty ? 0 : (r < cat.count ? cat[r] : nil)
            let z = datasets.isEmpty ? 0 : (r < zstd.count ? zstd[r] : nil)
            guard let c, let z else { return nil }
            return c + z
        }

        /// One round's floor in CPU seconds, or nil before it is timed.
        func floorCPU(round r: Int) -> Double? {
            let c = inputs.isEmpty ? 0 : (r < catCPU.count ? catCPU[r] : nil)
            let z = datasets.isEmpty ? 0 : (r < zstdCPU.count ? zstdCPU[r] : nil)
            guard let c, let z else { return nil }
            return c + z
        }
    }

    private(set) var stages: [Stage] = []
    private let scratch: URL

    /// The stages' inputs and datasets of the first recorded run of `work`, in `order`.
    init(work: URL, order: [String]) throws {
        let store = RunStore(work: work)
        guard let id = store.runIDs().first else { throw ValidationError("no run recorded") }
        let runDir = store.runDirectory(id)
        scratch = URL(fileURLWithPath: FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
            .appendingPathComponent("tonight-floors-\(getpid())")
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
            let dir = runDir.appendingPathComponent(stage)
            stages.append(Stage(name: stage, inputs: inputs, inputBytes: inputBytes, directory: dir,
                                datasets: try DatasetFiles.read(dir).map(\.name)))
        }
    }

    /// Floors of stages already measured (the table's arithmetic, tested without a run store).
    init(stages: [Stage]) {
        self.stages = stages
        scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tonight-floors-\(getpid())")
    }

    /// Times every stage's floor once (one round): its inputs through `cat` once untimed,
    /// then timed (the floor reads from the page cache, as the stage's own inputs mostly
    /// are: the run store grows by ~1.7 GB a run, and by the end of a round the kernel may
    /// have dropped them); its datasets dumped as NDJSON into memory-backed files, then
    /// through `zstd`, then removed (so that the stages' runs never share the machine with
    /// gigabytes of them).
    mutating func measureRound() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { removeFiles() }
        for k in stages.indices {
            if !stages[k].inputs.isEmpty {
                _ = try Self.timed("cat \(Self.quoted(stages[k].inputs)) > /dev/null")
                let cat = try Self.timed("cat \(Self.quoted(stages[k].inputs)) > /dev/null")
                stages[k].cat.append(cat.seconds)
                stages[k].catCPU.append(cat.cpuSeconds)
            }
            guard !stages[k].datasets.isEmpty else { continue }
            var ndjson: [String] = []
            var bytes: Int64 = 0
            for name in stages[k].datasets {
                let out = scratch.appendingPathComponent("\(stages[k].name).\(name).ndjson")
                let sink = try FileSink(out)
                try DatasetFiles.dump(name, from: stages[k].directory) { try sink.write(Array($0)) }
                try sink.close()
                ndjson.append(out.path)
                bytes += FileIO.size(out)
            }
            stages[k].ndjsonBytes = bytes
            let zstd = try Self.timed("cat \(Self.quoted(ndjson)) | zstd -1 -T0 -q -c > /dev/null")
            stages[k].zstd.append(zstd.seconds)
            stages[k].zstdCPU.append(zstd.cpuSeconds)
            for path in ndjson { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    /// The NDJSON copies left by an interrupted round, removed.
    func removeFiles() { try? FileManager.default.removeItem(at: scratch) }

    /// The floors table: medians of the rounds, and the median of each round's stage ÷ floor
    /// (`durations` and `cpu`, the stages' wall and CPU seconds, in round order, one per round).
    func table(durations: [String: [Double]], cpu: [String: [Double]]) -> BenchTable {
        let rounds = stages.first.map { max($0.cat.count, $0.zstd.count) } ?? 0
        var table = BenchTable(
            "Floors: each stage's input bytes through `cat` (from the page cache: read once untimed first) and its datasets' NDJSON through `zstd -1 -T0`, timed once in each of the \(rounds) rounds beside the round's runs, after them in odd rounds and before them in even ones (medians; stage ÷ floor is the median of the rounds' own ratios, in wall and in CPU seconds)",
            columns: ["stage", "stage s", "input MB", "cat s", "NDJSON MB", "zstd -1 -T0 s", "floor s", "stage ÷ floor", "stage CPU s", "floor CPU s", "CPU ÷ floor CPU"])
        for s in stages {
            let seconds = durations[s.name] ?? [], cpuSeconds = cpu[s.name] ?? []
            let floors = (0..<rounds).compactMap { s.floor(round: $0) }
            let cpuFloors = (0..<rounds).compactMap { s.floorCPU(round: $0) }
            let ratio = Self.medianRatio(seconds, floors), cpuRatio = Self.medianRatio(cpuSeconds, cpuFloors)
            table.row([s.name, sec(median(seconds)), String(format: "%.0f", Double(s.inputBytes) / 1e6), s.cat.isEmpty ? "" : sec(median(s.cat)),
                       s.datasets.isEmpty ? "" : String(format: "%.0f", Double(s.ndjsonBytes) / 1e6), s.zstd.isEmpty ? "" : sec(median(s.zstd)),
                       sec(median(floors)), ratio.map { String(format: "%.2f", $0) } ?? "",
                       cpuSeconds.isEmpty ? "" : sec(median(cpuSeconds)), sec(median(cpuFloors)), cpuRatio.map { String(format: "%.2f", $0) } ?? ""])
            if s.name == "tickets", let ratio {
                table.goal(Goal(name: "tickets / floor", value: ratio, goal: 2, direction: .atMost, unit: "×", decimals: 2))
                if let cpuRatio {
                    // How many cores each kept busy, from the same figures (not assumed: the
                    // floor's `cat | zstd -T0` kept ~1.5 of 2 busy on 2026-11-30).
                    let stageCores = median(cpuSeconds) / median(seconds), floorCores = median(cpuFloors) / median(floors)
                    table.note(String(format: "tickets CPU / floor CPU = %.2f× (not a goal: where the wall ratio comes from); cores kept busy (CPU s ÷ wall s, medians): the stage %.2f, the floor %.2f", cpuRatio, stageCores, floorCores))
                }
            }
        }
        table.note("A later stage's input is the whole output directory of each stage it reads (it may read less); publish's floor is reading every dataset it verifies and links.")
        table.note("CPU seconds: user and system, every thread; a stage's from its stage.json (`cpuSeconds`, the stages run one after another), a floor's from `wait4` over the whole pipeline (`cat` and `zstd`).")
        return table
    }

    /// The median of the rounds' own ratios (rounds where both sides were measured).
    static func medianRatio(_ values: [Double], _ floors: [Double]) -> Double? {
        let ratios = zip(values, floors).compactMap { $1 > 0 ? $0 / $1 : nil }
        return ratios.isEmpty ? nil : median(ratios)
    }

    private static func quoted(_ paths: [String]) -> String { paths.map { "'\($0)'" }.joined(separator: " ") }

    private static func timed(_ command: String) throws -> ChildProcess.Measurement {
        let r = try ChildProcess.run(["/bin/sh", "-c", command], captureOutput: true)
        guard r.status == 0 else { throw ValidationError("\(command.prefix(80)) ended with status \(r.status): \(r.output.suffix(300))") }
        return r
    }
}
