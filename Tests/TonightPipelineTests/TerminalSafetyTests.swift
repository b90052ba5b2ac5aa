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

    /// Every column of every export, one at a time: the first row's value replaced by control
    /// characters (ESC, BEL, C1's CSI, NUL, a line break inside the quoted field) and 20,000
    /// more characters. Whether
    /// the row is rejected or the run stops, no error, reject or run record repeats them raw
    /// (what the command's last line of defence, `Quoted.line`, does not cover).
    static var exportColumns: [String] {
        ["tickets", "playmate"].flatMap { folder -> [String] in
            let dir = tinyInputs.appendingPathComponent(folder)
            return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted().flatMap { file -> [String] in
                let header = (try? String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8))?.split(separator: "\n").first ?? ""
                return header.split(separator: ",").indices.map { "\(folder)/\(file)#\($0)" }
            }
        }
    }

    /// The files of a run that people read: rejects, run and stage records, the report, the
    /// list of venues the geocoding could not place.
    static let readByPeople = ["rejects.ndjson", "run.json", "stage.json", "report.md", "unresolved-venues.txt", "unknown-sources.txt"]

    /// Runs the job on `inputs`: what people read of it, the error (when the run stopped) and
    /// the files of `readByPeople`.
    static func textsReadByPeople(afterRunning inputs: URL) throws -> [String] {
        let work = temporaryDirectory()
        var texts: [String] = []
        do {
            try runner(inputs: inputs, work: work).run()
        } catch let e as TonightError {
            texts.append(e.description)
        }
        for case let path as String in FileManager.default.enumerator(atPath: work.path)! where readByPeople.contains(where: path.hasSuffix) {
            texts.append(try String(contentsOf: work.appendingPathComponent(path), encoding: .utf8))
        }
        #expect(!texts.isEmpty)
        return texts
    }

    /// No control character but line breaks in any of `texts` (JSON files hold their escapes
    /// as text: only what is raw counts), and no line longer than `maxLine` bytes: a planted
    /// value of 20,000 characters is repeated cut, never whole.
    static func expectNoRawControls(_ texts: [String], _ what: String, maxLine: Int = 2_000) {
        for text in texts {
            let raw = text.unicodeScalars.filter { $0 != "\n" && Quoted.isControl($0) }
            #expect(raw.isEmpty, "\(what): \(raw.map { String($0.value, radix: 16) }) in \(Quoted.line(String(text.prefix(600))))")
            let longest = text.split(separator: "\n").map(\.utf8.count).max() ?? 0
            #expect(longest <= maxLine, "\(what): a line of \(longest) bytes in \(Quoted.line(String(text.prefix(300))))")
        }
    }

    /// The sweeps' argument lists are built from the tiny inputs at run time: an empty list
    /// would run no case and pass. Every column of the ten exports, and the values of the
    /// four records, are there.
    @Test func theSweepsCoverEveryField() {
        #expect(Self.exportColumns.count == 42, "\(Self.exportColumns)")
        #expect(Self.feedValues.count == 30, "\(Self.feedValues)")
    }

    @Test(arguments: exportColumns)
    func noExportColumnEchoesControlCharacters(_ column: String) throws {
        let parts = column.split(separator: "#")
        let inputs = copyOfTinyInputs()
        let file = inputs.appendingPathComponent(String(parts[0]))
        var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[Int(parts[1])!] = "\"7\u{1B}]0;x\u{07}\u{9B}2J\u{0}<\n>" + String(repeating: "x", count: 20_000) + "\""
        lines[1] = fields.joined(separator: ",")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        Self.expectNoRawControls(try Self.textsReadByPeople(afterRunning: inputs), column)
    }

    /// Every value of the first artist, category, venue and event of the feed, one at a time:
    /// C1's CSI and next-line characters, a tab and 20,000 digits put in front of it (XML
    /// forbids the other C0 characters in text, not these). The same check as for the exports.
    static var feedValues: [Int] {
        let lines = ((try? String(contentsOf: tinyInputs.appendingPathComponent("feed.xml"), encoding: .utf8)) ?? "")
            .split(separator: "\n", omittingEmptySubsequences: false)
        return ["Artist", "Category", "Venue", "Event"].flatMap { tag -> [Int] in
            guard let start = lines.firstIndex(where: { $0.contains("<\(tag) ") }),
                  let end = lines[start...].firstIndex(where: { $0.contains("</\(tag)>") }) else { return [] }
            return (start..<end).filter { lines[$0].contains("ID=\"") || lines[$0].contains("</") }
        }
    }

    @Test(arguments: feedValues)
    func noFeedValueEchoesControlCharacters(_ line: Int) throws {
        let inputs = copyOfTinyInputs()
        let file = inputs.appendingPathComponent("feed.xml")
        var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let hostile = "\u{9B}2J\u{85}\t" + String(repeating: "9", count: 20_000)
        // Inside a CDATA section, at an ID's start, or at the start of an element's text.
        if let r = lines[line].range(of: "<![CDATA[") ?? lines[line].range(of: "ID=\"") {
            lines[line].insert(contentsOf: hostile, at: r.upperBound)
        } else if let close = lines[line].range(of: "</"), let open = lines[line][..<close.lowerBound].range(of: ">", options: .backwards) {
            lines[line].insert(contentsOf: hostile, at: open.upperBound)
        }
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        Self.expectNoRawControls(try Self.textsReadByPeople(afterRunning: inputs), "line \(line + 1)")
    }

    /// The affinity file: a block whose header names an artist the feed lacks (listed among the
    /// stage's unknown sources) with C1's CSI and next-line characters in the name. (A bad
    /// line's detail was quoted already.)
    @Test func noAffinityTextEchoesControlCharacters() throws {
        let inputs = copyOfTinyInputs()
        let file = inputs.appendingPathComponent("affinity.txt")
        var text = try String(contentsOf: file, encoding: .utf8)
        if !text.hasSuffix("\n") { text += "\n" }
        text += "Recommended artists for Nobody\u{9B}2J\u{85}Known\n1096,Toronto Symphony Orchestra,0.1\n-----\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let texts = try Self.textsReadByPeople(afterRunning: inputs)
        #expect(texts.contains { $0.contains(#"Nobody\u{009B}2J\u{0085}Known"#) }, "the unknown source is listed, escaped")
        Self.expectNoRawControls(texts, "affinity")
    }

    /// A feed's artist name with C1's CSI, next-line and DEL is published as it came (JSON
    /// allows them), but `snapshot get` prints the record with them escaped, one key or a file
    /// of keys: the same JSON value, nothing a terminal acts on. So do `runs dump` (the
    /// intermediate tables), `runs show` (a run's records, here one an older build wrote raw)
    /// and `snapshot show` (a hand-edited manifest).
    @Test func recordsPrintedByTheCLIHaveNoRawControlCharacter() throws {
        let inputs = copyOfTinyInputs()
        let file = inputs.appendingPathComponent("feed.xml")
        let feed = try String(contentsOf: file, encoding: .utf8)
        let planted = feed.replacingOccurrences(of: "<ArtistName>The Lonely Tides</ArtistName>",
                                                with: "<ArtistName>The Lonely\u{9B}2J\u{85}Tides&#x7F;</ArtistName>")
        #expect(planted != feed)
        try planted.write(to: file, atomically: true, encoding: .utf8)
        let work = temporaryDirectory()
        #expect(try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"]).status == 0)
        let keys = work.appendingPathComponent("keys.txt")
        try "1054\nnone\u{9B}\n".write(to: keys, atomically: true, encoding: .utf8)
        for arguments in [["1054"], ["--keys", keys.path]] {
            let r = try runTonight(["snapshot", "get", "artists"] + arguments + ["--out", work.path + "/out"])
            #expect(r.status == 0)
            Self.expectNoRawControls([r.stdout], "snapshot get \(arguments)")
            let first = try #require(r.stdout.split(separator: "\n").first)
            #expect(first.contains(#""name":"The Lonely\u009B2J\u0085Tides\u007F""#), "\(Quoted.line(String(first)))")
            let record = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            #expect(record["name"] as? String == "The Lonely\u{9B}2J\u{85}Tides\u{7F}", "the same JSON value")
        }
        // The intermediate table, and a run's records as an older build wrote them (raw).
        let dump = try runTonight(["runs", "dump", "parse-feed", "artists", "--work", work.path])
        #expect(dump.status == 0 && dump.stdout.contains(#""name":"The Lonely\u009B2J\u0085Tides\u007F""#))
        Self.expectNoRawControls([dump.stdout], "runs dump")
        let runs = work.appendingPathComponent("runs")
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: runs.path).first)
        let record = runs.appendingPathComponent(run).appendingPathComponent("parse-feed/stage.json")
        let text = try String(contentsOf: record, encoding: .utf8)
        try text.replacingOccurrences(of: "\"details\" : {", with: "\"details\" : {\"old\" : \"x\u{9B}2J\u{7F}\",").write(to: record, atomically: true, encoding: .utf8)
        let show = try runTonight(["runs", "show", "--work", work.path])
        #expect(show.status == 0 && show.stdout.contains(#""old" : "x\u009B2J\u007F""#), "\(Quoted.line(String(show.stdout.prefix(300))))")
        Self.expectNoRawControls([show.stdout], "runs show", maxLine: 100_000)
        // A manifest edited by hand: `snapshot show` prints it as it is, but escaped.
        let snapshots = work.appendingPathComponent("out/snapshots")
        let id = try String(contentsOf: snapshots.appendingPathComponent("CURRENT"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let manifest = snapshots.appendingPathComponent(id).appendingPathComponent("manifest.json")
        let published = try String(contentsOf: manifest, encoding: .utf8)
        let edited = published.replacingOccurrences(of: "\"codeVersion\" : \"", with: "\"codeVersion\" : \"\u{9B}2J")
        #expect(edited != published)
        try edited.write(to: manifest, atomically: true, encoding: .utf8)
        let shown = try runTonight(["snapshot", "show", "--out", work.path + "/out"])
        #expect(shown.status == 0 && shown.stdout.contains(#""codeVersion" : "\u009B2J"#), "\(Quoted.line(String(shown.stdout.prefix(300))))")
        Self.expectNoRawControls([shown.stdout], "snapshot show", maxLine: 100_000)
    }

    /// A key pasted from somewhere into `snapshot get`: the miss names it escaped.
    @Test func aMissingKeyIsEscapedInTheMessage() throws {
        let work = temporaryDirectory()
        #expect(try runTonight(["run", "--work", work.path, "--out", work.path + "/out"]).status == 0)
        let r = try runTonight(["snapshot", "get", "explore", "a\u{1B}[2J\u{9B}b", "--out", work.path + "/out"])
        #expect(r.status == 1)
        #expect(r.stderr.contains(#"no record 'a\u{1B}[2J\u{009B}b' in explore"#), "\(Quoted.line(r.stderr))")
        Self.expectNoRawControls([r.stderr], "snapshot get")
    }

    /// The JSON log keeps no raw DEL or C1 character (JSON allows them; a terminal that shows
    /// the log may take U+009B for an escape sequence's start), and reads back as the message.
    @Test func aJSONLogLineHasNoRawControlCharacter() throws {
        let message = "file 'a\u{1B}[2J\u{9B}31m\u{7F}\u{85}b' not read\nforged"
        let line = TonightLogHandler.jsonLine(level: "warning", message: message, fields: ["note": "x\u{9F}y"])
        Self.expectNoRawControls([line], "JSON log")
        #expect(line.contains(#"\u009B31m\u007F\u0085b"#), "\(Quoted.line(line))")
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["msg"] as? String == message)
        #expect(object["note"] as? String == "x\u{9F}y")
    }

    /// A usage error repeats the argument as typed: escaped in both formats, the usage's lines
    /// kept as lines.
    @Test func aUsageErrorEscapesTheArgument() throws {
        let hostile = "\u{1B}[2J\u{9B}31m"
        let human = try runTonight(["run", "--threads", hostile])
        #expect(human.status == 2)
        #expect(human.stderr.contains(#"The value '\u{1B}[2J\u{009B}31m' is invalid"#), "\(Quoted.line(human.stderr))")
        #expect(human.stderr.split(separator: "\n").count >= 3, "the usage keeps its lines")
        Self.expectNoRawControls([human.stderr], "usage error")
        let json = try runTonight(["run", "--log-format", "json", "--threads", hostile])
        #expect(json.status == 2)
        #expect(json.stderr.contains(#"\u001b[2J\u009B31m"#), "\(Quoted.line(json.stderr))")
        Self.expectNoRawControls([json.stderr], "usage error, JSON")
    }

    /// The runner's last guard: a stage's details are written escaped even when a stage
    /// forgot to quote a value (none does today, which is why this is tested on its own).
    @Test func stageDetailsAreWrittenEscaped() {
        let details = StageRecord.readable(["unknownSources": "a\u{1B}]0;x\u{07}\nb\u{9B}", "plain": "x, y"])
        #expect(details == ["unknownSources": #"a\u{1B}]0;x\u{07}\nb\u{009B}"#, "plain": "x, y"])
    }

    @Test func aHumanLogLineIsOneLineOfText() {
        let line = TonightLogHandler.humanLine(
            at: Date(timeIntervalSince1970: 0), level: .warning, message: "file 'a\u{1B}[2Jb' not read\nforged INFO line",
            metadata: ["note": "x\u{009B}y"])
        #expect(line == #"1970-01-01T00:00:00Z WARNING file 'a\u{1B}[2Jb' not read\nforged INFO line note=x\u{009B}y"# + "\n")
    }
}
