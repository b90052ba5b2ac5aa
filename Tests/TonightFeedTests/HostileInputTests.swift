import Foundation
import Testing
import TonightCore
import TonightGenerator
@testable import TonightFeed

/// Every attack class of the defusedxml project, plus the limits of feed.md
/// (`HostileFeed.parserAttacks`): refused with exit code 65 and a position. How fast and in
/// how much memory is measured by `tonight-bench hostile`, not here.
@Suite struct HostileInputTests {

    @Test(arguments: HostileFeed.parserAttacks.map(\.name))
    func refused(_ name: String) throws {
        let attack = HostileFeed.parserAttacks.first { $0.name == name }!
        let url = try attack.write(into: temporaryDirectory())
        var caught: TonightError?
        do {
            _ = try FeedParser.parse(url)
        } catch let e as TonightError {
            caught = e
        }
        let e = try #require(caught, "\(name) was accepted")
        #expect(e.exitCode == 65)
        #expect(e.line != nil && e.column != nil, "no position in: \(e)")
        #expect(e.description.contains("feed.xml:"), "no FILE:LINE:COLUMN in: \(e)")
        #expect(!e.description.contains("root:"), "file content leaked: \(e)")
    }

    /// The attribute flood is refused at the tag, with the tag's line.
    /// libxml2's message repeats the document's names: an undeclared entity of 40,000
    /// characters is cut to 200 in the error (it was repeated whole: a 40 KB line).
    @Test func libxml2MessagesAreCut() throws {
        let name = String(repeating: "e", count: 40_000)
        let e = #expect(throws: TonightError.self) { try parseFeed(feed(categories: "<Category ID=\"1\"><CategoryName>&\(name);</CategoryName></Category>")) }
        let text = e.map { "\($0)" } ?? ""
        #expect(text.contains("not well-formed XML: Entity 'eeee"), "\(text.prefix(300))")
        #expect(text.contains("…"), "\(text.prefix(300))")
        #expect(text.utf8.count < 600, "\(text.utf8.count) bytes")
    }

    @Test func attributeFloodNamesItsLine() throws {
        let url = try HostileFeed.parserAttacks.first { $0.name == "100,000 attributes" }!.write(into: temporaryDirectory())
        let e = #expect(throws: TonightError.self) { try FeedParser.parse(url) }
        #expect(e?.line == 2 && e?.message.contains("more than 64 attributes") == true, "\(String(describing: e))")
    }

