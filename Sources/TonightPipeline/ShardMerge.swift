import Foundation
import TonightBase
import TonightCore
import TonightSnapshot
import TonightSnapshotWriter

/// Builds a per-user stage's output from the shards' parts, exactly as the stage run over every
/// user writes it: each keyed dataset is a k-way merge of the parts' records by key (UTF-8 byte
/// order) through the same `DatasetWriter`, whose frames depend only on the record sequence, so
/// files and indexes come out byte-identical; a dataset not keyed by user is shard 0's file.
/// Every part is checked against its success record first, and every record's key must belong
/// to the shard whose part holds it (a duplicated or misplaced part is refused).
struct ShardMerge {
    let shards: ShardSet
    let stage: any Stage
    let config: TonightConfig

    func run(into directory: URL, progress: ProgressReporter) throws -> StageOutcome {
        let count = shards.count
        let parts = try (0..<count).map { try shards.checkedPart($0, stage: stage.name) }
        var files = DatasetFiles(directory: directory, config: config)
        // Shard 0's list: the datasets and their order, as the stage writes them.
        for entry in try DatasetFiles.read(parts[0].directory) {
            if stage.shardedDatasets.contains(entry.name) {
                var writer = try files.writer(entry.name)
                do {
                    try merge(entry.name, parts: parts.map(\.directory), into: &writer)
                    try files.add(try writer.finish())
                } catch let e as SnapshotError {
                    throw TonightError(e)
                }
            } else {
                for name in entry.files {
                    try FileIO.copyFile(parts[0].directory.appendingPathComponent(name), to: directory.appendingPathComponent(name))
                }
                files.add(entry: entry)
            }
        }
        try files.finish()
        return outcome(parts.map(\.part))
    }

    /// The k-way merge of one dataset's parts.
    private func merge(_ name: String, parts: [URL], into writer: inout DatasetWriter) throws {
        var cursors: [PartCursor] = []
        for (i, dir) in parts.enumerated() {
            let shard = try Shard(index: i, count: shards.count)
            let cursor = try PartCursor(file: try DatasetFiles.openData(name, in: dir), shard: shard, dataset: name,
                                        recordURL: ShardRecord.url(work: shards.work, shard: shard))
            if try cursor.advance() { cursors.append(cursor) }
        }
        // A binary min-heap of cursors on their current key.
        var heap = cursors
        func less(_ a: Int, _ b: Int) -> Bool { UTF8Order.less(heap[a].key, heap[b].key) }
        func down(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && less(l, m) { m = l }
                if r < heap.count && less(r, m) { m = r }
                if m == i { return }
                heap.swapAt(i, m)
                i = m
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { down(i) }
        var n = 0
        while let top = heap.first {
            try writer.append(key: top.keyString, json: top.record)
            n += 1
            if n % 65_536 == 0 { try Interruption.check() }
            if try !top.advance() {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
            }
            if !heap.isEmpty { down(0) }
        }
    }

    /// The stage's outcome for every user: rows, warnings and rejects summed (rows every
    /// shard counts alike taken once), list lengths and shape measures from the shards'
    /// histograms, other details from shard 0 (timings left out: they were the shards').
    func outcome(_ parts: [ShardRecord.Part]) -> StageOutcome {
        var o = StageOutcome()
        var lengths: [String: ListLengths] = [:]
        var shapes: [String: ListLengths] = [:]
        for (i, p) in parts.enumerated() {
            for (k, v) in p.rows {
                if stage.shardInvariantRows.contains(k) { o.rows[k] = i == 0 ? v : o.rows[k] } else { o.rows[k, default: 0] += v }
            }
            for (k, v) in p.warnings { o.warnings[k, default: 0] += v }
            for (k, v) in p.rejects { o.rejects[k, default: 0] += v }
            for (k, v) in p.details where k.hasPrefix("histogram.") {
                guard let l = ListLengths(text: v) else { continue }
                lengths[String(k.dropFirst("histogram.".count)), default: ListLengths(users: 0)].add(l)
            }
            for (k, v) in p.details where k.hasPrefix("shape.histogram.") {
                guard let l = ListLengths(text: v) else { continue }
                shapes[String(k.dropFirst("shape.histogram.".count)), default: ListLengths(users: 0)].add(l)
            }
        }
        for (k, v) in parts[0].details where !k.hasPrefix("seconds.") && !k.hasPrefix("histogram.") && !k.hasPrefix("length.")
            && !k.hasPrefix("shape.") {
            o.details[k] = v
        }
        for (name, l) in shapes {
            let label = parts.lazy.compactMap { $0.details["shape.\(name)"].flatMap(ListLengths.label(ofSummary:)) }.first ?? "values"
            o.details["shape.\(name)"] = l.summary(label: label)
            o.details["shape.histogram.\(name)"] = l.text
        }
        for (name, l) in lengths {
            o.details["length.\(name)"] = l.distribution
            o.details["histogram.\(name)"] = l.text
        }
        let seconds = parts.map(\.durationSeconds)
        o.details["shards"] = "merged from \(parts.count) shard(s); shard seconds max \(String(format: "%.2f", seconds.max() ?? 0)) sum \(String(format: "%.2f", seconds.reduce(0, +)))"
        return o
    }
}

/// Reads one part's records in order, checking that keys increase and belong to the shard.
private final class PartCursor {
    let file: SeekableZstdFile
    let shard: Shard
    let dataset: String
    let recordURL: URL
    private var frame = 0
    private var bytes: [UInt8] = []
    private var offset = 0
    private(set) var key: [UInt8] = []
    private(set) var keyString = ""
    private(set) var record: ArraySlice<UInt8> = []
    private var previous: [UInt8]?

    init(file: SeekableZstdFile, shard: Shard, dataset: String, recordURL: URL) throws {
        self.file = file
        self.shard = shard
        self.dataset = dataset
        self.recordURL = recordURL
    }

    private func refusal(_ message: String) -> TonightError {
        ShardSet.refusal("the \(dataset) part of shard \(shard.index) of \(shard.count) \(message)", file: recordURL,
                         hint: "re-run the shard: tonight run --shard \(shard) --force, then merge again")
    }

    /// Moves to the next record; false at the end of the part.
    func advance() throws -> Bool {
        while offset >= bytes.count {
            guard frame < file.frames.count else { return false }
            do {
                bytes = try file.frame(frame)
            } catch let e as SnapshotError {
                throw refusal("cannot be read: \(e.message)")
            }
            frame += 1
            offset = 0
        }
        guard let end = bytes[offset...].firstIndex(of: 0x0A) else { throw refusal("ends inside a record") }
        record = bytes[offset..<end]
        offset = end + 1
        let prefix = 7  // {"key":
        let decoded = record.withUnsafeBufferPointer { b -> ([UInt8], Int)? in
            guard b.count > prefix, b.starts(with: #"{"key":"#.utf8) else { return nil }
            return JSONKey.decode(b, at: prefix)
        }
        guard let (k, _) = decoded else { throw refusal("holds a record without a leading key") }
        if let previous, !UTF8Order.less(previous, k) { throw refusal("has keys out of order ('\(TonightError.quoted(k))')") }
        keyString = String(decoding: k, as: UTF8.self)
        guard shard.owns(keyString) else {
            throw refusal("holds '\(TonightError.quoted(keyString))', which belongs to shard \(Shard.owner(of: keyString, count: shard.count)) (a duplicated or misplaced part)")
        }
        key = k
        previous = k
        return true
    }
}
