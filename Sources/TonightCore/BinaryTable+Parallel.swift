import Foundation
import TonightBase

extension BinaryTable {
    /// Checks a table's magic, name and schema version; returns its row count, `r` left at
    /// the first row.
    package static func readHeader<R: BinaryRecord>(_ r: inout BinaryReader, _ type: R.Type, table: String, url: URL) throws -> Int {
        for b in magic where try r.readByte() != b {
            throw TonightError(.invalidInput, "not a Tonight binary table", file: url.path)
        }
        let name = try r.readString()
        guard name == table else {
            throw TonightError(.invalidInput, "table is '\(name)', expected '\(table)'", file: url.path)
        }
        let version = try r.readUInt64()
        guard version == UInt64(R.schemaVersion) else {
            throw TonightError(
                .invalidInput, "table schema version \(version), this build reads \(R.schemaVersion)",
                file: url.path, hint: "re-run the stage with --force")
        }
        // Every row takes at least one byte: a count above the bytes left is corrupt.
        return try r.readCount(bytesPerElement: 1)
    }

    /// `read(_:table:from:some:)` on every core: a first pass finds the rows' boundaries with
    /// `skip` (which makes no values), then runs of rows are decoded side by side straight
    /// into the result, in table order. For the million-row `users` table, decoding on one
    /// core was most of the tickets stage's start (0.7 s, the other core idle).
    ///
    /// Each run must end where the skip pass said it does (a disagreement is reported as a
    /// corrupt table), the last at the file's end. On an error, the first in table order is
    /// thrown and every value already made is released.
    package static func readParallel<R: BinaryRecord, T>(
        _ type: R.Type, table: String, from url: URL,
        skip: @Sendable (inout BinaryReader) throws -> Void,
        some decode: @Sendable (inout BinaryReader) throws -> T?
    ) throws -> [T] {
        let data = try FileIO.read(url)
        return try data.withUnsafeBytes { raw -> [T] in
            let (count, parts, firstRow, firstByte) = try runs(R.self, table: table, url: url, raw: raw, skip: skip)
            let source = SharedBytes(raw)
            let name = url.path
            let (rowAt, byteAt) = (firstRow, firstByte)
            return try [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                let target = SharedBuffer(buffer)
                // Part p fills buffer[rowAt[p] ..< rowAt[p] + kept[p]].
                let results = try Parallel.map(parts) { p -> DecodedRun in
                    var reader = BinaryReader(UnsafeRawBufferPointer(rebasing: source.bytes[..<byteAt[p + 1]]), name: name, offset: byteAt[p])
                    var kept = 0
                    do {
                        for _ in rowAt[p]..<rowAt[p + 1] {
                            if let value = try decode(&reader) {
                                (target.buffer.baseAddress! + rowAt[p] + kept).initialize(to: value)
                                kept += 1
                            }
                        }
                        guard reader.offset == byteAt[p + 1] else {
                            throw TonightError(.invalidInput, "corrupt binary table (row \(rowAt[p + 1]) does not start at byte \(reader.offset))", file: name)
                        }
                        return DecodedRun(kept: kept, error: nil)
                    } catch let e as TonightError {
                        return DecodedRun(kept: kept, error: e)
                    } catch {
                        return DecodedRun(kept: kept, error: TonightError(.invalidInput, "\(error)", file: name))
                    }
                }
                // The runs moved together (a move: nothing is retained or released), or all
                // released when one failed.
                let base = buffer.baseAddress!
                if let failed = results.first(where: { $0.error != nil }) {
                    for (p, run) in results.enumerated() { (base + rowAt[p]).deinitialize(count: run.kept) }
                    initialized = 0
                    throw failed.error!
                }
                var next = 0
                for (p, run) in results.enumerated() {
                    if next != rowAt[p] { (base + next).moveInitialize(from: base + rowAt[p], count: run.kept) }
                    next += run.kept
                }
                initialized = next
            }
        }
    }
}

extension BinaryTable {
    /// The runs `readParallel` decodes side by side: the rows' count, the number
    /// of runs, and the first row and byte of every run and the end of the last (found by a
    /// pass of `skip`, which makes no values).
    fileprivate static func runs<R: BinaryRecord>(
        _ type: R.Type, table: String, url: URL, raw: UnsafeRawBufferPointer, skip: (inout BinaryReader) throws -> Void
    ) throws -> (count: Int, parts: Int, firstRow: [Int], firstByte: [Int]) {
        var r = BinaryReader(raw, name: url.path)
        let count = try readHeader(&r, R.self, table: table, url: url)
        let parts = count < 50_000 ? 1 : Parallel.width * 4
        var firstRow = [0], firstByte = [r.offset]
        var s = r
        var row = 0
        for p in 1...parts {
            let end = Parallel.range(p - 1, of: parts, in: count).upperBound
            while row < end {
                try skip(&s)
                row += 1
            }
            firstRow.append(row)
            firstByte.append(s.offset)
        }
        guard s.isAtEnd else {
            throw TonightError(.invalidInput, "trailing bytes after \(count) rows", file: url.path)
        }
        return (count, parts, firstRow, firstByte)
    }
}

/// What one run of `readParallel` made: the rows kept, or the error that stopped it.
private struct DecodedRun: Sendable {
    var kept: Int
    var error: TonightError?
}

/// Read-only bytes handed to parallel workers (they outlive the workers).
private struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
}
