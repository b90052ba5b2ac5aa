import Foundation
import TonightCore
@_exported import TonightTesting
@testable import TonightFeed

func resource(_ path: String) -> URL {
    // `.copy("Resources")` puts the folder's contents at the bundle's resource root here.
    let root = Bundle.module.resourceURL!
    let nested = root.appendingPathComponent("Resources")
    let base = FileManager.default.fileExists(atPath: nested.appendingPathComponent("xmltest").path) ? nested : root
    return base.appendingPathComponent(path)
}

/// Writes `text` to a temporary file and parses it.
func parseFeed(_ text: String, options: FeedParserOptions = FeedParserOptions(), name: String = "feed.xml") throws -> FeedParseResult {
    let dir = temporaryDirectory()
    let url = dir.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return try FeedParser.parse(url, options: options)
}

/// The JSON line of a record writer.
/// The JSON form a record's `encode` declares.
func json(_ record: some EncodableRecord) -> String {
    String(decoding: RecordEncoder.jsonBytes(record), as: UTF8.self)
}

/// A minimal valid feed around the given records (one of each section by default).
func feed(artists: String? = nil, categories: String? = nil, venues: String? = nil, events: String? = nil) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <Ticketmaster Country="United States Of America">
    <Artists>
    \(artists ?? "\t<Artist ID=\"1\" >\n\t\t<ArtistName>A</ArtistName>\n\t</Artist>")
    </Artists>
    <Categories>
    \(categories ?? "\t<Category ID=\"10001\" >\n\t\t<CategoryName>Music</CategoryName>\n\t</Category>")
    </Categories>
    <Venues>
    \(venues ?? "\t<Venue ID=\"5\" >\n\t\t<VenueName>V</VenueName>\n\t</Venue>")
    </Venues>
    <EventsPricePoints>
    \(events ?? "\t<Event ID=\"00000000000000AA\" >\n\t\t<EventDate Type=\"DEF\" >2026-01-20</EventDate>\n\t\t<PerformanceName>E</PerformanceName>\n\t\t<VenueID ID=\"5\" />\n\t</Event>")
    </EventsPricePoints>
    </Ticketmaster>
    """
}
