import Foundation
import TonightBase
import TonightCore

/// A rejected export row (`FILE:LINE` and a reason), one line of the stage's rejects file.
package struct ExportReject: Sendable, Equatable, EncodableRecord {
    package var file: String
    package var line: Int
    package var reason: String
    package var detail: String

    package func encode(to e: inout RecordEncoder) {
        e.field("file", file)
        e.field("line", line)
        e.field("reason", reason)
        e.field("detail", detail)
    }
}

/// One CSV export file mapped in memory, with its header resolved to column positions.
final class CSVFile: @unchecked Sendable {
    let url: URL
    let name: String
    private let data: Data
    /// Column positions by name (unknown columns are ignored).
    private(set) var columns: [String: Int] = [:]
    private(set) var columnCount = 0
    private(set) var headerLine = 1
    let limits: CSVLimits
    /// The fields `forEachRow` read as absent (`NullMarkers`).
    private(set) var nullMarkers = NullMarkers()

    init(_ url: URL, limits: CSVLimits = CSVLimits()) throws {
        self.url = url
        self.limits = limits
        name = url.lastPathComponent
        data = try FileIO.read(url)
    }

    /// The error of a quoted field that never closes within the limits: the rest of the file
    /// cannot be read reliably, so the stage stops at the line where the quote opened.
    func runawayQuote(line: Int) -> TonightError {
        TonightError(
            .invalidInput,
            "a quoted field opened here does not close within \(limits.maxFieldLines) lines or \(limits.maxFieldBytes) bytes (an unterminated quote?)",
            file: url.path, line: line,
            hint: "fix the export; if such long quoted fields are genuine, raise exports.maxFieldLines / exports.maxFieldBytes")
    }

    /// The reject of a row whose field count is not the header's (RFC 4180: every record has
    /// the same number of fields).
    func fieldCountReject(line: Int, got: Int) -> ExportReject {
        ExportReject(file: name, line: line, reason: "bad-csv", detail: "\(got) fields, the header has \(columnCount)")
    }

    var byteCount: Int { data.count }

    /// A part of the file's records: a byte range starting at a record boundary.
    struct Part: Sendable {
        var range: Range<Int>
        var firstLine: Int
    }

    /// Splits the records after the header into about `count` parts at record boundaries.
    /// A line end is a boundary when the number of quote characters before it is even (an
    /// odd count means it lies inside a quoted field), so quoted line breaks are never split.
    func parts(_ count: Int, headerEnd: Int, headerLines: Int) -> [Part] {
        data.withUnsafeBytes { raw -> [Part] in
            let b = raw.bindMemory(to: UInt8.self)
            if count > 1, headerEnd < b.count, memchr(b.baseAddress! + headerEnd, 0x22, b.count - headerEnd) == nil {
                return plainParts(b, count, headerEnd: headerEnd, headerLines: headerLines)
            }
            var cuts = [headerEnd]
            var quotes = 0
            var lines = headerLines + 1
            var firstLines = [lines]
            var i = headerEnd
            for k in 1..<count {
                let target = headerEnd + (b.count - headerEnd) * k / count
                while i < b.count {
                    let c = b[i]
                    i += 1
                    if c == 0x22 { quotes += 1 }
                    else if c == 0x0A {
                        lines += 1
                        if i >= target && quotes % 2 == 0 { break }
                    }
                }
                if i > cuts.last! && i < b.count {
                    cuts.append(i)
                    firstLines.append(lines)
                }
            }
            cuts.append(b.count)
            return (0..<cuts.count - 1).map { Part(range: cuts[$0]..<cuts[$0 + 1], firstLine: firstLines[$0]) }
        }
    }

    /// `parts` of a file without a quote character: every line end is a record boundary, so
    /// a cut is the first LF after its target (memchr) and only line ends are counted.
    private func plainParts(_ b: UnsafeBufferPointer<UInt8>, _ count: Int, headerEnd: Int, headerLines: Int) -> [Part] {
        var parts: [Part] = []
        var start = headerEnd
        var line = headerLines + 1
        for k in 1...count {
            var cut = b.count
            if k < count {
                let target = max(start, headerEnd + (b.count - headerEnd) * k / count)
                if target < b.count, let lf = memchr(b.baseAddress! + target, 0x0A, b.count - target) {
                    cut = UnsafePointer<UInt8>(lf.assumingMemoryBound(to: UInt8.self)) - b.baseAddress! + 1
                }
            }
            if cut > start || (k == count && parts.isEmpty) {
                parts.append(Part(range: start..<cut, firstLine: line))
                line += ByteScan.lineFeeds(UnsafeBufferPointer(rebasing: b[start..<cut]))
                start = cut
            }
            if start >= b.count { break }
        }
        return parts
    }

