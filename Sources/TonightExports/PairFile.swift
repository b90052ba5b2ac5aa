import Foundation
import TonightBase
import TonightCore

/// How the second column of a pair file is read.
enum PairValue: Sendable {
    case integerID
    case eventID
    /// Another interned id (a friend, a session): unknown ones are counted, not rejected.
    case index(IDIndex)
}

/// Which parsed values are known (ids of the feed): unknown ones are counted in
/// `unknownValues` and, when `dropUnknown`, left out.
struct PairCheck: Sendable {
    var known: IntegerSet
    var dropUnknown: Bool
}

/// A two-column export (a key id + a value) read into (key index, value) pairs, in file order.
struct PairFile: Sendable {
    var keys: [Int32] = []
    var values: [UInt64] = []
    var rejects: [ExportReject] = []
    var rows = 0
    var unknownUsers = 0
    var unknownValues = 0
    /// Integer ids written with a fraction of zeros (`123.0`, `Field.wholeNumber`).
    var decimalValues = 0
    /// Rows with a key and an empty value (`u1,`: a left join's user without favourites, a
    /// session without members): no pair, counted `empty-value`, not rejected.
    var emptyValues = 0

    /// Where a file's rows are cut into parts for the cores, and how its fields are read.
    struct Layout: Sendable {
        var keyColumn: String
        var valueColumn: String
        var columns: [String: Int]
        var value: PairValue
        var check: PairCheck?
    }

    /// Reads the file in `parts` pieces on all cores; results in file order.
    static func read(
        _ f: CSVFile, keyColumn: String, valueColumn: String, value: PairValue, index: IDIndex, parts: Int
    ) throws -> PairFile {
        let header = try f.header(required: [keyColumn, valueColumn])
        let pieces = f.parts(parts, headerEnd: header.end, headerLines: header.lines)
        let layout = Layout(keyColumn: keyColumn, valueColumn: valueColumn, columns: header.columns, value: value)
        return merged(try Parallel.map(pieces.count) { i in try read(f, part: pieces[i], layout, index: index) })
    }

    /// Parts read separately, joined in order.
    static func merged(_ results: [PairFile]) -> PairFile {
        var out = PairFile()
        out.keys.reserveCapacity(results.reduce(0) { $0 + $1.keys.count })
        out.values.reserveCapacity(out.keys.capacity)
        for r in results {
            out.keys += r.keys
            out.values += r.values
            out.rejects += r.rejects
            out.rows += r.rows
            out.unknownUsers += r.unknownUsers
            out.unknownValues += r.unknownValues
            out.decimalValues += r.decimalValues
            out.emptyValues += r.emptyValues
        }
        return out
    }

    /// Reads one part of a file (see `CSVFile.parts`).
    static func read(_ f: CSVFile, part: CSVFile.Part, _ layout: Layout, index: IDIndex) throws -> PairFile {
        var reader = PairRowReader(file: f, layout: layout, index: index, capacity: part.range.count / 16)
        // Fast path: a two-column part without a quote character is plain `a,b` lines,
        // scanned directly (the general reader builds a field array per row).
        if f.columnCount == 2, !f.containsQuote(in: part.range), reader.readPlain(f, part: part) {
            return reader.out
        }
        reader = PairRowReader(file: f, layout: layout, index: index, capacity: part.range.count / 16)
        try f.withRecords(in: part) { records in
            var rec = CSVReader.Record()
            while records.next(into: &rec) {
                reader.out.rows += 1
                if let l = rec.runawayQuoteLine { throw f.runawayQuote(line: l) }
                if let e = rec.syntaxError {
                    reader.out.rejects.append(ExportReject(file: f.name, line: rec.line, reason: "bad-csv", detail: e))
                    continue
                }
                guard rec.fields.count == f.columnCount else {
                    reader.out.rejects.append(f.fieldCountReject(line: rec.line, got: rec.fields.count))
                    continue
                }
                reader.row(rec.line, rec.fields[reader.keyColumn], rec.fields[reader.valueColumn])
            }
        }
        return reader.out
    }
}

/// The per-row work of a pair file: fields checked, the value parsed and checked, the key
/// looked up. Exports list a user's rows together, usually in the order of users.csv: the
/// previous row's user and the user after it are tried first (sequential reads of the id
/// arena), which spares most rows a cache-missing probe of a large table.
struct PairRowReader {
    let file: CSVFile
    let layout: Layout
    let index: IDIndex
    let keyColumn: Int, valueColumn: Int
    var out = PairFile()
    private var lastIndex: Int32 = -1
    // The layout's value kind and check, unpacked: switching over an enum with a payload, or
    // binding an optional set, per row copies (and retains) their arrays.
    private let kind: Kind
    private let values: IDIndex
    private let known: IntegerSet
    private let checking: Bool, dropUnknown: Bool

    typealias Layout = PairFile.Layout

    /// Users after the previous row's compared before a hash lookup.
    static let lookAhead: Int32 = 16

    private enum Kind { case integerID, eventID, index }

    init(file: CSVFile, layout: Layout, index: IDIndex, capacity: Int) {
        self.file = file
        self.layout = layout
        self.index = index
        keyColumn = layout.columns[layout.keyColumn]!
        valueColumn = layout.columns[layout.valueColumn]!
        switch layout.value {
        case .integerID: (kind, values) = (.integerID, IDIndex(capacity: 0))
        case .eventID: (kind, values) = (.eventID, IDIndex(capacity: 0))
        case .index(let other): (kind, values) = (.index, other)
        }
        known = layout.check?.known ?? IntegerSet([UInt64]())
        checking = layout.check != nil
        dropUnknown = layout.check?.dropUnknown ?? false
        out.keys.reserveCapacity(capacity)
        out.values.reserveCapacity(capacity)
    }

