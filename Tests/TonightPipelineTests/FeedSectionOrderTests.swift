import Foundation
import Testing
import TonightCore
import TonightFeed
import TonightTesting
@testable import TonightPipeline

/// parse-feed writes the artists, categories and venues tables on a thread of their own while
/// it links the events. The parser must not depend on the order of sections: a feed with
/// records of those sections after its events, read in several of the record builder's
/// batches, must get the same tables, linked against everything the feed holds, and the same
/// warnings as the feed in the usual order. (A build that wrote them from the first event on,
/// linked again when a section came later, was measured and not kept: parse-feed-log.md.)
@Suite struct FeedSectionOrderTests {
    /// Which section comes after the events (nil: none, the usual order).
    enum Late: String, CaseIterable, Sendable {
        case none, artists, categories, venues
    }

    /// A feed whose events fill several of the builder's batches (256 KiB each), so that the
    /// first event is read well before a section that follows the events. The artists' and
    /// categories' references all resolve in the whole feed: artist 2 is in category 10002,
    /// whose parent is 10001.
    static func feed(late: Late, events: Int = 3_000) -> String {
        let artists = "<Artists>\n<Artist ID=\"1\"><ArtistName>A</ArtistName><ArtistCategory ID=\"10001\"/></Artist>\n"
            + "<Artist ID=\"2\"><ArtistName>B</ArtistName><ArtistCategory ID=\"10002\"/></Artist>\n</Artists>\n"
        let categories = "<Categories>\n<Category ID=\"10001\"><CategoryName>Music</CategoryName></Category>\n"
            + "<Category ID=\"10002\"><CategoryName>Rock</CategoryName><ParentID ID=\"10001\"/></Category>\n</Categories>\n"
        let venues = "<Venues>\n<Venue ID=\"5\"><VenueName>V</VenueName><State>NY</State></Venue>\n"
            + "<Venue ID=\"6\"><VenueName>W</VenueName></Venue>\n</Venues>\n"
        let padding = String(repeating: "x", count: 200)
        var eventsXML = "<EventsPricePoints>\n"
        for i in 0..<events {
            let id = String(i + 1, radix: 16).uppercased()
            eventsXML += "<Event ID=\"\(String(repeating: "0", count: 16 - id.count) + id)\"><PerformanceName>E\(i) \(padding)</PerformanceName>"
                + "<EventDate>2026-01-20</EventDate><VenueID ID=\"\(5 + i % 2)\"/><CategoryID>10002</CategoryID>"
                + "<ArtistIDs><ArtistID ID=\"\(1 + i % 2)\" Type=\"Primary\"/></ArtistIDs></Event>\n"
        }
        eventsXML += "</EventsPricePoints>\n"
        let sections: [Late: String] = [.artists: artists, .categories: categories, .venues: venues]
        let before = [Late.artists, .categories, .venues].filter { $0 != late }.map { sections[$0]! }.joined()
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Ticketmaster>\n" + before + eventsXML + (sections[late] ?? "") + "</Ticketmaster>\n"
    }

    @Test(arguments: Late.allCases)
    func theTablesWrittenAreTheFinalOnes(_ late: Late) throws {
        let dir = temporaryDirectory()
        let url = dir.appendingPathComponent("feed.xml")
        try Data(Self.feed(late: late).utf8).write(to: url)
        #expect(FileIO.size(url) > 3 << 18, "the events must span several batches")
        let out = dir.appendingPathComponent("parse-feed")
        try FileIO.createDirectory(out)
        let result = try ParseFeedStage.parseAndWrite(url, options: FeedParserOptions(), to: out)

        // Linked against the whole feed: no reference was dropped, nothing was warned.
        #expect(result.artists.map(\.category) == [10001, 10002])
        #expect(result.categories.map(\.parent) == [nil, 10001])
        #expect(result.venues.map(\.id) == [5, 6])
        #expect(result.events.count == 3_000 && result.events.allSatisfy { $0.category == 10002 && $0.headliner != nil })
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.rejects.isEmpty)

        // The files hold those tables.
        #expect(try StageTable.feedArtists.read(in: out) == result.artists)
        #expect(try StageTable.feedCategories.read(in: out) == result.categories)
        #expect(try StageTable.feedVenues.read(in: out) == result.venues)
    }

    /// A reference the whole feed does not resolve is dropped and warned about once, whether
    /// the early link saw it (the usual order) or the final one did.
    @Test(arguments: [Late.none, .categories])
    func anUnresolvedCategoryIsWarnedOnce(_ late: Late) throws {
        let dir = temporaryDirectory()
        let url = dir.appendingPathComponent("feed.xml")
        let text = Self.feed(late: late).replacingOccurrences(of: "<ArtistCategory ID=\"10001\"/></Artist>",
                                                              with: "<ArtistCategory ID=\"777\"/></Artist>")
        try Data(text.utf8).write(to: url)
        let out = dir.appendingPathComponent("parse-feed")
        try FileIO.createDirectory(out)
        let result = try ParseFeedStage.parseAndWrite(url, options: FeedParserOptions(), to: out)
        #expect(result.artists.map(\.category) == [nil, 10002])
        #expect(result.warnings == ["unknown-artist-category": 1], "\(result.warnings)")
        #expect(try StageTable.feedArtists.read(in: out) == result.artists)
    }
}