    /// A header's column names for a message: the first `limit`, each quoted and cut at 40
    /// characters, then how many more (a broken exporter's header of 200,000 columns made a
    /// 1.7 MB error line).
    static func headerList(_ names: [String], limit: Int = 20) -> String {
        Quoted.list(names.lazy.map { TonightError.quoted($0, limit: 40) }, limit: limit)
    }

    /// Whether `b` holds a CR not followed by LF (a line end to the RFC 4180 reader, which the
    /// fast paths do not handle). memchr skips files without CRs at memory speed.
    static func hasLoneCR(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return false }
        var i = 0
        while i < b.count, let cr = memchr(base + i, 0x0D, b.count - i) {
            let at = UnsafePointer<UInt8>(cr.assumingMemoryBound(to: UInt8.self)) - base
            if at + 1 < b.count, b[at + 1] != 0x0A { return true }
            i = at + 1
        }
        return false
    }

    /// Whether a byte range holds a quote character (the fast two-column path needs none).
    func containsQuote(in range: Range<Int>) -> Bool {
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            return memchr(b.baseAddress! + range.lowerBound, 0x22, range.count) != nil
        }
    }

    func withBytes<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { raw in try body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[range])) }
    }

    /// The header's columns and where the records start.
    func header(required: [String]) throws -> (columns: [String: Int], end: Int, lines: Int) {
        try withRecords(required: required) { reader, cols, _ in (cols, reader.offset, reader.currentLine - 1) }
    }

    /// Reads one part's records.
    func withRecords<R>(in part: Part, _ body: (inout CSVReader) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { raw in
            var reader = CSVReader(raw.bindMemory(to: UInt8.self), range: part.range, firstLine: part.firstLine, limits: limits)
            defer { reader.deallocate() }
            return try body(&reader)
        }
    }

    /// Reads the header and checks the required columns.
    func withRecords<R>(
        required: [String], _ body: (inout CSVReader, [String: Int], Int) throws -> R
    ) throws -> R {
        try data.withUnsafeBytes { raw in
            // Until 2026-11-28 such a file failed on its header, with the header's NUL bytes and
            // replacement characters written raw into a "missing column" message.
            if let other = TextEncodingCheck.otherEncoding(raw.bindMemory(to: UInt8.self)) {
                throw TonightError(.invalidInput, "the file is \(other), not UTF-8", file: url.path, line: 1,
                                   hint: "export it as UTF-8 (user-data.md); Excel's \"Unicode text\" is UTF-16")
            }
            var reader = CSVReader(raw.bindMemory(to: UInt8.self), limits: limits)
            defer { reader.deallocate() }
            var header = CSVReader.Record()
            guard reader.next(into: &header) else {
                throw TonightError(.invalidInput, "empty file (no header row)", file: url.path, line: 1,
                                   hint: "the export must start with a header row")
            }
            if let l = header.runawayQuoteLine { throw runawayQuote(line: l) }
            if let e = header.syntaxError {
                throw TonightError(.invalidInput, "malformed header row: \(e)", file: url.path, line: header.line)
            }
            var cols: [String: Int] = [:]
            for (i, f) in header.fields.enumerated() {
                let n = String(decoding: f, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
                if let first = cols[n] {
                    // A repeated name would silently replace a whole column.
                    throw TonightError(
                        .invalidInput, "column '\(TonightError.quoted(n))' appears twice in the header (columns \(first + 1) and \(i + 1))",
                        file: url.path, line: header.line, hint: "fix the export: each column name must be unique")
                }
                cols[n] = i
            }
            for r in required where cols[r] == nil {
                // One column whose name holds another separator: a semicolon-separated file
                // (Excel in a locale with a decimal comma) or a tab-separated one.
                let only = cols.count == 1 ? cols.keys.first! : ""
                let separator = only.contains(";") ? "';' (Excel's CSV in a locale with a decimal comma)" : only.contains("\t") ? "tabs" : nil
                throw TonightError(
                    .invalidInput,
                    "required column '\(r)' is missing (header: \(Self.headerList(cols.keys.sorted())))",
                    file: url.path, line: header.line,
                    hint: separator.map { "the columns seem to be separated by \($0): export the file with commas (RFC 4180, user-data.md)" }
                        ?? "check the export's column names (user-data.md)")
            }
            columns = cols
            columnCount = header.fields.count
            return try body(&reader, cols, header.fields.count)
        }
    }
}

