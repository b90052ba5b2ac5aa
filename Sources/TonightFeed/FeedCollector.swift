import TonightCore

/// Turns finished record drafts into normalised records or rejections, and counts warnings.
struct FeedCollector {
    var artists: [FeedArtist] = []
    var categories: [FeedCategory] = []
    var venues: [FeedVenue] = []
    var events: [FeedEvent] = []
    var rejects: [FeedRejection] = []
    var warnings: [String: Int] = [:]
    var unknownElements: [String: Int] = [:]
    /// Records seen per section (kept or rejected), for the reject-share rule.
    var seenCount = [Int](repeating: 0, count: FeedSection.allCases.count)
    var rejectCount = [Int](repeating: 0, count: FeedSection.allCases.count)

    /// Per kept event, which of its (integer) artist references were `Type="Primary"`.
    var primaryFlags: [[Bool]] = []

    private var seenIDs = [Set<Int64>](repeating: [], count: 3)
    /// Ids that entered `seenIDs` but whose record was then rejected (missing field).
    private var rejectedAfterID = [[Int64]](repeating: [], count: 3)
    private var seenEventIDs = Set<UInt64>()
    let camefrom: String

    mutating func insertEventID(_ id: UInt64) -> Bool { seenEventIDs.insert(id).inserted }

    init(camefrom: String) {
        self.camefrom = camefrom
    }

    mutating func warn(_ kind: String, _ n: Int = 1) { warnings[kind, default: 0] += n }

    private mutating func reject(_ d: RecordDraft, _ reason: String, _ detail: String) {
        rejects.append(
            FeedRejection(section: d.section.tableName, id: d.idText, line: d.line, reason: reason, detail: detail))
        rejectCount[d.section.rawValue] += 1
    }

    /// URLs arrive with the affiliate placeholder already replaced by the SAX handler.
    func url(_ s: String?) -> String? { s }

    static func parseInt(_ s: String?) -> Int64? {
        guard var s, !s.isEmpty else { return nil }
        return s.withUTF8 { parseInt($0) }
    }

    static func parseInt(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var neg = false
        if b.count > 0 && b[0] == UInt8(ascii: "-") {
            neg = true
            i = 1
        }
        guard i < b.count, b.count - i <= 18 else { return nil }  // 18 digits cannot overflow
        var v: Int64 = 0
        while i < b.count {
            let d = b[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            v = v &* 10 &+ Int64(d)
            i += 1
        }
        return neg ? -v : v
    }

    /// Checks the record id: returns it, or records the rejection and returns nil.
    private mutating func integerID(_ d: RecordDraft) -> Int64? {
        guard let text = d.idText, !text.isEmpty else {
            reject(d, "missing-id", "no ID attribute")
            return nil
        }
        guard let id = Self.parseInt(text), id >= 0 else {
            reject(d, "bad-id", "ID '\(TonightError.quoted(text))' is not a non-negative integer")
            return nil
        }
        let slot = d.section.rawValue
        guard seenIDs[slot].insert(id).inserted else {
            reject(d, "duplicate-id", "ID \(id) was seen before in \(d.section.tableName); the first one is kept")
            return nil
        }
        return id
    }

    private mutating func required(_ d: RecordDraft, _ f: FeedField, id: Int64) -> String? {
        guard let v = d[f] else {
            reject(d, "missing-field", "\(f.elementName) is required")
            rejectedAfterID[d.section.rawValue].append(id)
            return nil
        }
        return v
    }

    /// The ids of the kept records of a section (artists, categories, venues), for linking.
    func keptIDs(_ section: FeedSection) -> Set<Int64> {
        var ids = seenIDs[section.rawValue]
        for id in rejectedAfterID[section.rawValue] { ids.remove(id) }
        return ids
    }

    /// An optional integer reference or number: absent stays nil, garbage is a warning.
    private mutating func optionalInt(_ d: RecordDraft, _ f: FeedField, nonNegative: Bool = true) -> Int64? {
        guard let text = d[f] else { return nil }
        guard let v = Self.parseInt(text), !nonNegative || v >= 0 else {
            warn("bad-field")
            return nil
        }
        return v
    }

    mutating func finish(_ d: RecordDraft) {
        seenCount[d.section.rawValue] += 1
        if let names = d.elementInField {
            let parts = names.split(separator: ">", maxSplits: 1).map(String.init)
            reject(d, "element-in-field", "<\(parts.first ?? "?")> contains the element <\(parts.last ?? "?")>: fields hold text only")
            return
        }
        switch d.section {
        case .artists: finishArtist(d)
        case .categories: finishCategory(d)
        case .venues: finishVenue(d)
        case .events: finishEvent(d)
        }
    }

    private mutating func finishArtist(_ d: RecordDraft) {
        guard let id = integerID(d), let name = required(d, .artistName, id: id) else { return }
        artists.append(
            FeedArtist(
                id: id, name: name, category: optionalInt(d, .artistCategory), url: url(d[.artistURL]),
                imageUrl: url(d[.artistImageURL]), line: d.line))
    }

    private mutating func finishCategory(_ d: RecordDraft) {
        guard let id = integerID(d), let name = required(d, .categoryName, id: id) else { return }
        categories.append(FeedCategory(id: id, name: name, parent: optionalInt(d, .parentID), line: d.line))
    }

    private mutating func finishVenue(_ d: RecordDraft) {
        guard let id = integerID(d), let name = required(d, .venueName, id: id) else { return }
        let state = d[.state]
        venues.append(
            FeedVenue(
                id: id, name: name, street: d[.street], city: d[.city], state: state, zip: d[.zipCode],
                country: Self.country(ofState: state), url: url(d[.venueURL]), imageUrl: url(d[.venueImageURL]),
                line: d.line))
    }

    static let usStates: Set<String> = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA",
        "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK",
        "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC", "PR", "VI", "GU",
        "AS", "MP", "UM",
    ]
    static let canadianProvinces: Set<String> = [
        "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT",
    ]

    /// `US`, `CA` or nil from a state or province code (feed.md "Venue country").
    package static func country(ofState state: String?) -> String? {
        guard let s = state?.uppercased() else { return nil }
        if usStates.contains(s) { return "US" }
        if canadianProvinces.contains(s) { return "CA" }
        return nil
    }
}
