import Foundation
import Testing
import TonightBase
import TonightCore
@testable import TonightAffinity

/// affinity.md, case by case.
@Suite struct AffinityParserTests {
    static let artists: [(id: Int64, name: String)] = [
        (1, "Battle At the Boat"), (859485, "Showtime Boxing"), (900333, "Guns N Hoses Charity Boxing Event"),
        (1333908, "MMA – Mixed Martial Arts"), (821673, "Monster Energy AMA Supercross"),
        (5, "Crosby, Stills & Nash"), (6, "Twin"), (7, "twin"), (8, "Beyoncé"),
    ]

    func parse(_ text: String, maxShare: Double = 0.05) throws -> AffinityResult {
        var p = AffinityParser(artists: Self.artists)
        p.maxRejectShare = maxShare
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { try p.parse($0, path: "affinity.txt") }
    }

    @Test func theRealBlock() throws {
        let r = try parse("""
            Recommended artists for Battle At the Boat
            859485,Showtime Boxing,0.1032054610951779
            900333,Guns N Hoses Charity Boxing Event,0.06409555004458115
            1333908,MMA – Mixed Martial Arts,0.03774779597971178
            821673,Monster Energy AMA Supercross,0.004154266363630538
            -----

            """)
        #expect(r.edges == [
            AffinityEdge(source: 1, target: 821673, score: 0.004154266363630538),
            AffinityEdge(source: 1, target: 859485, score: 0.1032054610951779),
            AffinityEdge(source: 1, target: 900333, score: 0.06409555004458115),
            AffinityEdge(source: 1, target: 1333908, score: 0.03774779597971178),
        ])
        #expect(r.counts.isEmpty)
        #expect(r.blocks == 1)
    }

    @Test func namesWithCommasCRLFAndBOM() throws {
        let text = "\u{FEFF}Recommended artists for  crosby,  STILLS & nash \r\n5,Crosby, Stills & Nash,0.5\r\n1,Battle At the Boat,0.25  \r\n\r\n-----\r\n"
        let r = try parse(text)
        #expect(r.edges == [AffinityEdge(source: 5, target: 1, score: 0.25)])
        #expect(r.counts["self-recommendation"] == 1)
        #expect(r.counts["unknown-source"] == nil)
    }

    /// A file in UTF-16 or UTF-32, with a byte order mark or without, is refused as such on
    /// line 1 (it was "no 'Recommended artists for' block"); the same text in UTF-8 reads. Bytes
    /// that are no text at all keep that message (`HostileStoreTests.messagesSayWhatIsWrong`).
    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian])
    func anotherEncodingIsRefusedAsSuch(_ encoding: String.Encoding) throws {
        let text = "Recommended artists for Battle At the Boat\n859485,Showtime Boxing,0.5\n-----\n"
        #expect(try parse(text).edges.count == 1)
        for bom in [true, false] {
            let mark: [UInt8] = !bom ? [] : encoding == .utf16LittleEndian ? [0xFF, 0xFE] : encoding == .utf16BigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE, 0, 0]
            let bytes = mark + Array(text.data(using: encoding)!)
            var p = AffinityParser(artists: Self.artists)
            p.maxRejectShare = 1
            let e = #expect(throws: TonightError.self) { try bytes.withUnsafeBufferPointer { try p.parse($0, path: "affinity.txt") } }
            #expect(e?.message.contains("not UTF-8") == true && e?.line == 1, "\(String(describing: e))")
        }
    }

    @Test func unterminatedLastBlockIsStillRead() throws {
        let r = try parse("Recommended artists for Showtime Boxing\n1,Battle At the Boat,0.3\n")
        #expect(r.edges == [AffinityEdge(source: 859485, target: 1, score: 0.3)])
        #expect(r.counts["unterminated-block"] == 1)
    }

    @Test func badScoreAndShortLineAreRejectedWithTheirLines() throws {
        let r = try parse("""
            Recommended artists for Showtime Boxing
            1,Battle At the Boat,1.7
            900333,Guns N Hoses
            x12,Name,0.1
            900333,Guns N Hoses Charity Boxing Event,0.2
            -----
            """, maxShare: 1)
        #expect(r.rejects.map(\.line) == [2, 3, 4])
        #expect(r.rejects.map(\.reason) == ["bad-score", "bad-line", "bad-line"])
        #expect(r.edges == [AffinityEdge(source: 859485, target: 900333, score: 0.2)])
    }

    @Test func rejectShareFailsTheStage() throws {
        // The error carries the rejects, for the stage's kept rejects file.
        let f = #expect(throws: FailureWithRejects.self) {
            try parse("Recommended artists for Showtime Boxing\n1,Battle At the Boat,2\n900333,X,0.1\n-----\n")
        }
        #expect(f?.error.exitCode == 65 && String(decoding: f?.rejects ?? [], as: UTF8.self).contains("bad-score"))
    }

    @Test func unknownAndAmbiguousSourcesUnknownTargetsMismatchesDuplicates() throws {
        let r = try parse("""
            Recommended artists for Nobody Here
            1,Battle At the Boat,0.2
            -----
            Recommended artists for TWIN
            1,Battle At the Boat,0.2
            1,battle at  the boat,0.4
            424242,Gone,0.1
            859485,Showtime Boxing Inc,0.05
            -----
            Recommended artists for Beyonce\u{301}
            1,Battle At the Boat,0.3
            -----
            """)
        #expect(r.unknownSources == ["Nobody Here"])
        #expect(r.counts["unknown-source"] == 1)
        #expect(r.counts["ambiguous-source"] == 1)
        #expect(r.counts["unknown-target"] == 1)
        #expect(r.counts["name-mismatch"] == 1)  // case and spacing differences do not count
        #expect(r.counts["duplicate-pair"] == 2)
        // The ambiguous block applies to both homonyms, the highest duplicate score wins;
        // NFKC folding resolves the decomposed "Beyoncé".
        #expect(r.edges.contains(AffinityEdge(source: 6, target: 1, score: 0.4)))
        #expect(r.edges.contains(AffinityEdge(source: 7, target: 1, score: 0.4)))
        #expect(r.edges.contains(AffinityEdge(source: 8, target: 1, score: 0.3)))
        #expect(r.edges.count == 5)
    }

    /// Names as a Latin-1 exporter writes them ("Beyonc\u{E9}" as the one byte 0xE9): the
    /// block of such a source matches no artist and the line's name differs from the feed's,
    /// as before, and each is now a `bad-utf8` note with its line and column, saying why
    /// (until 2026-11-28 only "Beyonc\u{FFFD}" among the unknown sources told it).
    @Test func namesThatAreNotUTF8AreSaidWhereAndWhy() throws {
        var bytes = Array("Recommended artists for Battle At the Boat\n859485,Showtime Boxing,0.5\n8,Beyonc".utf8) + [0xE9]
        bytes += Array(",0.25\n-----\n  Recommended artists for Beyonc".utf8) + [0xE9, 0x20, 0x20] + Array("\n1,Battle At the Boat,0.2\n-----\n".utf8)
        var p = AffinityParser(artists: Self.artists)
        let r = try bytes.withUnsafeBufferPointer { try p.parse($0, path: "affinity.txt") }
        #expect(r.edges == [AffinityEdge(source: 1, target: 8, score: 0.25), AffinityEdge(source: 1, target: 859485, score: 0.5)])
        #expect(r.counts == ["bad-utf8": 2, "name-mismatch": 1, "unknown-source": 1])
        #expect(r.unknownSources == ["Beyonc\u{FFFD}"])
        #expect(r.rejects.map(\.line) == [3, 5])
        #expect(r.rejects.allSatisfy { $0.reason == "bad-utf8" && $0.detail.contains("byte 0xE9") && $0.detail.contains("Latin-1") })
        #expect(r.rejects[0].detail.hasPrefix("the name is not UTF-8 (byte 0xE9 at column 9)"), "\(r.rejects[0].detail)")
        #expect(r.rejects[1].detail.hasPrefix("the source name is not UTF-8 (byte 0xE9 at column 33)"), "\(r.rejects[1].detail)")
        // Not counted against maxRejectShare: one good line in three is enough.
        p.maxRejectShare = 0
        #expect(try bytes.withUnsafeBufferPointer { try p.parse($0, path: "affinity.txt") }.edges.count == 2)
    }

    /// A file whose lines end in a bare carriage return (classic Mac OS, or an exporter that
    /// writes "\r" for a line end) is one line to an LF reader: it failed as "no affinity edge
    /// resolves to the feed's artists (1 blocks read)", which sends an engineer looking for a
    /// mismatched delivery. affinity.md accepts LF or CRLF; now it is refused as what it is,
    /// at line 1 and the column of the first bare CR. CRLF files, and CRs at a line's end
    /// ("\r\r\n": a CRLF file written again in text mode), are read as before.
    @Test(arguments: ["\r", "\r\r"])
    func bareCarriageReturnLineEndsAreSaidAsSuch(_ end: String) throws {
        let text = ["\u{FEFF}Recommended artists for Battle At the Boat", "859485,Showtime Boxing,0.5", "-----", ""].joined(separator: end)
        do {
            _ = try parse(text)
            Issue.record("read as one line")
        } catch let e as TonightError {
            #expect(e.line == 1 && e.column == 43, "\(e)")
            #expect(e.message.contains("carriage return") && e.hint?.contains("LF or CRLF") == true, "\(e)")
        }
        // Bytes that are no affinity file (a CR among them) are still "no block".
        do {
            _ = try parse("\u{7}x\ry\r")
            Issue.record("junk read")
        } catch let e as FailureWithRejects {
            #expect(e.error.message.contains("no 'Recommended artists for' block"), "\(e.error)")
        }
        for ok in ["\r\n", "\n", " \r\n", "\r\r\n"] {
            let lines = ["Recommended artists for Battle At the Boat", "859485,Showtime Boxing,0.5", "-----", ""]
            #expect(try parse(lines.joined(separator: ok)).edges.count == 1)
        }
    }

    @Test func noEdgeAtAllFails() throws {
        #expect(throws: TonightError.self) {
            try parse("Recommended artists for Nobody\n1,Battle At the Boat,0.2\n-----\n")
        }
    }

    @Test func nameKeyFastPathAgreesWithFoundation() {
        for name in ["  The  Black   Keys ", "AC/DC", "Guns N' Roses", "MMA – Mixed Martial Arts", "ÉLAN Vital", "Ｆｕｌｌ"] {
            let slow = name.precomposedStringWithCompatibilityMapping.folding(options: [.caseInsensitive], locale: nil)
                .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            #expect(TextNormalizer.nameKey(name) == slow, "\(name)")
        }
    }

    /// The byte-level fast path against the general (Foundation) path for every scalar it
    /// could take (ASCII, Latin-1, the six dashes and quotes) and the scalars beside them, in
    /// contexts that exercise trimming and collapsing: a fold or a white-space rule that
    /// differs for one character fails here.
    @Test(arguments: ["%", "  %  ", "A%b", "%\t% %", "x  %\u{2013}"])
    func nameKeyFastPathAgreesForEveryLatin1Scalar(_ context: String) {
        let scalars = Array(0x00...0x17F) + [0x2012, 0x2013, 0x2014, 0x2015, 0x2017, 0x2018, 0x2019, 0x201A, 0x201C, 0x201D, 0x201E]
        for v in scalars {
            let c = String(Unicode.Scalar(UInt32(v))!)
            let name = context.replacingOccurrences(of: "%", with: c)
            #expect(TextNormalizer.nameKey(name) == NameKey.general(name), "U+\(String(v, radix: 16)) in \(Array(name.unicodeScalars))")
            var bytes: [UInt8] = []
            var s = name
            s.withUTF8 { TextNormalizer.appendNameKey($0, to: &bytes) }
            #expect(bytes == Array(NameKey.general(name).utf8))
        }
    }
}

