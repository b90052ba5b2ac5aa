import Foundation
import Testing
import TonightTesting
import TonightCore
@testable import TonightExports

@Suite struct CSVReaderTests {
    func records(_ text: String) -> [([String], Int, String?)] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buf in
            var r = CSVReader(buf)
            defer { r.deallocate() }
            var out: [([String], Int, String?)] = []
            var rec = CSVReader.Record()
            while r.next(into: &rec) {
                out.append((rec.fields.map { String(decoding: $0, as: UTF8.self) }, rec.line, rec.syntaxError))
            }
            return out
        }
    }

    @Test func quotedFieldsWithCommasQuotesAndNewlines() {
        let r = records("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nplain,,end\n")
        #expect(r.map(\.0) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["plain", "", "end"]])
        #expect(r.map(\.1) == [1, 2, 4])
        #expect(r.allSatisfy { $0.2 == nil })
    }

    @Test func byteOrderMarkAndNoFinalNewline() {
        let r = records("\u{FEFF}user_id,x\nu1,1")
        #expect(r.map(\.0) == [["user_id", "x"], ["u1", "1"]])
    }

    @Test func trailingEmptyField() {
        #expect(records("a,\n").map(\.0) == [["a", ""]])
        #expect(records("a,").map(\.0) == [["a", ""]])
    }

    @Test func syntaxErrors() {
        let r = records("h\n\"never closed\nx\n")
        #expect(r.count == 2)
        #expect(r[1].2?.contains("never closed") == true)
        let q = records("h\nab\"c\n\"ok\"tail\n")
        #expect(q[1].2 == "quote inside an unquoted field")
        #expect(q[2].2 == "text after a closing quote")
    }

    @Test func blankLinesAreSkipped() {
        #expect(records("h\n\n\nv\n").map(\.1) == [1, 4])
    }
}

/// Every record of `pieces` of `f`, as "line:field|field|…".
func records(_ f: CSVFile, _ pieces: [CSVFile.Part]) -> [String] {
    pieces.flatMap { p in
        f.withRecords(in: p) { reader -> [String] in
            var out: [String] = []
            var rec = CSVReader.Record()
            while reader.next(into: &rec) {
                out.append("\(rec.line):" + rec.fields.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "|"))
            }
            return out
        }
    }
}

/// Splitting a file into parts at record boundaries never cuts a quoted line break, and the
/// parts give the same records, lines included, as one pass.
@Suite struct CSVPartsTests {
    @Test(arguments: [2, 3, 5, 8])
    func partsAgreeWithOnePass(_ parts: Int) throws {
        var text = "user_id,note\n"
        for i in 0..<200 {
            text += i % 7 == 0 ? "u\(i),\"multi\nline, \"\"quoted\"\"\nnote\"\n" : "u\(i),plain \(i)\n"
        }
        let url = temporaryDirectory("parts").appendingPathComponent("parts.csv")
        try Data(text.utf8).write(to: url)
        let f = try CSVFile(url)
        let header = try f.header(required: ["user_id"])
        func read(_ pieces: [CSVFile.Part]) -> [String] { records(f, pieces) }
        let one = read(f.parts(1, headerEnd: header.end, headerLines: header.lines))
        let many = f.parts(parts, headerEnd: header.end, headerLines: header.lines)
        #expect(many.count == parts)
        #expect(read(many) == one)
        #expect(one.count == 200)
        #expect(one[7] == "11:u7|multi\nline, \"quoted\"\nnote")
    }
}

/// Files without a quote character are cut at line ends found by memchr, with line numbers
/// from a word-at-a-time LF count: the same records and lines as one pass.
@Suite struct CSVPlainPartsTests {
    @Test(arguments: ["\n", "\r\n"], [1, 2, 3, 8, 40])
    func plainPartsAgreeWithOnePass(_ lineEnd: String, _ parts: Int) throws {
        var text = "user_id,artist_id" + lineEnd
        for i in 0..<30 { text += (i % 9 == 4 ? lineEnd : "") + "u\(i),\(i * 7)" + lineEnd }
        text += "last,1"  // no final line end
        let url = temporaryDirectory("plain").appendingPathComponent("plain.csv")
        try Data(text.utf8).write(to: url)
        let f = try CSVFile(url)
        let header = try f.header(required: ["user_id"])
        func read(_ pieces: [CSVFile.Part]) -> [String] { records(f, pieces) }
        let one = read(f.parts(1, headerEnd: header.end, headerLines: header.lines))
        let many = f.parts(parts, headerEnd: header.end, headerLines: header.lines)
        #expect(many.count == min(parts, 34) || parts > 30)
        #expect(read(many) == one)
        #expect(one.count == 31 && one.last == "35:last|1")
        #expect(zip(many, many.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound })
    }

    @Test func lineFeedCountMatchesAByteLoop() {
        var rng = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 63, 64, 65, 1000, 4099] {
            // Bytes near 0x0A (0x0A ± small, 0x8A, 0x0B…) where a carry could fake a match.
            let pool: [UInt8] = [0x0A, 0x0B, 0x09, 0x8A, 0x00, 0xFF, 0x7F, 0x80, 0x2C, 0x41]
            let bytes = (0..<length).map { _ in pool.randomElement(using: &rng)! }
            let count = bytes.withUnsafeBufferPointer { ByteScan.lineFeeds($0) }
            #expect(count == bytes.filter { $0 == 0x0A }.count, "length \(length)")
        }
    }
}
