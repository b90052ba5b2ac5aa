import Foundation
import TonightCore

/// How far one quoted field may run before it is taken for an unterminated quote (config
/// `exports.maxFieldBytes`, `exports.maxFieldLines`).
package struct CSVLimits: Sendable, Equatable {
    /// Longest quoted field, in bytes.
    package var maxFieldBytes = 1 << 16
    /// Most lines one quoted field may span.
    package var maxFieldLines = 16

    package init(maxFieldBytes: Int = 1 << 16, maxFieldLines: Int = 16) {
        self.maxFieldBytes = maxFieldBytes
        self.maxFieldLines = maxFieldLines
    }
}

/// An RFC 4180 reader over bytes: quoted fields with commas, doubled quotes and line breaks,
/// CRLF or LF, a UTF-8 byte order mark. Fields come out as byte slices, no String per cell.
///
/// Hand-written: the CSV packages available here (SwiftCSV, CSV.swift) build a String per
/// cell and run at a few tens of MB/s; the exports are hundreds of MB a night.
struct CSVReader {
    /// One record: its fields and the line it starts on (1-based, header included).
    struct Record {
        var fields: [UnsafeBufferPointer<UInt8>] = []
        var line = 0
        /// A problem with the record's syntax (e.g. an unterminated quote), if any.
        var syntaxError: String?
        /// A quoted field that ran past the limits: the line it opened on. Nothing after it
        /// can be trusted (an unterminated quote swallows the rest of the file), so readers
        /// stop with an error there instead of rejecting one giant row.
        var runawayQuoteLine: Int?
    }

    typealias Limits = CSVLimits

    private let bytes: UnsafeBufferPointer<UInt8>
    private var pos = 0
    private var line = 1
    /// Unquoting writes here; fields of a quoted record point into it until the next record.
    private var scratch: UnsafeMutableBufferPointer<UInt8>
    private var scratchUsed = 0
    private var tooLong = false
    private let limits: Limits

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits()) {
        self.bytes = bytes
        self.limits = limits
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { pos = 3 }
        scratch = .allocate(capacity: 1 << 20)
    }

    /// A reader over `bytes[range]` whose first line is `firstLine` (for one part of a file
    /// split at record boundaries).
    init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, firstLine: Int, limits: Limits = Limits()) {
        self.bytes = UnsafeBufferPointer(rebasing: bytes[range])
        self.limits = limits
        line = firstLine
        scratch = .allocate(capacity: 1 << 20)
    }

    /// Byte offset just after the current record (where the next one starts).
    var offset: Int { pos }
    var currentLine: Int { line }

    mutating func deallocate() { scratch.deallocate() }

    /// Reads the next record into `record`; false at end of input.
    mutating func next(into record: inout Record) -> Bool {
        record.fields.removeAll(keepingCapacity: true)
        record.syntaxError = nil
        record.runawayQuoteLine = nil
        scratchUsed = 0
        tooLong = false
        // Blank lines between records are skipped.
        while pos < bytes.count, bytes[pos] == 0x0A || bytes[pos] == 0x0D {
            if bytes[pos] == 0x0A { line += 1 }
            pos += 1
        }
        guard pos < bytes.count else { return false }
        record.line = line
        let base = bytes.baseAddress!
        while true {
            if pos < bytes.count && bytes[pos] == 0x22 {
                readQuoted(into: &record)
                if record.runawayQuoteLine != nil { return true }
            } else {
                // Unquoted: up to the next comma or line end.
                let start = pos
                while pos < bytes.count {
                    let c = bytes[pos]
                    if c == 0x2C || c == 0x0A || c == 0x0D { break }
                    if c == 0x22 && record.syntaxError == nil { record.syntaxError = "quote inside an unquoted field" }
                    pos += 1
                }
                record.fields.append(UnsafeBufferPointer(start: base + start, count: pos - start))
            }
            guard pos < bytes.count else { return true }
            let c = bytes[pos]
            if c == 0x2C {
                pos += 1
                if pos == bytes.count { record.fields.append(UnsafeBufferPointer(start: base + pos, count: 0)); return true }
                continue
            }
            // Line end: CRLF or LF (or a lone CR).
            if c == 0x0D { pos += 1 }
            if pos < bytes.count && bytes[pos] == 0x0A { pos += 1 }
            line += 1
            if tooLong { record.syntaxError = "record longer than 1 MiB" }
            return true
        }
    }

    private mutating func readQuoted(into record: inout Record) {
        pos += 1  // opening quote
        let startLine = line
        let startPos = pos
        var out = scratchUsed
        while pos < bytes.count {
            if pos - startPos > limits.maxFieldBytes || line - startLine >= limits.maxFieldLines {
                record.runawayQuoteLine = startLine
                record.syntaxError = "a quoted field opened on line \(startLine) runs past \(limits.maxFieldBytes) bytes or \(limits.maxFieldLines) lines"
                return
            }
            let c = bytes[pos]
            if c == 0x22 {
                if pos + 1 < bytes.count && bytes[pos + 1] == 0x22 {
                    append(0x22, at: &out)
                    pos += 2
                    continue
                }
                pos += 1  // closing quote
                record.fields.append(UnsafeBufferPointer(rebasing: scratch[scratchUsed..<out]))
                scratchUsed = out
                if pos < bytes.count, bytes[pos] != 0x2C, bytes[pos] != 0x0A, bytes[pos] != 0x0D {
                    record.syntaxError = record.syntaxError ?? "text after a closing quote"
                    while pos < bytes.count, bytes[pos] != 0x2C, bytes[pos] != 0x0A, bytes[pos] != 0x0D { pos += 1 }
                }
                return
            }
            if c == 0x0A { line += 1 }
            append(c, at: &out)
            pos += 1
        }
        record.syntaxError = "quoted field opened on line \(startLine) is never closed"
        record.runawayQuoteLine = startLine
        record.fields.append(UnsafeBufferPointer(rebasing: scratch[scratchUsed..<out]))
        scratchUsed = out
    }

    /// Quoted content beyond the scratch buffer (1 MiB per record) is dropped and the record
    /// flagged: no export has cells anywhere near that size.
    private mutating func append(_ c: UInt8, at out: inout Int) {
        guard out < scratch.count else {
            tooLong = true
            return
        }
        scratch[out] = c
        out += 1
    }
}
