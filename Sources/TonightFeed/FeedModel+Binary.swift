import TonightCore

extension FeedArtist: BinaryRecord {
    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        w.write(id)
        w.write(name)
        w.write(category)
        w.write(url)
        w.write(imageUrl)
        w.write(line)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(
            id: try r.readInt64(), name: try r.readString(), category: try r.readOptionalInt64(),
            url: try r.readOptionalString(), imageUrl: try r.readOptionalString(), line: try r.readInt())
    }
}

extension FeedArtist {
    /// Only the id of an artists-table row (what reference checks need).
    package static func readID(_ r: inout BinaryReader) throws -> Int64 {
        let id = try r.readInt64()
        try r.skipString()
        _ = try r.readOptionalInt64()
        try r.skipOptionalString()
        try r.skipOptionalString()
        _ = try r.readInt()
        return id
    }

    /// Only the id and name of an artists-table row (what name resolution needs).
    package static func readIDAndName(_ r: inout BinaryReader) throws -> (id: Int64, name: String) {
        let id = try r.readInt64()
        let name = try r.readString()
        _ = try r.readOptionalInt64()
        try r.skipOptionalString()
        try r.skipOptionalString()
        _ = try r.readInt()
        return (id, name)
    }
}

extension FeedEvent {
    /// The id of an events-table row (what reference checks need).
    package static func readID(_ r: inout BinaryReader) throws -> UInt64 {
        let e = try FeedEvent(from: &r)
        return e.id
    }
}

extension FeedCategory: BinaryRecord {
    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        w.write(id)
        w.write(name)
        w.write(parent)
        w.write(line)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(id: try r.readInt64(), name: try r.readString(), parent: try r.readOptionalInt64(), line: try r.readInt())
    }
}

extension FeedVenue: BinaryRecord {
    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        w.write(id)
        w.write(name)
        w.write(street)
        w.write(city)
        w.write(state)
        w.write(zip)
        w.write(country)
        w.write(url)
        w.write(imageUrl)
        w.write(line)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(
            id: try r.readInt64(), name: try r.readString(), street: try r.readOptionalString(),
            city: try r.readOptionalString(), state: try r.readOptionalString(), zip: try r.readOptionalString(),
            country: try r.readOptionalString(), url: try r.readOptionalString(),
            imageUrl: try r.readOptionalString(), line: try r.readInt())
    }
}

extension TypedDate {
    func encode(to w: inout BinaryWriter) {
        w.write(kind.rawValue)
        w.write(at)
    }

    init(from r: inout BinaryReader) throws {
        let raw = try r.readByte()
        guard let kind = Kind(rawValue: raw) else {
            throw TonightError(.invalidInput, "corrupt binary table (typed date kind \(raw))")
        }
        self.init(kind: kind, at: try r.readOptionalInt64())
    }
}

extension FeedEvent: BinaryRecord {
    package static var schemaVersion: Int { 1 }

    package func encode(to w: inout BinaryWriter) {
        w.writeFixed(id)
        w.write(name)
        w.write(artists)
        w.write(headliner)
        w.write(category)
        w.write(venue)
        w.write(startsAt)
        w.write(timeTBA)
        w.write(status)
        onsale.encode(to: &w)
        presale.encode(to: &w)
        w.write(priceMinCents)
        w.write(priceMaxCents)
        w.write(promoter)
        w.write(stars)
        w.write(starReviews)
        w.write(url)
        w.write(line)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(
            id: try r.readFixed(), name: try r.readString(), artists: try r.readInt64Array(),
            headliner: try r.readOptionalInt64(), category: try r.readOptionalInt64(), venue: try r.readInt64(),
            startsAt: try r.readInt64(), timeTBA: try r.readBool(), status: try r.readOptionalInt64(),
            onsale: try TypedDate(from: &r), presale: try TypedDate(from: &r),
            priceMinCents: try r.readOptionalInt64(), priceMaxCents: try r.readOptionalInt64(),
            promoter: try r.readOptionalInt64(), stars: try r.readOptionalDouble(),
            starReviews: try r.readOptionalInt64(), url: try r.readOptionalString(), line: try r.readInt())
    }
}