/// One record of an export, with its columns by name.
struct CSVRow {
    let record: CSVReader.Record
    let columns: [String: Int]

    var line: Int { record.line }

    /// The named column's bytes (empty when the column or the field is missing).
    subscript(_ name: String) -> UnsafeBufferPointer<UInt8> {
        guard let c = columns[name], c < record.fields.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        return record.fields[c]
    }
}

extension CSVFile {
    /// Every record after the header: syntax errors are rejected here, and so is a row whose
    /// `text` columns (free text the outputs repeat) are not UTF-8 (`bad-utf8`); `body` gets
    /// the row and a function that rejects it with a reason. Returns the number of data rows.
    ///
    /// Until 2026-11-28 a Latin-1 or Windows-1252 export's "Café" was published as "Caf\u{FFFD}"
    /// (invalid bytes replaced without a word); ids, numbers and enumerations were checked
    /// already, by their own parsers.
    func forEachRow(
        required: [String], text: [String] = [], rejects: inout [ExportReject], _ body: (CSVRow, (String, String) -> Void) throws -> Void
    ) throws -> Int {
        try withRecords(required: required) { reader, cols, _ -> Int in
            var rec = CSVReader.Record()
            var n = 0
            let textColumns = text.compactMap { name in cols[name].map { (name, $0) } }
            let nullable = (ExportColumns.nullable[name] ?? []).compactMap { name in cols[name].map { (name, $0) } }
            while reader.next(into: &rec) {
                n += 1
                let line = rec.line
                var rowRejects: [ExportReject] = []
                let reject = { (reason: String, detail: String) in
                    rowRejects.append(ExportReject(file: self.name, line: line, reason: reason, detail: detail))
                }
                if let l = rec.runawayQuoteLine { throw runawayQuote(line: l) }
                if let e = rec.syntaxError {
                    reject("bad-csv", e)
                } else if rec.fields.count != columnCount {
                    rowRejects.append(fieldCountReject(line: line, got: rec.fields.count))
                } else if let (name, at, byte) = Self.firstInvalidUTF8(rec, textColumns) {
                    reject("bad-utf8", "column '\(name)' is not UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)) at byte \(at + 1) "
                        + "of the field): export the file as UTF-8 (user-data.md)")
                } else {
                    for (column, c) in nullable where NullMarkers.isMarker(rec.fields[c]) {
                        nullMarkers.note(file: name, line: line, column: column, rec.fields[c])
                        rec.fields[c] = UnsafeBufferPointer(start: nil, count: 0)
                    }
                    try body(CSVRow(record: rec, columns: cols), reject)
                }
                rejects += rowRejects
            }
            return n
        }
    }
}

extension CSVFile {
    /// The first of `columns` whose field is not UTF-8: its name, the offset of the first bad
    /// byte and that byte (`TextEncodingCheck.firstInvalidUTF8`).
    static func firstInvalidUTF8(_ rec: CSVReader.Record, _ columns: [(String, Int)]) -> (String, Int, UInt8)? {
        for (name, c) in columns where c < rec.fields.count {
            let f = rec.fields[c]
            if let at = TextEncodingCheck.firstInvalidUTF8(f) { return (name, at, f[at]) }
        }
        return nil
    }
}

/// The reject-share rule of user-data.md, per file.
enum RejectShare {
    /// A file fails the stage (65) when its rejects exceed the share, or when every row is bad;
    /// the error carries the rejects found so far (`before`, then this file's) for the kept
    /// rejects file.
    static func check(_ maxShare: Double, stage: String, _ f: CSVFile, rows: Int, rejects: [ExportReject],
                      before: [ExportReject] = []) throws {
        guard !rejects.isEmpty else { return }
        if rejects.count == rows || Double(rejects.count) > maxShare * Double(rows) {
            let error = TonightError(
                .invalidInput,
                "\(rejects.count) of \(rows) rows rejected, more than \(String(format: "%g", maxShare * 100)) % (first: line \(rejects[0].line), \(rejects[0].reason): \(rejects[0].detail))",
                file: f.url.path, line: rejects[0].line,
                hint: "see the rejects file; fix the export and re-run with --from \(stage)")
            throw FailureWithRejects(error, rejects: before + rejects)
        }
    }
}
