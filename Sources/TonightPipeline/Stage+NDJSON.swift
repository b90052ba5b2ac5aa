import Foundation
import TonightCore

extension Stage {
    /// Writes rows as an NDJSON file (rejects files).
    func writeNDJSON(_ rows: [some EncodableRecord], to url: URL) throws {
        var e = RecordEncoder(json: JSONWriter(capacity: 1 << 12))
        for row in rows {
            e.object(row)
            e.json.newline()
        }
        try FileIO.write(e.json.bytes, to: url)
    }

    /// Streams a binary table to `sink` as NDJSON (the JSON form its `encode` declares), in
    /// 64 KiB pieces; `names` resolves index fields (`RecordEncoder.references`).
    func dumpTable<R: BinaryRecord>(
        _ type: R.Type, table: String, from dir: URL, names: [String] = [], to sink: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        var e = RecordEncoder(json: JSONWriter(capacity: 1 << 16), names: names)
        for row in try BinaryTable.read(type, table: table, from: dir.appendingPathComponent("\(table).bin")) {
            e.object(row)
            e.json.newline()
            if e.json.bytes.count > 1 << 16 {
                try sink(e.json.bytes[...])
                e.json.bytes.removeAll(keepingCapacity: true)
            }
        }
        try sink(e.json.bytes[...])
    }

    /// Streams a file as is (NDJSON tables kept as text).
    func dumpFile(_ url: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        try sink(Array(try FileIO.read(url))[...])
    }

    func unknownTable(_ table: String) -> TonightError {
        TonightError(.usage, "stage \(name) has no table '\(table)'", hint: "tables: \(tables.joined(separator: ", "))")
    }
}
