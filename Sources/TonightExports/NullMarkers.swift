import Foundation
import TonightCore

/// The words other exporters write for an absent value, read as an empty field in the columns
/// that are not ids (`ExportColumns.nullable`), and counted (the warning `null-marker`).
///
/// user-data.md's absent value is an empty field, as PostgreSQL's `COPY … CSV`, BigQuery and
/// pandas' `to_csv` write it. Other writers spell it: MySQL's `SELECT … INTO OUTFILE` writes
/// `\N`, SQL Server Management Studio's saved results `NULL`, R's `write.csv` `NA`, a script
/// that formats a JavaScript or Python value `null`, `undefined` or `None`, Excel `#N/A`.
/// Until 2026-11-28 such a word was a value: `lat` `\N` a `bad-number` reject (every user
/// without coordinates, so the night failed on the 1 % rule), `gender` `NULL` a `bad-value`
/// reject, `skill_level` `NULL` published as the session's skill level, `home_zip` `NA` an
/// unplaced ZIP.
///
/// The words are pandas' default `na_values` (the list most CSV tooling follows), MySQL's `\N`
/// and JavaScript's `undefined`, matched exactly after the field's spaces and tabs are trimmed. Ids are never read so:
/// ids are opaque (user-data.md), and `NA` may be one.
struct NullMarkers: Sendable {
    /// Fields read as absent.
    private(set) var count = 0
    /// The first few, as `FILE:LINE column 'WORD'`.
    private(set) var examples: [String] = []

    static let words: [String] = [
        "\\N", "NULL", "null", "NA", "N/A", "n/a", "#N/A", "#N/A N/A", "#NA", "<NA>", "NaN", "nan", "-NaN", "-nan",
        "None", "1.#IND", "-1.#IND", "1.#QNAN", "-1.#QNAN", "undefined",
    ]
    private static let bytes: [[UInt8]] = words.map { Array($0.utf8) }
    private static let longest = words.map(\.utf8.count).max()!

    /// Whether a field is one of `words` (spaces and tabs around it allowed).
    @inline(__always)
    static func isMarker(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        let t = Field.trimmed(field)
        // Most fields are numbers and names: one length test and a first byte rule them out.
        guard t.count >= 2, t.count <= longest else { return false }
        let first = t[0]
        guard first == 0x5C || first == 0x23 || first == 0x3C || first == 0x2D || first == 0x31
            || first == 0x4E || first == 0x6E || first == 0x75 else { return false }  // \ # < - 1 N n u
        for w in bytes where w.count == t.count && w[0] == first {
            if w.withUnsafeBufferPointer({ memcmp($0.baseAddress!, t.baseAddress!, t.count) == 0 }) { return true }
        }
        return false
    }

    /// Counts one field read as absent.
    mutating func note(file: String, line: Int, column: String, _ field: UnsafeBufferPointer<UInt8>) {
        count += 1
        if examples.count < 5 {
            examples.append("\(file):\(line) \(column) '\(TonightError.quoted(Field.trimmed(field)))'")
        }
    }

    /// Adds another part's count and examples (the next part of the same file, or another file).
    mutating func merge(_ other: NullMarkers) {
        count += other.count
        examples += other.examples.prefix(max(0, 5 - examples.count))
    }

    /// Records the count as the warning `null-marker`, with its examples.
    func record(counts: inout [String: Int], examples out: inout [String: [String]]) {
        guard count > 0 else { return }
        counts["null-marker", default: 0] += count
        out["null-marker", default: []] += examples.prefix(max(0, 5 - (out["null-marker"]?.count ?? 0)))
    }
}
