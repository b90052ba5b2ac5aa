import Foundation
import TonightCore
import TonightFeed
import TonightGeo

/// A venue with where it is (the `venues` table of the geocode stage; the `venues` dataset).
package struct GeocodedVenue: Sendable, Equatable, BinaryRecord {
    package var venue: FeedVenue
    package var placement: Placement

    package init(venue: FeedVenue, placement: Placement) {
        self.venue = venue
        self.placement = placement
    }

    package static var schemaVersion: Int { 2 }

    /// The venue's fields with its place after the address.
    package func encode(to e: inout RecordEncoder) {
        venue.encode(to: &e) { e in
            e.field("lat", placement.lat, .coordinate)
            e.field("lon", placement.lon, .coordinate)
            e.field("precision", placement.precision.rawValue)
            e.field("timeZone", placement.timeZone)
        }
    }

    package init(from r: inout BinaryReader) throws {
        var placement = Placement.none
        venue = try FeedVenue(from: &r) { r in
            let lat = try r.readOptionalDouble(), lon = try r.readOptionalDouble()
            let p = try r.readString()
            guard let precision = Placement.Precision(rawValue: p) else {
                throw TonightError(.invalidInput, "corrupt venues table (precision '\(p)')", hint: "re-run geocode with --force")
            }
            placement = Placement(lat: lat, lon: lon, precision: precision, timeZone: try r.readOptionalString())
        }
        self.placement = placement
    }
}

/// An event with its venue-local start and its venue's coordinates (the `events` table of the
/// geocode stage; the `events` dataset).
package struct LocatedEvent: Sendable, Equatable, BinaryRecord {
    package var event: FeedEvent
    /// Venue-local wall-clock start as seconds since the epoch (no zone), nil if unknown.
    package var localStart: Int64?
    package var timeZone: String?
    /// The venue's coordinates, when it was placed.
    package var lat: Double?
    package var lon: Double?

    package init(event: FeedEvent, localStart: Int64?, timeZone: String?, lat: Double? = nil, lon: Double? = nil) {
        self.event = event
        self.localStart = localStart
        self.timeZone = timeZone
        self.lat = lat
        self.lon = lon
    }

    package static var schemaVersion: Int { 2 }

    /// The event's fields with the local start after the UTC one and the place at the end.
    package func encode(to e: inout RecordEncoder) {
        event.encode(
            to: &e,
            afterStart: { e in
                e.localTime("localStart", localStart)
                e.field("timeZone", timeZone)
            },
            afterDetails: { e in
                e.field("lat", lat, .coordinate)
                e.field("lon", lon, .coordinate)
            })
    }

    package init(from r: inout BinaryReader) throws {
        var localStart: Int64?, timeZone: String?, lat: Double?, lon: Double?
        event = try FeedEvent(
            from: &r,
            afterStart: { r in
                localStart = try r.readOptionalInt64()
                timeZone = try r.readOptionalString()
            },
            afterDetails: { r in
                lat = try r.readOptionalDouble()
                lon = try r.readOptionalDouble()
            })
        self.localStart = localStart
        self.timeZone = timeZone
        self.lat = lat
        self.lon = lon
    }
}
