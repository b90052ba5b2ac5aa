import Foundation
import TonightSnapshot

/// Kind 4 of the snapshot target: a whole layout-2 dataset, as a service reads one.
///
/// The input (after the kind byte) is three lengths, little-endian `u16` each, then the
/// dataset's dictionary, key table and NDJSON index (compressed) of those lengths, and its
/// data file (the rest). A dictionary of length 0 is none. The target writes the files, and a
/// manifest that names them with their real sizes and SHA-256 and the key table's counts, so
/// that the fuzzer's bytes reach the frames instead of stopping at the manifest's hashes; it
/// opens the snapshot with `Snapshot(directory:)`, looks the probe keys up and verifies the
/// dataset. Must hold: nothing traps, and a dataset that verifies without a problem serves
/// every record a scan reads, and the manifest's count of them, by lookup of its key
/// byte for byte (a lookup and a scan that disagree would serve a record verification never
/// saw). The manifest's uncompressed size is four MiB a frame, so that verification checks
/// the frames in runs of two and merges the runs' seams.
extension SnapshotFuzzTarget {
    static let layout2Name = "explore"
    private static let layout2Probes = ["", "u000000", "u000250", "u000499", "u0005", "zzzz"]

    static func layout2Directory(_ scratch: URL) -> URL { scratch.appendingPathComponent("layout2") }

    func runLayout2(_ body: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome {
        guard let parts = Self.layout2Parts(body) else { return .refused }
        let dir = Self.layout2Directory(directory)
        let name = Self.layout2Name
        let files = (dict: "\(name).dict", keys: "\(name).keys", index: "\(name).index.ndjson.zst", data: "\(name).ndjson.zst")
        Self.remove(dir.appendingPathComponent(files.dict))
        if !parts.dictionary.isEmpty { try Self.write(parts.dictionary, to: dir.appendingPathComponent(files.dict)) }
        try Self.write(parts.keys, to: dir.appendingPathComponent(files.keys))
        try Self.write(parts.index, to: dir.appendingPathComponent(files.index))
        try Self.write(parts.data, to: dir.appendingPathComponent(files.data))
        let (frames, records) = try Self.counts(keyTable: dir.appendingPathComponent(files.keys), bytes: parts.keys.count) ?? (-1, -1)
        guard frames >= 0 else { return .refused }

        var entry = SnapshotManifest.Dataset(
            file: files.data, bytes: Int64(parts.data.count), sha256: Self.sha256(parts.data), records: records, frames: frames,
            uncompressedBytes: Int64(frames) * (4 << 20), index: files.index, indexBytes: Int64(parts.index.count),
            indexSha256: Self.sha256(parts.index), schemaVersion: 1)
        entry.layout = 2
        entry.keyTable = files.keys
        entry.keyTableBytes = Int64(parts.keys.count)
        entry.keyTableSha256 = Self.sha256(parts.keys)
        if !parts.dictionary.isEmpty {
            entry.dictionary = files.dict
            entry.dictionaryBytes = Int64(parts.dictionary.count)
            entry.dictionarySha256 = Self.sha256(parts.dictionary)
            // zstd's dictionary header: the magic number, then the id (little-endian).
            entry.dictionaryID = parts.dictionary.count >= 8 ? parts.dictionary[4..<8].reversed().reduce(0) { $0 << 8 | UInt32($1) } : 0
        }
        try Self.writeManifest(name: name, entry: entry, in: dir)

        guard let snapshot = try? Snapshot(directory: dir), let dataset = snapshot.datasets[name] else { return .refused }
        for probe in Self.layout2Probes { _ = try? dataset.json(key: probe) }
        guard snapshot.verify(dataset: name).problems.isEmpty else { return .accepted(reached: 0) }
        // Verified: every record a scan reads is what a lookup of its key serves.
        var read = 0
        do {
            try dataset.forEachRecord { line in
                read += 1
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], let key = object["key"] as? String else {
                    throw FuzzFinding(Self.name, "a verified layout-2 dataset holds a line that is not a keyed JSON object: \(line.prefix(80))")
                }
                guard try dataset.json(key: key) == line else {
                    throw FuzzFinding(Self.name, "a verified layout-2 dataset serves another record under key \(key) than its scan reads")
                }
            }
        } catch let finding as FuzzFinding {
            throw finding
        } catch {
            throw FuzzFinding(Self.name, "a verified layout-2 dataset failed to read: \(error)")
        }
        guard read == records else { throw FuzzFinding(Self.name, "a verified layout-2 dataset read \(read) records, its table counts \(records)") }
        return .accepted(reached: read)
    }

    /// Writes a manifest of one dataset, `name` with `entry`, into `dir` (a snapshot of the
    /// target's own: kinds 4 and 5 open it with `Snapshot(directory:)`).
    static func writeManifest(name: String, entry: SnapshotManifest.Dataset, in dir: URL) throws {
        let manifest = SnapshotManifest(
            id: "20260101T000000Z-00000000", asOf: "2026-01-01T00:00:00Z", date: "2026-01-01", createdAt: "2026-01-01T00:00:00Z",
            codeVersion: "fuzz", configHash: "", contentHash: "", inputs: [], datasets: [name: entry], stages: [], previous: nil, runId: "fuzz")
        try write(try JSONEncoder().encode(manifest), to: dir.appendingPathComponent("manifest.json"))
    }

    /// The input cut into its four files; nil when its lengths do not fit it.
    static func layout2Parts(_ body: UnsafeBufferPointer<UInt8>) -> (dictionary: [UInt8], keys: [UInt8], index: [UInt8], data: [UInt8])? {
        let bytes = Array(body)
        guard bytes.count >= 6 else { return nil }
        let lengths = (0..<3).map { Int(bytes[2 * $0]) | Int(bytes[2 * $0 + 1]) << 8 }
        var at = 6
        var cut: [[UInt8]] = []
        for n in lengths {
            guard at + n <= bytes.count else { return nil }
            cut.append(Array(bytes[at..<(at + n)]))
            at += n
        }
        return (cut[0], cut[1], cut[2], Array(bytes[at...]))
    }

    /// The input for `layout2Parts`: the three lengths, then the files.
    static func layout2Input(dictionary: [UInt8], keys: [UInt8], index: [UInt8], data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [4]
        for part in [dictionary, keys, index] { out += [UInt8(part.count & 0xFF), UInt8(part.count >> 8)] }
        return out + dictionary + keys + index + data
    }

    /// The key table's frames and records, as the manifest must state them; nil when the
    /// table is refused.
    private static func counts(keyTable url: URL, bytes: Int) throws -> (Int, Int)? {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let table = try? KeyTable(fd: fd, path: url.path, fileSize: bytes) else { return nil }
        return (table.frames, table.records)
    }

    private static func sha256(_ bytes: [UInt8]) -> String {
        var h = SHA256()
        h.update(bytes)
        return h.finalizeHex()
    }
}