    mutating func wrongFieldCount(_ line: Int, _ got: Int) {
        out.rejects.append(file.fieldCountReject(line: line, got: got))
    }

    private mutating func reject(_ line: Int, _ reason: String, _ detail: String) {
        out.rejects.append(ExportReject(file: file.name, line: line, reason: reason, detail: detail))
    }

    /// One row's two fields.
    @inline(__always)
    mutating func row(_ line: Int, _ keyField: UnsafeBufferPointer<UInt8>, _ valueField: UnsafeBufferPointer<UInt8>) {
        let keyBytes = Field.trimmed(keyField)
        let valueBytes = Field.trimmed(valueField)
        guard !keyBytes.isEmpty else {
            reject(line, "missing-field", "\(layout.keyColumn) is empty")
            return
        }
        guard !valueBytes.isEmpty else {
            // A left join's row (`u1,`): the export listed every user, those without a
            // favourite with an empty value. Before 2026-11-28 a `missing-field` reject, and
            // the night failed wherever more than 1 % of the rows were such.
            if Field.idBytes(keyBytes) == nil {
                reject(line, "bad-id", "\(layout.keyColumn) '\(TonightError.quoted(keyBytes))' is not 1 to 64 printable characters of valid UTF-8")
            } else {
                out.emptyValues += 1
            }
            return
        }
        let value: UInt64
        switch kind {
        case .eventID:
            guard let e = EventID.parse(valueBytes) else {
                reject(line, "bad-id", "\(layout.valueColumn) '\(TonightError.quoted(valueBytes))' is not 16 hex digits")
                return
            }
            value = e
        case .integerID:
            if let a = Field.int(valueBytes) {
                value = UInt64(bitPattern: a)
            } else if let (a, _) = Field.wholeNumber(valueBytes) {
                // pandas writes an int column that has a blank (a left join's) as floats.
                value = UInt64(bitPattern: a)
                out.decimalValues += 1
            } else {
                reject(line, "bad-id", "\(layout.valueColumn) '\(TonightError.quoted(valueBytes))' is not an integer id")
                return
            }
        case .index:
            guard let v = values.find(valueBytes) else {
                // An id that is not an id is a reject; a valid one is an unknown reference.
                guard Field.idBytes(valueBytes) != nil else {
                    reject(line, "bad-id", "\(layout.valueColumn) '\(TonightError.quoted(valueBytes))' is not 1 to 64 printable characters of valid UTF-8")
                    return
                }
                out.unknownValues += 1
                return
            }
            value = UInt64(v)
        }
        var k: Int32 = -1
        if lastIndex >= 0, index.equals(lastIndex, keyBytes) {
            k = lastIndex
        } else {
            // A user's rows come together, in users.csv's order, and most users have some:
            // the next few users are compared (their ids lie side by side) before the hash
            // table is probed (a cache miss). Ids are unique, so the user found is the same.
            // Realistic `full`: follows and dismissals skip 3 and 5 users at the median.
            var j = lastIndex + 1
            let end = min(Int32(index.count), j + Self.lookAhead)
            while j < end {
                if index.equals(j, keyBytes) {
                    k = j
                    break
                }
                j += 1
            }
        }
        if k < 0 {
            guard let found = index.find(keyBytes) else {
                guard Field.idBytes(keyBytes) != nil else {
                    reject(line, "bad-id", "\(layout.keyColumn) '\(TonightError.quoted(keyBytes))' is not 1 to 64 printable characters of valid UTF-8")
                    return
                }
                out.unknownUsers += 1
                return
            }
            k = found
        }
        lastIndex = k
        if checking, !known.contains(value) {
            out.unknownValues += 1
            if dropUnknown { return }
        }
        out.keys.append(k)
        out.values.append(value)
    }

    /// Plain `a,b` lines (no quotes; CRLF or LF). Returns false at a lone CR, which the
    /// RFC 4180 reader treats as a line end: the caller then reads the part with that reader.
    mutating func readPlain(_ f: CSVFile, part: CSVFile.Part) -> Bool {
        f.withBytes(in: part.range) { b -> Bool in
            guard !CSVFile.hasLoneCR(b) else { return false }
            let n = b.count
            var i = 0
            var line = part.firstLine
            while i < n {
                // The first field ends at a comma or the line's end; the second at the next.
                var comma = i
                while comma < n, b[comma] != 0x2C, b[comma] != 0x0A { comma += 1 }
                var end: Int
                var second = -1
                var extra = false
                if comma < n, b[comma] == 0x2C {
                    second = comma + 1
                    while second < n, b[second] != 0x2C, b[second] != 0x0A { second += 1 }
                    end = second
                    if end < n, b[end] == 0x2C {
                        // More fields than the header's two: the row is rejected below.
                        end = memchr(b.baseAddress! + end, 0x0A, n - end).map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - b.baseAddress! } ?? n
                        extra = true
                    }
                } else {
                    end = comma
                }
                // A CR before the LF belongs to the line end.
                var stop = end
                if stop > i, b[stop - 1] == 0x0D { stop -= 1 }
                if stop > i {
                    out.rows += 1
                    if second < 0 {
                        wrongFieldCount(line, 1)
                    } else if extra {
                        var fields = 1
                        for k in i..<stop where b[k] == 0x2C { fields += 1 }
                        wrongFieldCount(line, fields)
                    } else {
                        let first = UnsafeBufferPointer(rebasing: b[i..<comma])
                        let next = UnsafeBufferPointer(rebasing: b[(comma + 1)..<min(second, stop)])
                        if keyColumn == 0 { row(line, first, next) } else { row(line, next, first) }
                    }
                }
                i = end + 1
                line += 1
            }
            return true
        }
    }
}