    /// Attribute values, CDATA sections, comments and instructions may hold `=`, `<` and `>`:
    /// the pre-scan does not mistake them for attributes, across any chunk boundary.
    @Test(arguments: [1, 2, 3, 7, 64])
    func prescanReadsQuotedAndHiddenMarkup(_ chunk: Int) throws {
        let xml = "<?xml version=\"1.0\"?><!-- a=1 b=2 <x c=3 d=4> --><?pi x=1 y=2 ?>"
            + "<Ticketmaster a=\"=>=<=\" b='=='><Artists><Artist ID=\"1\"><ArtistURL><![CDATA[http://x/?a=1&b=2&c=3]]]]></ArtistURL>"
            + "<ArtistName>A</ArtistName></Artist></Artists></Ticketmaster>"
        let bytes = Array(xml.utf8)
        var scan = StartTagScan(maxAttributes: 2)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            try bytes[start..<min(bytes.count, start + chunk)].withUnsafeBytes { try scan.scan($0) }
        }
        var strict = StartTagScan(maxAttributes: 1)
        #expect(throws: StartTagScan.Violation.self) {
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try bytes[start..<min(bytes.count, start + chunk)].withUnsafeBytes { try strict.scan($0) }
            }
        }
    }

    /// After comments and CDATA sections (and `<!-`-like starts split at any byte) the scan
    /// keeps counting: a later start tag over the limit is still refused; after a DOCTYPE it
    /// stands aside (the parser refuses the document itself).
    @Test(arguments: [1, 2, 3, 5, 9, 64])
    func prescanKeepsCountingAfterHiddenMarkup(_ chunk: Int) throws {
        func scan(_ xml: String, max: Int) throws {
            let bytes = Array(xml.utf8)
            var scan = StartTagScan(maxAttributes: max)
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try bytes[start..<min(bytes.count, start + chunk)].withUnsafeBytes { try scan.scan($0) }
            }
        }
        let hidden = "<r><!----><!-- x=1 y=2 z=3 --><a><![CDATA[<b p=1 q=2 r=3>]]></a><![CDATA[]]><c/>"
        let flood = "<d p=\"1\" q=\"2\" r=\"3\"/></r>"
        try scan(hidden + "<d p=\"1\"/></r>", max: 2)
        #expect(throws: StartTagScan.Violation.self) { try scan(hidden + flood, max: 2) }
        try scan("<!DOCTYPE r><r>" + flood, max: 2)  // stood aside at the DOCTYPE
        try scan("<r><![CDATX[" + flood, max: 2)  // not a CDATA opening: stood aside too
    }

    /// A text field holding an element is rejected as a record (`element-in-field`); the rest
    /// of the section is kept. 100 MB of name split by `<x/>` every 512 KiB (which used to
    /// pass the per-node text limit and be published) is one such reject: nothing of it is kept.
    @Test(arguments: [("A<b>bold</b>c", "b"), (String(repeating: String(repeating: "x", count: 512 << 10) + "<x/>", count: 200), "x")])
    func elementInsideATextField(_ name: String, _ element: String) throws {
        var options = FeedParserOptions()
        options.maxRejectShare = 1
        let artists = "<Artist ID=\"1\"><ArtistName>\(name)</ArtistName></Artist><Artist ID=\"2\"><ArtistName>B</ArtistName></Artist>"
        let r = try parseFeed(feed(artists: artists), options: options)
        #expect(r.artists.map(\.id) == [2])
        #expect(r.rejects.map(\.reason) == ["element-in-field"])
        #expect(r.rejects.first?.detail == "<ArtistName> contains the element <\(element)>: fields hold text only")
    }

    /// A DOCTYPE is refused as such, with its own message.
    @Test func doctypeMessage() throws {
        #expect {
            try parseFeed("<?xml version=\"1.0\"?>\n<!DOCTYPE Ticketmaster>\n<Ticketmaster/>")
        } throws: { error in
            (error as? TonightError)?.message.contains("DOCTYPE") == true && (error as? TonightError)?.line == 2
        }
    }

    /// The wrong root is refused at once, without reading the rest (which is not even XML).
    @Test func wrongRootStopsAtOnce() throws {
        let text = "<catalog>\n" + String(repeating: "<<<not xml>>>\n", count: 1000)
        #expect {
            try parseFeed(text)
        } throws: { error in
            let e = error as? TonightError
            return e?.message.contains("root element is <catalog>") == true && e?.line == 1
        }
    }

    /// Decompression bombs: gigabytes of spaces compress to a few KB; the ratio cap stops them.
    @Test(.enabled(if: ExternalTool.gzip.isAvailable && ExternalTool.zstd.isAvailable), arguments: ["gzip", "zstd"])
    func decompressionBomb(_ tool: String) throws {
        let dir = temporaryDirectory()
        let raw = dir.appendingPathComponent("bomb.xml")
        let ext = tool == "gzip" ? "gz" : "zst"
        let script = """
            (printf '<Ticketmaster><Artists>'; head -c 300000000 /dev/zero | tr '\\0' ' ') | \(tool) -c > \(raw.path).\(ext)
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        var options = FeedParserOptions()
        options.limits.maxTextBytes = Int.max  // let only the decompression caps act
        #expect {
            try FeedParser.parse(URL(fileURLWithPath: raw.path + "." + ext), options: options)
        } throws: { error in
            (error as? TonightError)?.message.contains("decompression") == true
        }
    }

    @Test func decompressedSizeCap() throws {
        let dir = temporaryDirectory()
        let url = dir.appendingPathComponent("feed.xml")
        try Data(feed().utf8).write(to: url)
        var options = FeedParserOptions()
        options.input.maxBytes = 100
        #expect {
            try FeedParser.parse(url, options: options)
        } throws: { error in
            (error as? TonightError)?.message.contains("exceeds 100 bytes") == true
        }
    }

    @Test(.enabled(if: ExternalTool.zstd.isAvailable))
    func truncatedCompressedInput() throws {
        let dir = temporaryDirectory()
        let url = dir.appendingPathComponent("feed.xml")
        try Data(feed().utf8).write(to: url)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "zstd -q -c \(url.path) | head -c 60 > \(url.path).zst"]
        try p.run()
        p.waitUntilExit()
        #expect {
            try FeedParser.parse(URL(fileURLWithPath: url.path + ".zst"))
        } throws: { error in
            (error as? TonightError)?.exitCode == 65
        }
    }
}
