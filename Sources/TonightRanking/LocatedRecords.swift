import Foundation
import TonightCore
import TonightFeed
import TonightGeo

/// A venue with where it is (the `venues` table of the geocode stage).
package struct GeocodedVenue: Sendable, Equatable, BinaryRecord {
    package var venue: FeedVenue
    package var placement: Placement

    package init(venue: FeedVenue, placement: Placement) {
        self.venue = venue
        self.placement = placement
    }

    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        venue.encode(to: &w)
        w.write(placement.lat)
        w.write(placement.lon)
        w.write(placement.precision.rawValue)
        w.write(placement.timeZone)
    }

    package init(from r: inout BinaryReader) throws {
        let v = try FeedVenue(from: &r)
        let lat = try r.readOptionalDouble()
        let lon = try r.readOptionalDouble()
        let p = try r.readString()
        guard let precision = Placement.Precision(rawValue: p) else {
            throw TonightError(.invalidInput, "corrupt venues table (precision '\(p)')")
        }
        self.init(venue: v, placement: Placement(lat: lat, lon: lon, precision: precision, timeZone: try r.readOptionalString()))
    }

    package func writeJSON(to w: inout JSONWriter) {
        venue.writeJSON(
            to: &w,
            placement: VenuePlacement(lat: placement.lat, lon: placement.lon, precision: placement.precision.rawValue,
                                      timeZone: placement.timeZone))
    }
}

/// An event with its venue-local start (the `events` table of the geocode stage).
package struct LocatedEvent: Sendable, Equatable, BinaryRecord {
    package var event: FeedEvent
    /// Venue-local wall-clock start as seconds since the epoch (no zone), nil if unknown.
    package var localStart: Int64?
    package var timeZone: String?

    package init(event: FeedEvent, localStart: Int64?, timeZone: String?) {
        self.event = event
        self.localStart = localStart
        self.timeZone = timeZone
    }

    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        event.encode(to: &w)
        w.write(localStart)
        w.write(timeZone)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(event: try FeedEvent(from: &r), localStart: try r.readOptionalInt64(), timeZone: try r.readOptionalString())
    }

    package func writeJSON(to w: inout JSONWriter) {
        event.writeJSON(to: &w, localStart: localStart, timeZone: timeZone)
    }
}
