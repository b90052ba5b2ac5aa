import Foundation
import Testing
import TonightCore
@testable import TonightFeed
import TonightBase

@Suite struct NormalisationTests {
    @Test func trimsAndTreatsEmptyAsAbsent() throws {
        let r = try parseFeed(feed(venues: """
            \t<Venue ID=" 5 " >
            \t\t<City>  Chicago </City>
            \t\t<State>IL</State>
            \t\t<Street>   </Street>
            \t\t<VenueName>
            \t\t\tApollo Theater
            \t\t</VenueName>
            \t\t<ZipCode> 60614</ZipCode>
            \t</Venue>
            """))
        let v = try #require(r.venues.first)
        #expect(v.id == 5 && v.city == "Chicago" && v.name == "Apollo Theater" && v.zip == "60614")
        #expect(v.street == nil)
        #expect(v.country == "US")
    }

    /// Unicode white space is trimmed too (feed.md: "trim leading and trailing white space"),
    /// also around text whose other characters need no NFC pass (Latin-1, dashes): a no-break
    /// space, an em space or an ideographic space at either end, or a field of nothing else.
    @Test(arguments: ["\u{A0}", "\u{2003}", "\u{3000}", "\u{85}", "\u{2028}", " \u{A0}\t"])
    func trimsUnicodeWhiteSpace(_ space: String) throws {
        let r = try parseFeed(feed(venues: """
            \t<Venue ID="5" >
            \t\t<City>\(space)Chicago\(space)</City>
            \t\t<State>IL</State>
            \t\t<Street>\(space)</Street>
            \t\t<VenueName>\(space)Théâtre – Apollo\(space)</VenueName>
            \t</Venue>
            """))
        let v = try #require(r.venues.first)
        #expect(v.city == "Chicago" && v.name == "Théâtre – Apollo", "\(space.unicodeScalars.map(\.value))")
        #expect(v.street == nil, "\(space.unicodeScalars.map(\.value))")
    }

    @Test func nfc() throws {
        // "Montréal" with a combining acute accent (NFD) becomes the precomposed é.
        let r = try parseFeed(feed(venues: "<Venue ID=\"5\"><VenueName>Bell Centre</VenueName><City>Montre\u{301}al</City><State>QC</State></Venue>"))
        #expect(r.venues[0].city == "Montr\u{E9}al")
        #expect(Array(r.venues[0].city!.utf8) == Array("Montr\u{E9}al".utf8))
        #expect(r.venues[0].country == "CA")
    }

