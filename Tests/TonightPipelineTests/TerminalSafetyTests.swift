import Foundation
import Logging
import Testing
import TonightBase
import TonightCore
@testable import TonightPipeline

/// What a hostile export or feed puts in a field comes back in the error an operator reads
/// on a terminal: escaped, never raw. An escape sequence there could clear the screen, set
/// the window's title or hide the rest of the message; a line break could forge a log line.
@Suite struct TerminalSafetyTests {
    enum Field: String, CaseIterable, Sendable {
        case favoriteArtist, playerGender, eventVenue
    }

    /// Puts hostile text in one field of a copy of the tiny inputs; what the message must show.
    static func plant(_ field: Field, in inputs: URL) throws -> String {
        switch field {
        case .favoriteArtist:
            let file = inputs.appendingPathComponent("tickets/favorites.csv")
            let h = try FileHandle(forWritingTo: file)
            try h.seekToEnd()
            try h.write(contentsOf: Data("gsDYBAAAAA,1\u{1B}[2J\u{1B}]0;owned\u{07}\u{0}9\n".utf8))
            try h.close()
            return #"artist_id '1\u{1B}[2J\u{1B}]0;owned\u{07}\u{0}9' is not an integer id"#
        case .playerGender:
            let file = inputs.appendingPathComponent("playmate/players.csv")
            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacingOccurrences(of: ",Male,", with: ",M\u{1B}[5m\u{009B}8m,").write(to: file, atomically: true, encoding: .utf8)
            return #"gender 'M\u{1B}[5m\u{009B}8m' is not Female, Male or Non-binary"#
        case .eventVenue:
            // XML forbids C0 controls in text, but not the C1 ones (U+009B is a terminal's CSI).
            let file = inputs.appendingPathComponent("feed.xml")
            let text = try String(contentsOf: file, encoding: .utf8)
            let planted = text.replacingOccurrences(of: #"<VenueID ID="58" />"#, with: "<VenueID ID=\"\u{9B}2J58\" />")
            #expect(planted != text)
            try planted.write(to: file, atomically: true, encoding: .utf8)
            return #"rejected"#
        }
    }

    @Test(arguments: Field.allCases)
    func aHostileFieldIsEscapedInTheError(_ field: Field) throws {
        let inputs = copyOfTinyInputs()
        let shown = try Self.plant(field, in: inputs)
        let work = temporaryDirectory()
        let r = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"])
        #expect(r.status == 65, "\(r.stderr)")
        let error = try #require(r.stderr.split(separator: "\n").last { $0.hasPrefix("tonight: error: ") }, "\(r.stderr)")
        #expect(error.contains(shown), "\(error)")
        // Nothing on stderr but text and its line breaks.
        let raw = r.stderr.unicodeScalars.filter { $0 != "\n" && Quoted.isControl($0) }
        #expect(raw.isEmpty, "\(raw.map { String($0.value, radix: 16) })")
        if field == .eventVenue {
            // The reject record names the value escaped too (the feed's rejects file).
            let rejects = try #require(FileManager.default.enumerator(atPath: work.path)?
                .compactMap { $0 as? String }.first { $0.hasSuffix("parse-feed.failed/rejects.ndjson") })
            let text = try String(contentsOf: work.appendingPathComponent(rejects), encoding: .utf8)
            #expect(text.contains(#"VenueID '\\u{009B}2J58' is not an integer id"#), "\(text)")
        }
    }

    @Test func aHumanLogLineIsOneLineOfText() {
        let line = TonightLogHandler.humanLine(
            at: Date(timeIntervalSince1970: 0), level: .warning, message: "file 'a\u{1B}[2Jb' not read\nforged INFO line",
            metadata: ["note": "x\u{009B}y"])
        #expect(line == #"1970-01-01T00:00:00Z WARNING file 'a\u{1B}[2Jb' not read\nforged INFO line note=x\u{009B}y"# + "\n")
    }
}