extension AffinityParserTests {
    /// The file is read in pieces (one per core) cut where a block starts: every count,
    /// reject line, unknown source and edge must be what one pass gives, wherever the cuts
    /// fall (blocks left open before them, rejects after them, repeated pairs across them,
    /// CRLF, a BOM), for any number of pieces.
    @Test(arguments: [0, 1, 2, 3, 4, 5], [2, 3, 7])
    func piecesReadAsOnePass(_ shape: Int, _ pieces: Int) throws {
        var text = shape % 2 == 0 ? "\u{FEFF}" : ""
        let end = shape >= 4 ? "\r\n" : "\n"
        for b in 0..<40 {
            let source = ["Battle At the Boat", "Showtime Boxing", "Nobody Known", "twin", "Beyoncé"][b % 5]
            text += "Recommended artists for \(source)" + end
            text += "859485,Showtime Boxing,0.\(b + 10)" + end
            text += "1333908,MMA – Mixed Martial Arts,0.5" + end
            if b % 7 == shape { text += "5,\"Crosby, Stills & Nash\",1.5" + end }  // bad score
            if b % 9 == shape { text += "short line" + end }
            if b % 6 == 0 { text += "424242,Nobody,0.3" + end }  // unknown target
            if b % 4 != shape % 4 { text += "-----" + end }  // some blocks left open
            if b % 11 == 3 { text += "-----" + end }  // a terminator outside a block
        }
        var p = AffinityParser(artists: Self.artists)
        p.maxRejectShare = 1
        let bytes = Array(text.utf8)
        let (halves, one, cut) = try bytes.withUnsafeBufferPointer {
            (try p.parse($0, path: "a.txt", pieces: pieces), try p.parse($0, path: "a.txt", split: false),
             AffinityParser.blockStart(in: $0, after: $0.count / 2))
        }
        #expect(cut != nil)  // the file was really read in two halves
        #expect(halves.edges == one.edges)
        #expect(halves.counts == one.counts)
        #expect(halves.rejects.map { "\($0.line) \($0.reason)" } == one.rejects.map { "\($0.line) \($0.reason)" })
        #expect(halves.unknownSources == one.unknownSources)
        #expect(halves.blocks == one.blocks && halves.recommendationLines == one.recommendationLines)
        #expect(one.counts["unterminated-block", default: 0] > 0 && !one.rejects.isEmpty && one.counts["duplicate-pair", default: 0] > 0)
    }
}

/// Scores are decimal numbers as Python prints them: nothing else passes.
@Suite struct AffinityScoreTests {
    @Test(arguments: ["0x1p-3", "inf", "nan", "1e400", "", "-", ".", "e5", "0.5.5", "1_0", "٠٫٥", "+-1", "1e"])
    func notDecimal(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer { AffinityParser.parseScore($0) } == nil, "\(text)")
    }

    @Test(arguments: [("0.1032054610951779", 0.1032054610951779), ("1", 1.0), ("0", 0.0), ("4.2e-05", 4.2e-05), ("1E-3", 0.001), (".5", 0.5)])
    func decimal(_ text: String, _ value: Double) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer { AffinityParser.parseScore($0) } == value)
    }
}
