import TonightBase
import Foundation

/// The file form of one intermediate table: a magic line, the table name, its schema
/// version, the row count, then the rows. Later stages load it with one read and a linear
/// decode, which is far faster than re-parsing text.
package enum BinaryTable {
    static let magic: [UInt8] = Array("TONIGHT-TABLE\n".utf8)

    /// Encodes `rows` and writes them to `url` (the stage runner makes the file visible
    /// atomically by renaming its whole output directory).
    package static func write<R: BinaryRecord>(_ rows: [R], table: String, to url: URL) throws {
        if rows.count >= 100_000 {
            try write(R.self, count: rows.count, table: table, to: url) { range, e in
                for i in range { rows[i].encode(to: &e) }
            }
            return
        }
        let file = try FileSink(url)
        var e = RecordEncoder(binary: BinaryWriter(capacity: 1 << 20))
        e.binary.writeRaw(magic)
        e.binary.write(table)
        e.binary.write(UInt64(R.schemaVersion))
        e.binary.write(UInt64(rows.count))
        // Streamed through a 1 MiB buffer: no table-sized array, no page-fault storm.
        for row in rows {
            row.encode(to: &e)
            if e.binary.bytes.count >= 1 << 20 {
                try file.write(e.binary.bytes)
                e.binary.removeAll()
            }
        }
        try file.write(e.binary.bytes)
        try file.close()
    }

    /// Writes a table of `count` rows of type `R` whose bytes `encode(rows, &encoder)` appends:
    /// chunks of rows are encoded on both cores, a pair at a time, and written in order, so no
    /// table-sized buffer is ever held.
    package static func write<R: BinaryRecord>(
        _ type: R.Type, count: Int, table: String, to url: URL,
        encode: @Sendable (Range<Int>, inout RecordEncoder) -> Void
    ) throws {
        let file = try FileSink(url)
        var w = BinaryWriter(capacity: 256)
        w.writeRaw(magic)
        w.write(table)
        w.write(UInt64(R.schemaVersion))
        w.write(UInt64(count))
        try file.write(w.bytes)
        // Chunks go to a writer thread, so the copies into the page cache (a fifth of a
        // second for the 80 MB users table) overlap the encoding of the next chunks.
        let handoff = Handoff<[UInt8]>(capacity: 4)
        let spare = Locked<[[UInt8]]>([])
        let writer = BackgroundJob()
        writer.start {
            do {
                while var chunk = handoff.take() {
                    try file.write(chunk)
                    chunk.removeAll(keepingCapacity: true)
                    spare.withLock { $0.append(chunk) }
                }
            } catch {
                handoff.cancel()
                throw error
            }
        }
        let rowsPerChunk = 16_384
        var next = 0
        while next < count {
            let first = next
            let buffers = spare.withLock { s in [s.popLast(), s.popLast()] }
            let chunks = try Parallel.map(2) { c -> [UInt8] in
                let lo = min(count, first + c * rowsPerChunk), hi = min(count, lo + rowsPerChunk)
                var ce = RecordEncoder(binary: BinaryWriter(reusing: buffers[c], capacity: (hi - lo) * 96))
                encode(lo..<hi, &ce)
                return ce.binary.bytes
            }
            next = min(count, first + 2 * rowsPerChunk)
            guard handoff.put(chunks[0]), handoff.put(chunks[1]) else { break }
        }
        handoff.close()
        try writer.join()
        try file.close()
    }

    /// Reads a table written by `write`, checking its name, schema version and row count.
    package static func read<R: BinaryRecord>(_ type: R.Type, table: String, from url: URL) throws -> [R] {
        try read(type, table: table, from: url) { try R(from: &$0) }
    }

    /// Reads rows with a custom decoder (e.g. only the columns a stage needs).
    package static func read<R: BinaryRecord, T>(
        _ type: R.Type, table: String, from url: URL, row decode: (inout BinaryReader) throws -> T
    ) throws -> [T] {
        try read(type, table: table, from: url, some: { r -> T? in try decode(&r) })
    }

    /// Reads the rows `decode` keeps: it reads each row whole, returning nil for a row it
    /// skipped (a shard's users: the others are never decoded into values).
    package static func read<R: BinaryRecord, T>(
        _ type: R.Type, table: String, from url: URL, some decode: (inout BinaryReader) throws -> T?
    ) throws -> [T] {
        let data = try FileIO.read(url)
        return try data.withUnsafeBytes { raw -> [T] in
            var r = BinaryReader(raw, name: url.path)
            let count = try readHeader(&r, R.self, table: table, url: url)
            var rows = [T]()
            rows.reserveCapacity(count)
            for _ in 0..<count {
                if let row = try decode(&r) { rows.append(row) }
            }
            guard r.isAtEnd else {
                throw TonightError(.invalidInput, "trailing bytes after \(count) rows", file: url.path)
            }
            return rows
        }
    }
}
