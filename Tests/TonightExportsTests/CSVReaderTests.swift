import Foundation
import Testing
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

/// Splitting a file into parts at record boundaries never cuts a quoted line break, and the
/// parts give the same records, lines included, as one pass.
@Suite struct CSVPartsTests {
    @Test(arguments: [2, 3, 5, 8])
    func partsAgreeWithOnePass(_ parts: Int) throws {
        var text = "user_id,note\n"
        for i in 0..<200 {
            text += i % 7 == 0 ? "u\(i),\"multi\nline, \"\"quoted\"\"\nnote\"\n" : "u\(i),plain \(i)\n"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parts-\(UUID().uuidString.prefix(6)).csv")
        try Data(text.utf8).write(to: url)
        let f = try CSVFile(url)
        let header = try f.header(required: ["user_id"])
        func read(_ pieces: [CSVFile.Part]) -> [String] {
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
        let one = read(f.parts(1, headerEnd: header.end, headerLines: header.lines))
        let many = f.parts(parts, headerEnd: header.end, headerLines: header.lines)
        #expect(many.count == parts)
        #expect(read(many) == one)
        #expect(one.count == 200)
        #expect(one[7] == "11:u7|multi\nline, \"quoted\"\nnote")
    }
}
