import ArgumentParser
import CZstd
import Foundation
import TonightSnapshot
import TonightSnapshotWriter

/// Issue 19's measurement: frame size × trained dictionary × level on a published dataset's
/// own records (compressed size against today's 64 KiB level-1 frames, random lookups on one
/// core, dictionary training time), so the layout is chosen by figures. Every frame is
/// decompressed whole (its checksum verified), as the reader does.
struct FramesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames", abstract: "Frame size × zstd dictionary × level on a published dataset (size, lookups/s).")

    @Option(help: "Snapshot root (OUT/snapshots); its CURRENT snapshot is read.") var snapshots: String = "bench-data/out/snapshots"
    @Option(help: "Dataset.") var dataset: String = "explore"
    @Option(help: "Records taken from the start of the dataset (keys are sorted, so this is a key range).") var records: Int = 100_000
    @Option(help: "Random lookups per configuration.") var lookups: Int = 100_000
    @Option(help: "Dictionary size in bytes.") var dictionaryBytes: Int = 112 << 10
    @OptionGroup var output: BenchOutput

    final class Contexts {
        let c = ZSTD_createCCtx()!
        let d = ZSTD_createDCtx()!
        deinit {
            ZSTD_freeCCtx(c)
            ZSTD_freeDCtx(d)
        }
    }

    func run() throws {
        let root = URL(fileURLWithPath: snapshots)
        let snapshot = try Snapshot.openCurrent(in: root, cacheBytes: 0)
        var lines: [[UInt8]] = []
        try snapshot.dataset(dataset).forEachRecord { if lines.count < records { lines.append($0) } }
        let total = lines.reduce(0) { $0 + $1.count + 1 }
        print("frames benchmark: \(lines.count) records of \(dataset) (\(mb(Double(total))) MiB of NDJSON) from \(snapshot.id)")
        // The dictionary as the writer trains it: the first records in key order, at most
        // 100 × its size, fastCover with fixed parameters (CompressionDictionary.train).
        var samples: [UInt8] = [], sizes: [Int] = []
        let training = CompressionDictionary.Training(capacity: dictionaryBytes)
        for l in lines where samples.count < training.sampleBytes {
            samples += l + [10]
            sizes.append(l.count + 1)
        }
        let began = Date()
        guard let trained = CompressionDictionary.train(samples: samples, sizes: sizes, training: training, level: 1) else {
            throw ValidationError("dictionary training declined")
        }
        let dictionary = trained.bytes
        let trainingSeconds = Date().timeIntervalSince(began)

        var table = BenchTable(
            "\(dataset): \(lines.count) records, \(mb(Double(total))) MiB; \(lookups) random lookups on one core (each decompresses its whole frame)",
            columns: ["frame KiB", "frames", "dictionary", "level", "compressed MiB", "ratio", "vs 64 KiB L1", "lookups/s", "µs/lookup"])
        var baseline = 0.0
        let ctx = Contexts()
        for frameKiB in [64, 16, 8, 4, 2] {
            // Whole records per frame, as the writer packs them.
            var frames: [[UInt8]] = [], firstKeys: [Int] = []
            var current: [UInt8] = []
            for (i, l) in lines.enumerated() {
                if !current.isEmpty && current.count + l.count + 1 > frameKiB << 10 {
                    frames.append(current)
                    current = []
                }
                if current.isEmpty { firstKeys.append(i) }
                current += l + [10]
            }
            if !current.isEmpty { frames.append(current) }
            var frameOf = [Int](repeating: 0, count: lines.count)
            for (f, start) in firstKeys.enumerated() {
                let end = f + 1 < firstKeys.count ? firstKeys[f + 1] : lines.count
                for i in start..<end { frameOf[i] = f }
            }
            for useDictionary in [false, true] {
                for level: Int32 in [1, 3] {
                    let cdict = useDictionary ? dictionary.withUnsafeBytes { ZSTD_createCDict($0.baseAddress, $0.count, level) } : nil
                    let ddict = useDictionary ? dictionary.withUnsafeBytes { ZSTD_createDDict($0.baseAddress, $0.count) } : nil
                    defer {
                        ZSTD_freeCDict(cdict)
                        ZSTD_freeDDict(ddict)
                    }
                    ZSTD_CCtx_reset(ctx.c, ZSTD_reset_session_and_parameters)
                    ZSTD_CCtx_setParameter(ctx.c, ZSTD_c_compressionLevel, level)
                    ZSTD_CCtx_setParameter(ctx.c, ZSTD_c_checksumFlag, 1)
                    if let cdict { ZSTD_CCtx_refCDict(ctx.c, cdict) }
                    var compressed: [[UInt8]] = []
                    for f in frames {
                        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(f.count))
                        let written = f.withUnsafeBytes { src in
                            out.withUnsafeMutableBytes { ZSTD_compress2(ctx.c, $0.baseAddress, $0.count, src.baseAddress, src.count) }
                        }
                        guard ZSTD_isError(written) == 0 else { throw ValidationError("compression failed") }
                        out.removeLast(out.count - written)
                        compressed.append(out)
                    }
                    let size = Double(compressed.reduce(0) { $0 + $1.count } + (useDictionary ? dictionary.count : 0))
                    if frameKiB == 64 && !useDictionary && level == 1 { baseline = size }
                    // Random lookups: decompress the frame, find the record's line.
                    var rng = SnapshotBench.Mix(state: 7)
                    var buffer = [UInt8](repeating: 0, count: (frameKiB << 10) + (1 << 20))
                    ZSTD_DCtx_reset(ctx.d, ZSTD_reset_session_and_parameters)
                    if let ddict { ZSTD_DCtx_refDDict(ctx.d, ddict) }
                    var found = 0
                    let start = DispatchTime.now().uptimeNanoseconds
                    for _ in 0..<lookups {
                        let r = rng.below(lines.count)
                        let c = compressed[frameOf[r]]
                        let got = c.withUnsafeBytes { src in
                            buffer.withUnsafeMutableBytes { ZSTD_decompressDCtx(ctx.d, $0.baseAddress, $0.count, src.baseAddress, src.count) }
                        }
                        guard ZSTD_isError(got) == 0 else { throw ValidationError("decompression failed") }
                        // The record's line: the one starting with its bytes' first 24 (the key).
                        let want = lines[r].prefix(24)
                        buffer.withUnsafeBufferPointer { b in
                            var lineStart = 0
                            for i in 0..<got where b[i] == 10 {
                                if b[lineStart..<min(i, lineStart + want.count)].elementsEqual(want) { found += 1; return }
                                lineStart = i + 1
                            }
                        }
                    }
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    guard found == lookups else { throw ValidationError("\(lookups - found) lookups did not find their record") }
                    table.row([String(frameKiB), String(frames.count), useDictionary ? "\(dictionary.count >> 10) KiB" : "-", String(level), mb(size),
                               String(format: "%.2f", Double(total) / size), baseline > 0 ? String(format: "%.2f", size / baseline) : "-",
                               String(format: "%.0f", Double(lookups) / seconds), String(format: "%.1f", seconds / Double(lookups) * 1e6)])
                }
            }
        }
        table.note(String(format: "dictionary: %d bytes trained on %d records (%.1f MiB of samples) in %.2f s (the writer's rule: first records, fastCover k 1024 d 8 f 18)", dictionary.count,
                          sizes.count, Double(samples.count) / 1_048_576, trainingSeconds))
        table.note("the dictionary's bytes are counted in the compressed size; `vs 64 KiB L1` is the size against today's layout")
        table.note("each frame is one line of the NDJSON key index (for stock readers); the Swift reader opens the binary key table's directory only (one entry per 64 frames)")
        print(table.text)
        try output.emit(benchmark: "frames", tables: [table])
    }
}
