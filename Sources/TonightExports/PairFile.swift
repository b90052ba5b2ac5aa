import Foundation
import TonightCore

/// How the second column of a pair file is read.
enum PairValue: Sendable {
    case integerID
    case eventID
    /// Another interned id (a friend, a session): unknown ones are counted, not rejected.
    case index(IDIndex)
}

/// A two-column export (a key id + a value) read into (key index, value) pairs.
struct PairFile: Sendable {
    var pairs: [(Int32, UInt64)] = []
    var rejects: [ExportReject] = []
    var rows = 0
    var unknownUsers = 0
    var unknownValues = 0

    /// Reads the file in `parts` pieces on all cores; results in file order.
    static func read(_ f: CSVFile, valueColumn: String, isEvent: Bool, index: IDIndex, parts: Int) throws -> PairFile {
        try read(f, keyColumn: "user_id", valueColumn: valueColumn, value: isEvent ? .eventID : .integerID, index: index, parts: parts)
    }

    static func read(
        _ f: CSVFile, keyColumn: String, valueColumn: String, value: PairValue, index: IDIndex, parts: Int
    ) throws -> PairFile {
        let header = try f.header(required: [keyColumn, valueColumn])
        let pieces = f.parts(parts, headerEnd: header.end, headerLines: header.lines)
        let results = try Parallel.map(pieces.count) { i in
            try read(f, part: pieces[i], columns: header.columns, keyColumn: keyColumn, valueColumn: valueColumn, value: value,
                     index: index)
        }
        var out = results[0]
        for r in results.dropFirst() {
            out.pairs += r.pairs
            out.rejects += r.rejects
            out.rows += r.rows
            out.unknownUsers += r.unknownUsers
            out.unknownValues += r.unknownValues
        }
        return out
    }

    static func read(
        _ f: CSVFile, part: CSVFile.Part, columns cols: [String: Int], keyColumn: String, valueColumn: String,
        value kind: PairValue, index: IDIndex
    ) throws -> PairFile {
        var out = PairFile()
        out.pairs.reserveCapacity(part.range.count / 20)
        let cUser = cols[keyColumn]!, cValue = cols[valueColumn]!
        var lastKey: [UInt8] = []
        var lastIndex: Int32 = -1

        /// One row's two fields (or a reason it has none).
        func handle(_ line: Int, _ user: UnsafeBufferPointer<UInt8>, _ valueField: UnsafeBufferPointer<UInt8>) {
            let userBytes = Field.trimmed(user)
            let valueBytes = Field.trimmed(valueField)
            guard !userBytes.isEmpty, !valueBytes.isEmpty else {
                out.rejects.append(ExportReject(file: f.name, line: line, reason: "missing-field",
                                                detail: userBytes.isEmpty ? "\(keyColumn) is empty" : "\(valueColumn) is empty"))
                return
            }
            let value: UInt64
            switch kind {
            case .eventID:
                guard let e = EventID.parse(valueBytes) else {
                    out.rejects.append(ExportReject(file: f.name, line: line, reason: "bad-id",
                                                    detail: "\(valueColumn) '\(String(decoding: valueBytes, as: UTF8.self))' is not 16 hex digits"))
                    return
                }
                value = e
            case .integerID:
                guard let a = Field.int(valueBytes) else {
                    out.rejects.append(ExportReject(file: f.name, line: line, reason: "bad-id",
                                                    detail: "\(valueColumn) '\(String(decoding: valueBytes, as: UTF8.self))' is not an integer id"))
                    return
                }
                value = UInt64(bitPattern: a)
            case .index(let other):
                guard let v = other.find(valueBytes) else {
                    out.unknownValues += 1
                    return
                }
                value = UInt64(v)
            }
            // Exports list a user's rows together: the previous row's key is usually this one's,
            // which spares a random probe of a large table for most rows.
            let u: Int32
            if lastKey.count == userBytes.count, lastIndex >= 0,
                lastKey.withUnsafeBufferPointer({ memcmp($0.baseAddress!, userBytes.baseAddress!, userBytes.count) == 0 })
            {
                u = lastIndex
            } else {
                guard let found = index.find(userBytes) else {
                    out.unknownUsers += 1
                    return
                }
                u = found
                lastKey.removeAll(keepingCapacity: true)
                lastKey.append(contentsOf: userBytes)
                lastIndex = found
            }
            out.pairs.append((u, value))
        }

        func tooFew(_ line: Int, _ got: Int) {
            out.rejects.append(ExportReject(file: f.name, line: line, reason: "missing-field",
                                            detail: "expected at least \(max(cUser, cValue) + 1) fields, got \(got)"))
        }

        // Fast path: a two-column file part without a single quote character is plain
        // `a,b` lines, scanned directly (the generic reader builds a field array per row).
        if f.columnCount == 2, !f.containsQuote(in: part.range) {
            f.withBytes(in: part.range) { b in
                var i = 0
                var line = part.firstLine
                while i < b.count {
                    var end = i
                    var comma = -1
                    var commas = 0
                    while end < b.count, b[end] != 0x0A {
                        if b[end] == 0x2C {
                            if comma < 0 { comma = end }
                            commas += 1
                        }
                        end += 1
                    }
                    var stop = end
                    if stop > i, b[stop - 1] == 0x0D { stop -= 1 }
                    if stop > i {
                        out.rows += 1
                        if comma < 0 {
                            tooFew(line, 1)
                        } else {
                            // Fields past the second are ignored, as the generic reader does.
                            var second = comma + 1
                            while second < stop, b[second] != 0x2C { second += 1 }
                            let first = UnsafeBufferPointer(rebasing: b[i..<comma])
                            let next = UnsafeBufferPointer(rebasing: b[(comma + 1)..<second])
                            if cUser == 0 { handle(line, first, next) } else { handle(line, next, first) }
                        }
                    }
                    i = end + 1
                    line += 1
                }
            }
            return out
        }

        f.withRecords(in: part) { reader in
            var rec = CSVReader.Record()
            while reader.next(into: &rec) {
                out.rows += 1
                if let e = rec.syntaxError {
                    out.rejects.append(ExportReject(file: f.name, line: rec.line, reason: "bad-csv", detail: e))
                    continue
                }
                guard cUser < rec.fields.count, cValue < rec.fields.count else {
                    tooFew(rec.line, rec.fields.count)
                    continue
                }
                handle(rec.line, rec.fields[cUser], rec.fields[cValue])
            }
        }
        return out
    }
}