    @Test(arguments: [
        ("72.5 - 77.5", 7250 as Int64?, 7750 as Int64?, nil as String?),
        ("40", 4000, 4000, nil),
        ("77.5 - 72.5", 7250, 7750, "swapped-price"),
        ("free", nil, nil, "bad-price"),
        ("10 - 20 - 30", nil, nil, "bad-price"),
        ("-5", nil, nil, "bad-price"),
    ])
    func prices(_ text: String, _ lo: Int64?, _ hi: Int64?, _ warning: String?) throws {
        let r = try parseFeed(feed(events: "<Event ID=\"00000000000000AA\"><EventDate>2026-01-20</EventDate><PerformanceName>E</PerformanceName><PriceRange>\(text)</PriceRange><VenueID ID=\"5\"/></Event>"))
        #expect(r.events[0].priceMinCents == lo)
        #expect(r.events[0].priceMaxCents == hi)
        if let warning { #expect(r.warnings[warning] == 1) }
        #expect(r.events.count == 1)
    }

    @Test(arguments: [
        ("<OnsaleDate Type=\"NOW\" ></OnsaleDate>", TypedDate.now, nil as String?),
        ("<OnsaleDate Type=\"DEF\" >2026-01-02</OnsaleDate><OnsaleTime>15:00:00</OnsaleTime>",
         TypedDate(kind: .date, at: Int64(CivilTime.days(year: 2026, month: 1, day: 2)) * 86_400 + 54_000), nil),
        ("<OnsaleDate Type=\"DEF\" >2026-01-02</OnsaleDate>",
         TypedDate(kind: .date, at: Int64(CivilTime.days(year: 2026, month: 1, day: 2)) * 86_400), nil),
        ("<OnsaleDate Type=\"DEF\" />", TypedDate.unknown, nil),
        ("<OnsaleDate Type=\"\" />", TypedDate.unknown, nil),
        ("", TypedDate.unknown, nil),
        ("<OnsaleDate Type=\"DEF\" >2026-02-31</OnsaleDate>", TypedDate.unknown, "bad-optional-date"),
        ("<OnsaleDate Type=\"DEF\" >2026-01-02</OnsaleDate><OnsaleTime>25:00:00</OnsaleTime>", TypedDate.unknown, "bad-optional-date"),
    ])
    func typedDates(_ xml: String, _ expected: TypedDate, _ warning: String?) throws {
        let r = try parseFeed(feed(events: "<Event ID=\"00000000000000aa\"><EventDate>2026-01-20</EventDate>\(xml)<PerformanceName>E</PerformanceName><VenueID ID=\"5\"/></Event>"))
        #expect(r.events[0].onsale == expected)
        #expect(r.events[0].idString == "00000000000000AA")
        if let warning { #expect(r.warnings[warning] == 1) }
    }

    @Test func timeTBA() throws {
        let r = try parseFeed(feed())
        #expect(r.events[0].timeTBA)
        #expect(CivilTime.formatUTC(r.events[0].startsAt) == "2026-01-20T00:00:00Z")
    }

    /// Records and sections in any order, children in any order: same tables.
    @Test func orderIndependence() throws {
        let shuffled = """
            <Ticketmaster>
            <EventsPricePoints><Event ID="00000000000000AA"><VenueID ID="5"/><PerformanceName>E</PerformanceName><ArtistIDs><ArtistID ID="2" Type="Secondary"/><ArtistID ID="1" Type="Primary"/></ArtistIDs><EventTime>20:00:00</EventTime><EventDate>2026-01-20</EventDate></Event></EventsPricePoints>
            <Venues><Venue ID="5"><VenueName>V</VenueName></Venue></Venues>
            <Categories><Category ID="10001"><CategoryName>Music</CategoryName></Category></Categories>
            <Artists><Artist ID="2"><ArtistName>B</ArtistName></Artist><Artist ID="1"><ArtistName>A</ArtistName></Artist></Artists>
            </Ticketmaster>
            """
        let r = try parseFeed(shuffled)
        #expect(r.events[0].artists == [2, 1])
        #expect(r.events[0].headliner == 1)
        #expect(CivilTime.formatUTC(r.events[0].startsAt) == "2026-01-20T20:00:00Z")
        #expect(r.artists.count == 2)
    }

    @Test func unknownElementsCountedOncePerName() throws {
        let r = try parseFeed(feed(artists: """
            <Artist ID="1"><ArtistName>A</ArtistName><Genre>x</Genre></Artist>
            <Artist ID="2"><ArtistName>B</ArtistName><Genre>y</Genre><Mood/></Artist>
            """))
        #expect(r.warnings["unknown-element"] == 2)
        #expect(r.unknownElements == ["Genre": 2, "Mood": 1])
    }

    @Test(arguments: [
        ("<Artist><ArtistName>A</ArtistName></Artist>", "missing-id"),
        ("<Artist ID=\"x1\"><ArtistName>A</ArtistName></Artist>", "bad-id"),
        ("<Artist ID=\"1\"><ArtistName>Again</ArtistName></Artist>", "duplicate-id"),
        ("<Artist ID=\"3\"></Artist>", "missing-field"),
    ])
    func artistRejects(_ bad: String, _ reason: String) throws {
        var options = FeedParserOptions()
        options.maxRejectShare = 1
        let r = try parseFeed(feed(artists: "<Artist ID=\"1\"><ArtistName>A</ArtistName></Artist>\n\(bad)"), options: options)
        #expect(r.rejects.map(\.reason) == [reason])
        #expect(r.rejects[0].line == 5)
        #expect(r.artists.map(\.name) == ["A"])
    }

    @Test(arguments: [
        ("<Event ID=\"00000000000000BB\"><EventDate>2026-02-30</EventDate><PerformanceName>E</PerformanceName><VenueID ID=\"5\"/></Event>", "bad-date"),
        ("<Event ID=\"00000000000000BB\"><EventDate>2026-02-03</EventDate><EventTime>24:10:00</EventTime><PerformanceName>E</PerformanceName><VenueID ID=\"5\"/></Event>", "bad-date"),
        ("<Event ID=\"00000000000000BB\"><EventDate>2026-02-03</EventDate><PerformanceName>E</PerformanceName><VenueID ID=\"77\"/></Event>", "unknown-venue"),
        ("<Event ID=\"00000000000000BB\"><EventDate>2026-02-03</EventDate><VenueID ID=\"5\"/></Event>", "missing-field"),
        ("<Event ID=\"BB\"><EventDate>2026-02-03</EventDate><PerformanceName>E</PerformanceName><VenueID ID=\"5\"/></Event>", "bad-id"),
    ])
    func eventRejects(_ bad: String, _ reason: String) throws {
        var options = FeedParserOptions()
        options.maxRejectShare = 1
        let good = "<Event ID=\"00000000000000AA\"><EventDate>2026-01-20</EventDate><PerformanceName>E</PerformanceName><VenueID ID=\"5\"/></Event>"
        let r = try parseFeed(feed(events: good + "\n" + bad), options: options)
        #expect(r.rejects.map(\.reason) == [reason])
        #expect(r.events.count == 1)
    }

    @Test func rejectShareFailsTheStage() throws {
        let bad = (0..<3).map { "<Artist ID=\"x\($0)\"><ArtistName>A</ArtistName></Artist>" }.joined()
        let good = (1...40).map { "<Artist ID=\"\($0)\"><ArtistName>A\($0)</ArtistName></Artist>" }.joined()
        #expect {
            try parseFeed(feed(artists: good + bad))
        } throws: { error in
            (error as? FailureWithRejects)?.error.message.contains("3 of 43 artists rejected") == true
        }
    }

    @Test func unknownReferencesAreWarnings() throws {
        let r = try parseFeed(feed(events: "<Event ID=\"00000000000000AA\"><ArtistIDs><ArtistID ID=\"99\" Type=\"Primary\"/><ArtistID ID=\"1\" Type=\"Primary\"/></ArtistIDs><CategoryID>777</CategoryID><EventDate>2026-01-20</EventDate><PerformanceName>E</PerformanceName><VenueID ID=\"5\"/></Event>"))
        #expect(r.events[0].artists == [1])
        #expect(r.events[0].headliner == 1)
        #expect(r.events[0].category == nil)
        #expect(r.warnings["unknown-artist"] == 1)
        #expect(r.warnings["unknown-category"] == 1)
    }

    /// An event repeating one artist a million times keeps it once (counted); a Primary
    /// repeat makes the first occurrence the headliner.
    @Test func repeatedArtistReferencesAreKeptOnce() throws {
        let refs = String(repeating: "<ArtistID ID=\"1\"/>", count: 200_000) + "<ArtistID ID=\"2\"/><ArtistID ID=\"1\" Type=\"Primary\"/>"
        let artists = "<Artist ID=\"1\"><ArtistName>A</ArtistName></Artist><Artist ID=\"2\"><ArtistName>B</ArtistName></Artist>"
        var options = FeedParserOptions()
        options.limits.maxTextBytes = 64 << 20
        let r = try parseFeed(feed(artists: artists, events: "<Event ID=\"00000000000000AA\"><ArtistIDs>\(refs)</ArtistIDs><EventDate>2026-01-20</EventDate><PerformanceName>E</PerformanceName><VenueID ID=\"5\"/></Event>"), options: options)
        #expect(r.events[0].artists == [1, 2])
        #expect(r.events[0].headliner == 1)
        #expect(r.warnings["duplicate-artist-ref"] == 200_000)
    }

    /// feed.md: an artist's `ArtistCategory` naming no category of the feed is dropped (and
    /// counted), so no published record points at a category that does not exist.
    @Test func unknownArtistCategoriesAreDropped() throws {
        let artists = "<Artist ID=\"1\"><ArtistCategory ID=\"777\"/><ArtistName>A</ArtistName></Artist>"
            + "<Artist ID=\"2\"><ArtistCategory ID=\"10001\"/><ArtistName>B</ArtistName></Artist>"
        let r = try parseFeed(feed(artists: artists))
        #expect(r.artists.map(\.category) == [nil, 10001])
        #expect(r.warnings["unknown-artist-category"] == 1)
    }

    @Test(.enabled(if: ExternalTool.gzip.isAvailable && ExternalTool.zstd.isAvailable), arguments: ["gzip", "zstd"])
    func compressedInputsGiveTheSameTables(_ tool: String) throws {
        let dir = temporaryDirectory()
        let plain = resource("feed_sample_2012_linked.xml")
        let out = dir.appendingPathComponent("feed.xml." + (tool == "gzip" ? "gz" : "zst"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "\(tool) -c < '\(plain.path)' > '\(out.path)'"]
        try p.run()
        p.waitUntilExit()
        let a = try FeedParser.parse(plain)
        let b = try FeedParser.parse(out)
        #expect(a.events == b.events && a.venues == b.venues && a.artists == b.artists)
    }

    /// A record holds only its own fields: the record builder reuses one draft and clears
    /// the fields the record before set, so a field of one record must not reach the next
    /// (of the same section or, through batches, another).
    @Test func aRecordKeepsNoFieldOfTheOneBefore() throws {
        #expect(FeedField.allCases.count <= 32)  // the draft's bit per field
        let r = try parseFeed(feed(
            artists: """
                <Artist ID="1"><ArtistName>A</ArtistName><ArtistCategory ID="10001"/><ArtistURL>http://a/1</ArtistURL><ArtistImageURL>http://i/1</ArtistImageURL></Artist>
                <Artist ID="2"><ArtistName>B</ArtistName></Artist>
                """,
            venues: """
                <Venue ID="5"><VenueName>V</VenueName><City>Chicago</City><State>IL</State><Street>1 Main</Street><ZipCode>60614</ZipCode><VenueURL>http://v/5</VenueURL></Venue>
                <Venue ID="6"><VenueName>W</VenueName></Venue>
                """,
            events: """
                <Event ID="00000000000000AA"><EventDate>2026-01-20</EventDate><EventTime>20:00:00</EventTime><PerformanceName>E</PerformanceName><VenueID ID="5"/><CategoryID ID="10001"/><PriceRange>10 - 20</PriceRange><Stars>4</Stars><StarReviewCount>3</StarReviewCount><PromoterID>7</PromoterID><EventStatus>1</EventStatus><OnsaleDate Type="DEF">2026-01-02</OnsaleDate><PresaleDate Type="NOW"></PresaleDate><PurchaseRequestURL>http://e/AA</PurchaseRequestURL></Event>
                <Event ID="00000000000000AB"><EventDate>2026-01-21</EventDate><PerformanceName>F</PerformanceName><VenueID ID="6"/></Event>
                """))
        let b = try #require(r.artists.first { $0.id == 2 })
        #expect(b == FeedArtist(id: 2, name: "B", line: b.line))
        let w = try #require(r.venues.first { $0.id == 6 })
        #expect(w == FeedVenue(id: 6, name: "W", line: w.line))
        let f = try #require(r.events.first { $0.name == "F" })
        #expect(f.category == nil && f.priceMinCents == nil && f.priceMaxCents == nil && f.stars == nil)
        #expect(f.starReviews == nil && f.promoter == nil && f.status == nil && f.url == nil && f.timeTBA)
        #expect(f.onsale == .unknown && f.presale == .unknown)
        // The first ones kept theirs.
        let e = try #require(r.events.first { $0.name == "E" })
        #expect(e.priceMinCents == 1000 && e.stars == 4 && e.onsale.kind == .date && e.presale == .now && e.url == "http://e/AA")
        #expect(r.artists.first { $0.id == 1 }?.url == "http://a/1")
    }

    /// The handler looks for a field's name first where the last one ended (records list
    /// their fields in one order); any order reads the same: each event's fields in the
    /// feed's order, reversed, and rotated, after events in other orders.
    @Test func fieldsInAnyOrderReadTheSame() throws {
        let fields = [
            "<EventDate>2026-01-20</EventDate>", "<EventTime>20:00:00</EventTime>", "<PerformanceName>E</PerformanceName>",
            "<VenueID ID=\"5\"/>", "<CategoryID ID=\"10001\"/>", "<PriceRange>10 - 20</PriceRange>", "<Stars>4</Stars>",
            "<PromoterID>7</PromoterID>", "<OnsaleDate Type=\"DEF\">2026-01-02</OnsaleDate>", "<PurchaseRequestURL>http://e</PurchaseRequestURL>",
        ]
        let orders = [fields, fields.reversed(), Array(fields[3...] + fields[..<3]), fields, Array(fields[7...] + fields[..<7])]
        let events = orders.enumerated().map { k, order in
            "<Event ID=\"00000000000000A\(k)\">" + order.joined() + "</Event>"
        }.joined(separator: "\n")
        let r = try parseFeed(feed(events: events))
        #expect(r.events.count == orders.count)
        let first = try #require(r.events.first)
        for e in r.events {
            var same = e
            same.id = first.id
            same.line = first.line
            #expect(same == first, "\(e)")
        }
        #expect(first.stars == 4 && first.priceMaxCents == 2000 && first.url == "http://e" && first.venue == 5 && first.promoter == 7)
    }
}
