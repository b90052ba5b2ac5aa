import ArgumentParser
import Foundation
import TonightBase
import TonightSnapshot

/// Random lookups on a dataset of a published snapshot, one core, warm page cache: the figure
/// a service sees, on any snapshot (`snapshot` builds its own dataset first; this one does not).
struct LookupsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookups", abstract: "Random lookups/s on one core on a published dataset (medians).")

    @Option(help: "Snapshot root (OUT/snapshots); its CURRENT snapshot is read.") var snapshots: String = "bench-data/out/snapshots"
    @Option(help: "Dataset.") var dataset: String = "explore"
    @Option(help: "Lookups per round.") var lookups: Int = 200_000
    @Option(help: "Rounds.") var runs: Int = 5
    @Option(help: "Frame cache per dataset, bytes.") var cacheBytes: Int = Snapshot.defaultCacheBytes

    func run() throws {
        let snapshot = try Snapshot.openCurrent(in: URL(fileURLWithPath: snapshots), cacheBytes: cacheBytes)
        let d = try snapshot.dataset(dataset)
        var keys: [String] = []
        try d.forEachRecord { line in
            line.withUnsafeBufferPointer { b in
                if let (k, _) = JSONKey.decode(b, at: 7) { keys.append(String(decoding: k, as: UTF8.self)) }
            }
        }
        var rng = SnapshotBench.Mix(state: 5)
        var rates: [Double] = []
        for r in 0...runs {
            let sample = (0..<lookups).map { _ in keys[rng.below(keys.count)] }
            let t0 = DispatchTime.now().uptimeNanoseconds
            var found = 0
            for k in sample where try d.json(key: k) != nil { found += 1 }
            let s = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            guard found == lookups else { throw ValidationError("\(lookups - found) lookups missed") }
            if r > 0 { rates.append(Double(lookups) / s) }  // round 0 warms the mapping and the key table
        }
        print(String(format: "%@ of %@ (layout %d, %d frames): %.0f lookups/s (median of %d; min %.0f, max %.0f)", dataset, snapshot.id,
                     d.entry.layout ?? 1, d.entry.frames, median(rates), runs, rates.min()!, rates.max()!))
    }
}
