import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// The writer's records and the reader library's types describe the same fields: every record
/// of every dataset of a tiny run decodes into its reader type, and that value encodes back to
/// the same JSON object (a field the writer adds and the reader drops, a renamed field or a
/// changed type fails here).
@Suite struct ReaderSchemaTests {
    static let snapshot: Snapshot = {
        let work = temporaryDirectory("tonight-reader-schema")
        try! runner(inputs: tinyInputs, work: work).run()
        return try! Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
    }()

    /// Decodes one record with the reader type and encodes it again, as a JSON object.
    typealias RoundTrip = @Sendable ([UInt8]) throws -> Any

    static func whole<T: Codable & Sendable>(_ type: T.Type) -> RoundTrip {
        { bytes in try JSONSerialization.jsonObject(with: JSONEncoder().encode(JSONDecoder().decode(T.self, from: Data(bytes)))) }
    }

    /// The `{key, items}` shape of list datasets.
    struct List<T: Codable>: Codable {
        var key: String
        var items: [T]
    }

    static func items<T: Codable & Sendable>(_ type: T.Type) -> RoundTrip {
        { bytes in try JSONSerialization.jsonObject(with: JSONEncoder().encode(JSONDecoder().decode(List<T>.self, from: Data(bytes)))) }
    }

    static let readers: [String: RoundTrip] = [
        "events": whole(CatalogEvent.self), "venues": whole(CatalogVenue.self), "artists": whole(CatalogArtist.self),
        "categories": whole(CatalogCategory.self), "artist_suggest": items(ArtistSummary.self),
        "category_artists": items(ArtistSummary.self), "nearby": items(NearbyEvent.self),
        "explore": items(ExploreItem.self), "feed": items(FeedItem.self), "tonight": items(TonightItem.self),
        "alerts": items(AlertItem.self), "sessions": items(SessionItem.self), "player_stats": whole(PlayerStats.self),
        "playmate_sessions": whole(PlaymateSessionRecord.self),
        "artist_events": items(PageEvent.self), "venue_events": items(PageEvent.self), "artist_years": items(ArtistYear.self),
        "following": items(FollowingItem.self), "upcoming_sessions": items(UpcomingSession.self),
        "open_sessions": items(OpenSession.self), "event_search": items(EventMatch.self),
        "planner": whole(PlannerDay.self), "similar_dates": items(SimilarDate.self),
    ]

    @Test func everyDatasetHasAReaderType() {
        #expect(Set(Self.snapshot.datasets.keys) == Set(Self.readers.keys))
    }

    @Test(arguments: readers.keys.sorted())
    func recordsSurviveTheReaderType(_ name: String) throws {
        let dataset = try Self.snapshot.dataset(name)
        var checked = 0
        try dataset.forEachRecord { bytes in
            var written = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            let read = try #require(try Self.readers[name]!(bytes) as? [String: Any])
            // Single records carry their key for the index; the reader type has no key field.
            if read["key"] == nil { written["key"] = nil }
            #expect(NSDictionary(dictionary: written) == NSDictionary(dictionary: read),
                    "\(name): \(String(decoding: bytes, as: UTF8.self))")
            checked += 1
        }
        #expect(checked > 0 || name == "alerts", "\(name) has no records on tiny")
    }
}
