import Foundation
import Testing
import TonightCore
@testable import TonightFeed
import TonightBase

/// The real 2012 excerpt: every field of every record, exactly as feed.md and snapshots.md say.
@Suite struct RealExcerptTests {
    let result: FeedParseResult

    init() throws {
        var options = FeedParserOptions()
        options.camefrom = "tonight"
        result = try FeedParser.parse(resource("feed_sample_2012_linked.xml"), options: options)
    }

    @Test func counts() {
        #expect(result.artists.count == 1)
        #expect(result.categories.count == 4)
        #expect(result.venues.count == 3)
        #expect(result.events.count == 2)
        #expect(result.rejects.isEmpty)
        // Both events name artists that are not in the excerpt: counted, removed.
        #expect(result.warnings["unknown-artist"] == 2)
    }

    @Test func artist() {
        #expect(json(result.artists[0]) == #"{"key":"1049","id":1049,"name":"Taffy","category":202,"url":"http://www.ticketmaster.com/Taffy-tickets/artist/1049?camefrom=tonight&brand=none","imageUrl":"http://media.ticketmaster.com/tmimages/TM_GenCatImgs_Music_BW.jpg"}"#)
    }

    /// The excerpt holds four categories but not the roots they name as parents (10001,
    /// 10002, 10005): those references are dropped and counted, as feed.md asks of every
    /// category reference, so no published record points at a category the snapshot lacks.
    @Test func categories() {
        let lines = result.categories.map(json)
        #expect(lines == [
            #"{"key":"0","id":0,"name":"More Miscellaneous"}"#,
            #"{"key":"56","id":56,"name":"Gift Certificates"}"#,
            #"{"key":"202","id":202,"name":"R&B/Urban Soul"}"#,
            #"{"key":"207","id":207,"name":"Musicals"}"#,
        ])
        #expect(result.warnings["unknown-parent-category"] == 4)
    }

    @Test func venues() {
        let lines = result.venues.map(json)
        #expect(lines[2] == #"{"key":"57346","id":57346,"name":"Apollo Theater","street":"2540 N Lincoln","city":"Chicago","state":"IL","zip":"60614","country":"US","url":"http://www.ticketmaster.com/Apollo-Theater-tickets-Chicago/venue/57346?camefrom=tonight&brand=none","imageUrl":"http://media.ticketmaster.com/dbimages/7196v.jpg"}"#)
        #expect(result.venues[1].name == "QPWZL – Ticketmaster Giftcertificate-Tri State")
        #expect(result.venues.allSatisfy { $0.country == "US" })
    }

    @Test func millionDollarQuartet() throws {
        let e = try #require(result.events.first { $0.idString == "07004753D77FA97E" })
        #expect(json(e) == #"{"key":"07004753D77FA97E","id":"07004753D77FA97E","name":"Million Dollar Quartet","artists":[],"category":207,"venue":57346,"startsAt":"2012-09-30T01:00:00Z","status":3,"onsale":{"kind":"now"},"presale":{"kind":"date","at":"2012-06-11T15:00:00Z"},"priceMin":72.5,"priceMax":77.5,"promoter":494,"stars":4.6,"starReviews":2164,"url":"http://www.ticketmaster.com/event/07004753D77FA97E?camefrom=tonight&brand=none"}"#)
        #expect(e.timeTBA == false)
        #expect(e.headliner == nil)
    }

    @Test func giftCertificate() throws {
        let e = try #require(result.events.first { $0.idString == "000034918D632E59" })
        // `<OnsaleDate Type="DEF" />` and `<PresaleDate Type="" />` are both unknown.
        #expect(e.onsale == .unknown)
        #expect(e.presale == .unknown)
        #expect(CivilTime.formatUTC(e.startsAt) == "2014-05-01T04:00:00Z")
        #expect(e.status == 2)
        #expect(e.priceMin == nil)
    }

    /// The excerpt without the linked venues: both events reference unknown venues, so the
    /// events section is empty and the stage must fail rather than publish nothing.
    @Test func unlinkedExcerptFails() {
        #expect {
            try FeedParser.parse(resource("feed_sample_2012.xml"))
        } throws: { error in
            guard let e = (error as? FailureWithRejects)?.error else { return false }
            return e.exitCode == 65 && e.message.contains("EventsPricePoints")
        }
    }
}
