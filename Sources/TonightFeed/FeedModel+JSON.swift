import TonightCore

// JSON forms with the field names of snapshots.md (absent values omitted, never null).

extension FeedArtist {
    /// `favorites` and `upcomingEvents` are filled in by the catalog stage.
    package func writeJSON(to w: inout JSONWriter, favorites: Int? = nil, upcomingEvents: Int? = nil) {
        w.beginObject()
        w.field("key", String(id))
        w.field("id", id)
        w.field("name", name)
        w.field("category", category)
        w.field("url", url)
        w.field("imageUrl", imageUrl)
        if let favorites { w.field("favorites", favorites) }
        if let upcomingEvents { w.field("upcomingEvents", upcomingEvents) }
        w.endObject()
    }
}

extension FeedCategory {
    package func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.field("key", String(id))
        w.field("id", id)
        w.field("name", name)
        w.field("parent", parent)
        w.endObject()
    }
}

/// Where a venue is, once geocoded.
package struct VenuePlacement: Sendable, Equatable {
    package var lat: Double?
    package var lon: Double?
    package var precision: String
    package var timeZone: String?

    package init(lat: Double?, lon: Double?, precision: String, timeZone: String?) {
        self.lat = lat
        self.lon = lon
        self.precision = precision
        self.timeZone = timeZone
    }
}

extension FeedVenue {
    package func writeJSON(to w: inout JSONWriter, placement: VenuePlacement? = nil) {
        w.beginObject()
        w.field("key", String(id))
        w.field("id", id)
        w.field("name", name)
        w.field("street", street)
        w.field("city", city)
        w.field("state", state)
        w.field("zip", zip)
        w.field("country", country)
        if let placement {
            w.field("lat", placement.lat)
            w.field("lon", placement.lon)
            w.field("precision", placement.precision)
            w.field("timeZone", placement.timeZone)
        }
        w.field("url", url)
        w.field("imageUrl", imageUrl)
        w.endObject()
    }
}

extension TypedDate {
    func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.field("kind", kind.name)
        if let at { w.field("at", CivilTime.formatUTC(at)) }
        w.endObject()
    }
}

extension FeedEvent {
    /// `localStart` and `timeZone` come from the geocode stage; the catalog adds the venue's
    /// coordinates.
    package func writeJSON(
        to w: inout JSONWriter, localStart: Int64? = nil, timeZone: String? = nil, lat: Double? = nil, lon: Double? = nil
    ) {
        w.beginObject()
        let ids = idString
        w.field("key", ids)
        w.field("id", ids)
        w.field("name", name)
        w.field("artists", ints: artists)
        w.field("category", category)
        w.field("venue", venue)
        w.field("startsAt", CivilTime.formatUTC(startsAt))
        if timeTBA { w.field("timeTBA", true) }
        if let localStart { w.field("localStart", CivilTime.formatLocal(localStart)) }
        w.field("timeZone", timeZone)
        w.field("status", status)
        w.key("onsale")
        onsale.writeJSON(to: &w)
        w.key("presale")
        presale.writeJSON(to: &w)
        w.field("priceMin", priceMin)
        w.field("priceMax", priceMax)
        w.field("promoter", promoter)
        w.field("stars", stars)
        w.field("starReviews", starReviews)
        w.field("url", url)
        w.field("lat", lat)
        w.field("lon", lon)
        w.endObject()
    }
}
