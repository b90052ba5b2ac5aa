import Foundation
import TonightCore

extension Stage {
    /// Writes rows as an NDJSON file (rejects files).
    func writeNDJSON<T>(_ rows: [T], to url: URL, _ body: (T, inout JSONWriter) -> Void) throws {
        var w = JSONWriter(capacity: 1 << 12)
        for row in rows {
            body(row, &w)
            w.newline()
        }
        try FileIO.write(w.bytes, to: url)
    }

    /// Streams a binary table to `sink` as NDJSON, in 64 KiB pieces.
    func dumpTable<R: BinaryRecord>(
        _ type: R.Type, table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void,
        _ body: (R, inout JSONWriter) -> Void
    ) throws {
        var w = JSONWriter(capacity: 1 << 16)
        for row in try BinaryTable.read(type, table: table, from: dir.appendingPathComponent("\(table).bin")) {
            body(row, &w)
            w.newline()
            if w.bytes.count > 1 << 16 {
                try sink(w.bytes[...])
                w.bytes.removeAll(keepingCapacity: true)
            }
        }
        try sink(w.bytes[...])
    }

    /// Streams a file as is (NDJSON tables kept as text).
    func dumpFile(_ url: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        try sink(Array(try FileIO.read(url))[...])
    }

    func unknownTable(_ table: String) -> TonightError {
        TonightError(.usage, "stage \(name) has no table '\(table)'", hint: "tables: \(tables.joined(separator: ", "))")
    }
}
