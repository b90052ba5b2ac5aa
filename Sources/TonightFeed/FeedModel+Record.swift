import TonightCore

// The one declaration of each feed record's fields (`RecordEncoder`): the binary tables of
// parse-feed and their JSON form (dumps; the catalog datasets add their fields at the insertion
// points below). Each `init(from:)` reads the binary form back in the same order.

extension FeedArtist: BinaryRecord {
    package static var schemaVersion: Int { 1 }

    package func encode(to e: inout RecordEncoder) {
        e.key(String(id))
        e.field("id", id)
        e.field("name", name)
        e.field("category", category)
        e.field("url", url)
        e.field("imageUrl", imageUrl)
        e.internal(Int64(line))
    }

    package init(from r: inout BinaryReader) throws {
        self.init(
            id: try r.readInt64(), name: try r.readString(), category: try r.readOptionalInt64(),
            url: try r.readOptionalString(), imageUrl: try r.readOptionalString(), line: try r.readInt())
    }

    /// Only the id and name of an `artists` row (what parse-affinity resolves names with: the
    /// two URLs of 202,000 artists were most of the time it spent reading the table), the
    /// name as its UTF-8 bytes, valid while the reader's buffer lives (no `String` per
    /// artist). Tested against `init(from:)` on every row of a parsed feed.
    package static func readIDAndNameBytes(_ r: inout BinaryReader) throws -> (id: Int64, name: UnsafeRawBufferPointer) {
        let id = try r.readInt64(), name = try r.readStringBytes()
        _ = try r.readOptionalInt64()
        try r.skipOptionalString()
        try r.skipOptionalString()
        _ = try r.readInt()
        return (id, name)
    }
}

extension FeedCategory: BinaryRecord {
    package static var schemaVersion: Int { 1 }

    package func encode(to e: inout RecordEncoder) {
        e.key(String(id))
        e.field("id", id)
        e.field("name", name)
        e.field("parent", parent)
        e.internal(Int64(line))
    }

    package init(from r: inout BinaryReader) throws {
        self.init(id: try r.readInt64(), name: try r.readString(), parent: try r.readOptionalInt64(), line: try r.readInt())
    }
}

extension FeedVenue: BinaryRecord {
    package static var schemaVersion: Int { 1 }

    package func encode(to e: inout RecordEncoder) { encode(to: &e, afterAddress: { _ in }) }

    /// The fields, with `afterAddress` writing a composed record's fields after `country`
    /// (where the geocode stage puts the venue's place).
    package func encode(to e: inout RecordEncoder, afterAddress: (inout RecordEncoder) -> Void) {
        e.key(String(id))
        e.field("id", id)
        e.field("name", name)
        e.field("street", street)
        e.field("city", city)
        e.field("state", state)
        e.field("zip", zip)
        e.field("country", country)
        afterAddress(&e)
        e.field("url", url)
        e.field("imageUrl", imageUrl)
        e.internal(Int64(line))
    }

    package init(from r: inout BinaryReader) throws { try self.init(from: &r, afterAddress: { _ in }) }

    /// Reads what `encode(to:afterAddress:)` wrote; `afterAddress` reads the composed fields.
    package init(from r: inout BinaryReader, afterAddress: (inout BinaryReader) throws -> Void) throws {
        let id = try r.readInt64(), name = try r.readString(), street = try r.readOptionalString()
        let city = try r.readOptionalString(), state = try r.readOptionalString(), zip = try r.readOptionalString()
        let country = try r.readOptionalString()
        try afterAddress(&r)
        self.init(
            id: id, name: name, street: street, city: city, state: state, zip: zip, country: country,
            url: try r.readOptionalString(), imageUrl: try r.readOptionalString(), line: try r.readInt())
    }
}

extension TypedDate: EncodableRecord {
    package func encode(to e: inout RecordEncoder) {
        e.enumeration("kind", code: kind.rawValue, text: kind.name)
        e.instant("at", at)
    }

    init(from r: inout BinaryReader) throws {
        let code = try r.readByte()
        guard let kind = Kind(rawValue: code) else {
            throw TonightError(.invalidInput, "corrupt binary table (typed date kind \(code))", hint: "re-run the stage that wrote it with --force")
        }
        self.init(kind: kind, at: try r.readOptionalInt64())
    }
}

extension FeedEvent: BinaryRecord {
    package static var schemaVersion: Int { 1 }

    package func encode(to e: inout RecordEncoder) { encode(to: &e, afterStart: { _ in }, afterDetails: { _ in }) }

    /// The fields, with a composed record's fields after the start (`afterStart`: where the
    /// geocode stage puts the local start) and after the details (`afterDetails`: the place).
    package func encode(
        to e: inout RecordEncoder, afterStart: (inout RecordEncoder) -> Void, afterDetails: (inout RecordEncoder) -> Void
    ) {
        e.key(idString)
        e.eventID("id", id)
        e.field("name", name)
        e.field("artists", artists)
        e.internal(headliner)
        e.field("category", category)
        e.field("venue", venue)
        e.instant("startsAt", startsAt)
        e.flag("timeTBA", timeTBA)
        afterStart(&e)
        e.field("status", status)
        e.nested("onsale", onsale)
        e.nested("presale", presale)
        e.cents("priceMin", priceMinCents)
        e.cents("priceMax", priceMaxCents)
        e.field("promoter", promoter)
        e.field("stars", stars)
        e.field("starReviews", starReviews)
        e.field("url", url)
        afterDetails(&e)
        e.internal(Int64(line))
    }

    package init(from r: inout BinaryReader) throws { try self.init(from: &r, afterStart: { _ in }, afterDetails: { _ in }) }

    /// Reads what `encode(to:afterStart:afterDetails:)` wrote.
    package init(
        from r: inout BinaryReader, afterStart: (inout BinaryReader) throws -> Void,
        afterDetails: (inout BinaryReader) throws -> Void
    ) throws {
        let id = try r.readFixed(), name = try r.readString(), artists = try r.readInt64Array()
        let headliner = try r.readOptionalInt64(), category = try r.readOptionalInt64(), venue = try r.readInt64()
        let startsAt = try r.readInt64(), timeTBA = try r.readBool()
        try afterStart(&r)
        self.init(
            id: id, name: name, artists: artists, headliner: headliner, category: category, venue: venue,
            startsAt: startsAt, timeTBA: timeTBA, status: try r.readOptionalInt64(),
            onsale: try TypedDate(from: &r), presale: try TypedDate(from: &r),
            priceMinCents: try r.readOptionalInt64(), priceMaxCents: try r.readOptionalInt64(),
            promoter: try r.readOptionalInt64(), stars: try r.readOptionalDouble(),
            starReviews: try r.readOptionalInt64(), url: try r.readOptionalString())
        try afterDetails(&r)
        line = try r.readInt()
    }
}

extension FeedRejection: EncodableRecord {
    /// One NDJSON line of the rejects file.
    package func encode(to e: inout RecordEncoder) {
        e.field("section", section)
        e.field("id", id)
        e.field("line", line)
        e.field("reason", reason)
        e.field("detail", detail)
    }
}
