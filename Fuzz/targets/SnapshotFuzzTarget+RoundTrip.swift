import Foundation
import TonightBase
import TonightCore
import TonightSnapshot
import TonightSnapshotWriter

/// Kind 5 of the snapshot target: the writer and the reader on keys of the fuzzer's making.
///
/// Every dataset's keys are ids of the exports ("opaque strings of 1 to 64 printable
/// characters", user-data.md: quotes, backslashes and any script among them), event ids,
/// cells or name prefixes. Kinds 0–4 read files whose checksums the fuzzer cannot forge, so
/// they mostly reach the refusals; this kind has `DatasetWriter` write a layout-2 dataset from
/// the input, which is then checksummed as a night's is, and reads it back through `Snapshot`.
/// The input (after the kind byte): one byte for the frame size (64 + 8 × it bytes: small
/// frames, so that a few hundred keys fill several of the key table's 64-frame blocks), then
/// one key per line (C0 and C1 controls and DEL dropped, cut to 64 grapheme clusters,
/// duplicates once). That is wider than the exporters' id rule (`Field.idBytes`: 64 scalars,
/// format and private-use ones refused) on purpose: keys are also prefixes of the feed's
/// names, and the writer and the reader take any key, so a cluster of many scalars, an
/// invisible or a private-use character must round-trip too. Each record is
/// `{"key":…,"n":…}` written by `JSONWriter`, as the stages write.
/// Must hold: the dataset opens and verifies; a lookup of every key serves its record byte
/// for byte; a key one character longer that is not a key is not found; a scan reads the
/// records in order.
extension SnapshotFuzzTarget {
    func runRoundTrip(_ body: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome {
        guard let size = body.first else { return .refused }
        let keys = Self.roundTripKeys(UnsafeBufferPointer(rebasing: body.dropFirst()))
        guard !keys.isEmpty else { return .refused }
        let dir = directory.appendingPathComponent("roundtrip")
        Self.remove(dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let name = Self.layout2Name
        var writer = try DatasetWriter(name: name, directory: dir, frameBytes: 64 + 8 * Int(size), sync: false, layout: 2, dictionaryBytes: 4 << 10)
        var records: [[UInt8]] = []
        var json = JSONWriter()
        for (n, key) in keys.enumerated() {
            json.beginObject()
            json.key("key")
            json.value(key)
            json.key("n")
            json.value(n)
            json.endObject()
            records.append(json.take())
            try writer.append(key: key, json: records[n])
        }
        let summary = try writer.finish()
        let entry = try summary.manifestEntry(in: dir, schemaVersion: 1, sha256: { try SHA256.file($0) })
        try Self.writeManifest(name: name, entry: entry, in: dir)

        func finding(_ message: String) -> FuzzFinding { FuzzFinding(Self.name, "round trip of \(keys.count) keys: " + message) }
        let snapshot: Snapshot, dataset: SnapshotDataset
        do {
            snapshot = try Snapshot(directory: dir)
            dataset = try snapshot.dataset(name)
        } catch {
            throw finding("the written dataset does not open: \(error)")
        }
        let problems = snapshot.verify(dataset: name).problems
        guard problems.isEmpty else { throw finding("the written dataset does not verify: \(problems.map(\.description).prefix(3))") }
        let known = Set(keys.map { Array($0.utf8) })
        for (n, key) in keys.enumerated() {
            let served = try dataset.json(key: key)
            guard served == records[n] else {
                throw finding("key \(Array(key.utf8)) serves \(served.map { String(decoding: $0.prefix(120), as: UTF8.self) } ?? "nothing")")
            }
            for other in [key + "\u{1}", key + "~", key + "\u{10FFFF}"] where !known.contains(Array(other.utf8)) {
                guard try dataset.json(key: other) == nil else { throw finding("key \(Array(other.utf8)), not written, is found") }
            }
        }
        var n = 0
        try dataset.forEachRecord { line in
            guard n < records.count, line == records[n] else { throw finding("the scan's record \(n) is not the one written") }
            n += 1
        }
        guard n == records.count else { throw finding("the scan read \(n) records") }
        return .accepted(reached: keys.count)
    }

    /// The input's keys: one per line, controls dropped, at most 64 grapheme clusters,
    /// empty lines skipped, each once (by its bytes: two spellings of one accented letter are
    /// two keys, as they are two ids), in the UTF-8 byte order the writer takes them in.
    static func roundTripKeys(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var keys = Set<[UInt8]>()
        for line in bytes.split(separator: 0x0A) {
            let text = String(decoding: UnsafeBufferPointer(rebasing: line), as: UTF8.self)
            var scalars = String.UnicodeScalarView()
            for s in text.unicodeScalars where s.value >= 0x20 && s.value != 0x7F && !(0x80..<0xA0).contains(s.value) {
                scalars.append(s)
            }
            let key = String(String(scalars).prefix(64))
            if !key.isEmpty { keys.insert(Array(key.utf8)) }
        }
        return keys.sorted { UTF8Order.less($0, $1) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
