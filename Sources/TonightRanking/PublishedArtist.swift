import TonightCore
import TonightFeed

/// An artist as the `artists` dataset publishes it: the feed's fields, then how many users
/// favour the artist and in how many upcoming events it performs.
struct PublishedArtist: EncodableRecord {
    var artist: FeedArtist
    var favorites: Int
    var upcomingEvents: Int

    func encode(to e: inout RecordEncoder) {
        artist.encode(to: &e)
        e.field("favorites", favorites)
        e.field("upcomingEvents", upcomingEvents)
    }
}
