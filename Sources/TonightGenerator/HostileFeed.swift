import Foundation

/// A feed an attacker or a broken exporter would send: the attack classes of the defusedxml
/// project, the limits of feed.md, floods libxml2 would spend seconds on, decompression bombs.
/// Every one must be refused with exit code 65 and a FILE:LINE:COLUMN position. Tests check
/// the refusal; `tonight-bench hostile` measures how fast and in how much memory.
package struct HostileFeed: Sendable {
    /// How the file is made.
    package enum Content: Sendable {
        /// The XML text itself.
        case text(String)
        /// A `/bin/sh` script writing the file named by `$F` (for files too large to hold in a
        /// string, and compressed ones: needs `head`, `tr`, `gzip`, `zstd`).
        case script(String)
    }

    package var name: String
    /// `feed.xml`, `feed.xml.gz` or `feed.xml.zst`.
    package var fileName: String
    package var content: Content

    /// Writes the file into `dir` and returns it.
    @discardableResult
    package func write(into dir: URL) throws -> URL {
        let url = dir.appendingPathComponent(fileName)
        switch content {
        case .text(let xml):
            try Data(xml.utf8).write(to: url)
        case .script(let script):
            let sh = Process()
            sh.executableURL = URL(fileURLWithPath: "/bin/sh")
            sh.arguments = ["-c", script]
            sh.environment = ["F": url.path, "PATH": "/usr/bin:/bin:/usr/local/bin"]
            try sh.run()
            sh.waitUntilExit()
            guard sh.terminationStatus == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        return url
    }

    /// Parser-level attacks, small enough to hold as text.
    package static let parserAttacks: [HostileFeed] = texts.map { HostileFeed(name: $0.name, fileName: "feed.xml", content: .text($0.xml)) }

    /// Whole-file attacks, written by shell scripts (large or compressed files).
    package static let fileAttacks: [HostileFeed] = scripts.map { HostileFeed(name: $0.name, fileName: $0.file, content: .script($0.script)) }

    /// Every hostile feed.
    package static var all: [HostileFeed] { parserAttacks + fileAttacks }

    private static let texts: [(name: String, xml: String)] = [
        ("billion laughs", """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
            <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
            <!ENTITY lol9 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">]>
            <Ticketmaster>&lol9;</Ticketmaster>
            """),
        ("quadratic blowup", "<?xml version=\"1.0\"?>\n<!DOCTYPE t [<!ENTITY a \"" + String(repeating: "x", count: 100_000)
            + "\">]>\n<Ticketmaster>" + String(repeating: "&a;", count: 10_000) + "</Ticketmaster>"),
        ("external entity, local file", """
            <?xml version="1.0"?>
            <!DOCTYPE t [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <Ticketmaster>&xxe;</Ticketmaster>
            """),
        ("external entity, network", """
            <?xml version="1.0"?>
            <!DOCTYPE t [<!ENTITY xxe SYSTEM "http://127.0.0.1:9/evil">]>
            <Ticketmaster>&xxe;</Ticketmaster>
            """),
        ("external DTD retrieval", """
            <?xml version="1.0"?>
            <!DOCTYPE Ticketmaster SYSTEM "http://127.0.0.1:9/evil.dtd">
            <Ticketmaster/>
            """),
        ("external parameter entity", """
            <?xml version="1.0"?>
            <!DOCTYPE t [<!ENTITY % pe SYSTEM "file:///etc/passwd"> %pe;]>
            <Ticketmaster/>
            """),
        ("XInclude", """
            <?xml version="1.0"?>
            <Ticketmaster xmlns:xi="http://www.w3.org/2001/XInclude"><Artists><xi:include href="file:///etc/passwd" parse="text"/></Artists></Ticketmaster>
            """),
        ("undeclared entity", "<Ticketmaster>&xxe;</Ticketmaster>"),
        ("deep nesting", "<Ticketmaster>" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100) + "</Ticketmaster>"),
        ("huge text", "<Ticketmaster><Artists>" + String(repeating: "x", count: 2 << 20) + "</Artists></Ticketmaster>"),
        ("huge attribute", "<Ticketmaster a=\"" + String(repeating: "x", count: 2 << 20) + "\"/>"),
        ("long element name", "<Ticketmaster><" + String(repeating: "n", count: 2000) + "/></Ticketmaster>"),
        ("many attributes", "<Ticketmaster " + (0..<100).map { "a\($0)=\"1\"" }.joined(separator: " ") + "/>"),
        ("wrong root", "<rss><channel/></rss>"),
        // Floods that libxml2 would spend seconds on before any callback: counted first.
        ("100,000 namespace declarations", "<Ticketmaster " + (0..<100_000).map { "xmlns:n\($0)=\"u\($0)\"" }.joined(separator: " ") + "/>"),
        ("100,000 attributes", "<Ticketmaster>\n<Artists " + (0..<100_000).map { "a\($0)='>'" }.joined(separator: " ") + "/></Ticketmaster>"),
        ("1,000,000 distinct element names", "<Ticketmaster><Artists>" + (0..<1_000_000).map { "<n\($0)/>" }.joined() + "</Artists></Ticketmaster>"),
        ("distinct attribute names", "<Ticketmaster><Artists>" + (0..<200_000).map { "<x a\($0)=\"1\"/>" }.joined() + "</Artists></Ticketmaster>"),
        // A field whose text comes in pieces: its whole text counts against the limit.
        ("field text in pieces", "<Ticketmaster><Artists><Artist ID=\"1\"><ArtistName>"
            + String(repeating: String(repeating: "x", count: 512 << 10) + "<!--c-->", count: 4) + "</ArtistName></Artist></Artists></Ticketmaster>"),
    ]

    private static let scripts: [(name: String, file: String, script: String)] = [
        ("billion laughs, 10⁸ expansions", "feed.xml", """
            printf '<?xml version="1.0"?>\\n<!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>\\n<Ticketmaster>&h;</Ticketmaster>\\n' > "$F"
            """),
        ("quadratic blowup, 2 GB expanded", "feed.xml", """
            { printf '<?xml version="1.0"?>\\n<!DOCTYPE t [<!ENTITY a "'; head -c 200000 /dev/zero | tr '\\0' x; printf '">]>\\n<Ticketmaster>'; for i in $(seq 1 2000); do printf '&a;&a;&a;&a;&a;'; done; printf '</Ticketmaster>\\n'; } > "$F"
            """),
        ("external entity naming /etc/passwd", "feed.xml", """
            printf '<?xml version="1.0"?>\\n<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>\\n<Ticketmaster>&x;</Ticketmaster>\\n' > "$F"
            """),
        ("external DTD over HTTP", "feed.xml", """
            printf '<?xml version="1.0"?>\\n<!DOCTYPE Ticketmaster SYSTEM "http://127.0.0.1:9/x.dtd">\\n<Ticketmaster/>\\n' > "$F"
            """),
        ("parameter entity over HTTP", "feed.xml", """
            printf '<?xml version="1.0"?>\\n<!DOCTYPE t [<!ENTITY %% p SYSTEM "http://127.0.0.1:9/p"> %%p;]>\\n<Ticketmaster/>\\n' > "$F"
            """),
        ("XInclude of /etc/passwd", "feed.xml", """
            printf '<Ticketmaster xmlns:xi="http://www.w3.org/2001/XInclude">\\n<Artists><xi:include href="/etc/passwd" parse="text"/></Artists></Ticketmaster>\\n' > "$F"
            """),
        ("5,000 nested elements, unclosed", "feed.xml", """
            { printf '<Ticketmaster>'; for i in $(seq 1 5000); do printf '<a>'; done; } > "$F"
            """),
        ("50 MB text node", "feed.xml", """
            { printf '<Ticketmaster><Artists>'; head -c 50000000 /dev/zero | tr '\\0' x; printf '</Artists></Ticketmaster>'; } > "$F"
            """),
        ("gzip bomb, 1 GB of spaces", "feed.xml.gz", """
            { printf '<Ticketmaster><Artists>'; head -c 1000000000 /dev/zero | tr '\\0' ' '; } | gzip -1 > "$F"
            """),
        ("zstd bomb, 1 GB of spaces", "feed.xml.zst", """
            { printf '<Ticketmaster><Artists>'; head -c 1000000000 /dev/zero | tr '\\0' ' '; } | zstd -q -1 > "$F"
            """),
    ]
}
