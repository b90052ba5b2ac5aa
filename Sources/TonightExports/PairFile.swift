import Foundation
import TonightCore

/// A two-column export (`user_id` + a value) read into (user index, value) pairs.
struct PairFile: Sendable {
    var pairs: [(Int32, UInt64)] = []
    var rejects: [ExportReject] = []
    var rows = 0
    var unknownUsers = 0

    /// Reads the file in `parts` pieces on all cores; results in file order.
    static func read(_ f: CSVFile, valueColumn: String, isEvent: Bool, index: IDIndex, parts: Int) throws -> PairFile {
        let header = try f.header(required: ["user_id", valueColumn])
        let pieces = f.parts(parts, headerEnd: header.end, headerLines: header.lines)
        let results = try Parallel.map(pieces.count) { i in
            try read(f, part: pieces[i], columns: header.columns, valueColumn: valueColumn, isEvent: isEvent, index: index)
        }
        var out = results[0]
        for r in results.dropFirst() {
            out.pairs += r.pairs
            out.rejects += r.rejects
            out.rows += r.rows
            out.unknownUsers += r.unknownUsers
        }
        return out
    }

    static func read(
        _ f: CSVFile, part: CSVFile.Part, columns cols: [String: Int], valueColumn: String, isEvent: Bool, index: IDIndex
    ) throws -> PairFile {
        var out = PairFile()
        out.pairs.reserveCapacity(part.range.count / 20)
        f.withRecords(in: part) { reader in
            let cUser = cols["user_id"]!, cValue = cols[valueColumn]!
            var rec = CSVReader.Record()
            while reader.next(into: &rec) {
                out.rows += 1
                if let e = rec.syntaxError {
                    out.rejects.append(ExportReject(file: f.name, line: rec.line, reason: "bad-csv", detail: e))
                    continue
                }
                guard cUser < rec.fields.count, cValue < rec.fields.count else {
                    out.rejects.append(ExportReject(file: f.name, line: rec.line, reason: "missing-field",
                                                    detail: "expected at least \(max(cUser, cValue) + 1) fields, got \(rec.fields.count)"))
                    continue
                }
                let userBytes = Field.trimmed(rec.fields[cUser])
                let valueBytes = Field.trimmed(rec.fields[cValue])
                guard !userBytes.isEmpty, !valueBytes.isEmpty else {
                    out.rejects.append(ExportReject(file: f.name, line: rec.line, reason: "missing-field",
                                                    detail: userBytes.isEmpty ? "user_id is empty" : "\(valueColumn) is empty"))
                    continue
                }
                let value: UInt64
                if isEvent {
                    guard let e = EventID.parse(valueBytes) else {
                        out.rejects.append(ExportReject(file: f.name, line: rec.line, reason: "bad-id",
                                                        detail: "\(valueColumn) '\(String(decoding: valueBytes, as: UTF8.self))' is not 16 hex digits"))
                        continue
                    }
                    value = e
                } else {
                    guard let a = Field.int(valueBytes) else {
                        out.rejects.append(ExportReject(file: f.name, line: rec.line, reason: "bad-id",
                                                        detail: "\(valueColumn) '\(String(decoding: valueBytes, as: UTF8.self))' is not an integer id"))
                        continue
                    }
                    value = UInt64(bitPattern: a)
                }
                guard let u = index.find(userBytes) else {
                    out.unknownUsers += 1
                    continue
                }
                out.pairs.append((u, value))
            }
        }
        return out
    }
}
