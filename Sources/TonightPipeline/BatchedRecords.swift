import TonightCore
import TonightSnapshotWriter

/// One dataset's records of a chunk of users or players, written back to back into one
/// buffer by the worker that ranked them, each followed by its newline: the file's own lines,
/// which `DatasetWriter.append(lines:ends:records:key:)` compresses where they lie (only the
/// frames open at either end of the chunk are copied). The per-user stages (`tickets`,
/// `playmate`) fill one per dataset and recycle it block to block.
struct BatchedRecords: Sendable {
    var json = JSONWriter(capacity: 1 << 16)
    /// Where each record ends, after its newline.
    var ends: [Int] = []
    /// Whose each record is: an index into the stage's users or players (the key is theirs).
    var owners: [Int] = []
    /// Each record's list length, for the datasets whose lengths the stage reports.
    var lengths: [Int] = []

    /// Ends the record just written to `json` (a newline after it) as `owner`'s.
    mutating func commit(owner: Int) {
        json.newline()
        ends.append(json.bytes.count)
        owners.append(owner)
    }

    /// `commit`, noting the record's list length.
    mutating func commit(owner: Int, length: Int) {
        commit(owner: owner)
        lengths.append(length)
    }

    /// Appends the records to `writer` in order, record `n` under `key(owners[n])`.
    func write(to writer: inout DatasetWriter, key: (Int) -> String) throws {
        try json.bytes.withUnsafeBytes { lines in
            try ends.withUnsafeBufferPointer { ends in
                try writer.append(lines: lines, ends: ends, records: 0..<ends.count) { key(owners[$0]) }
            }
        }
    }

    /// Empties every buffer, keeping its storage.
    mutating func removeAll() {
        json.clear()
        ends.removeAll(keepingCapacity: true)
        owners.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
    }
}
