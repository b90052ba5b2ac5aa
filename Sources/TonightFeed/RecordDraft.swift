/// The raw values of the record being parsed, reset for each record.
struct RecordDraft {
    var section: FeedSection = .artists
    var line = 0
    var column = 0
    /// The record's `ID` attribute, trimmed (nil when absent).
    var idText: String?
    /// Cleaned text per field (or the `ID` attribute of a reference field).
    private(set) var values = [String?](repeating: nil, count: FeedField.allCases.count)
    /// Which field elements were present, even if empty.
    private(set) var present = [Bool](repeating: false, count: FeedField.allCases.count)
    /// `Type` attributes of the typed dates.
    var onsaleType: String?
    var presaleType: String?
    /// `ArtistIDs/ArtistID` references in order: the `ID` text and whether `Type="Primary"`.
    var artistRefs: [(id: String, primary: Bool)] = []
    /// `Field>element` when a text field held an element (the record is rejected).
    var elementInField: String?
    /// The fields set since the last reset (bit i: field i): a reset clears those alone.
    /// Clearing all 29 for each of the feed's 275,000 records was a release call per field
    /// (70 M instructions of the realistic parse: parse-feed-log.md, "Instructions, not
    /// samples").
    private var touched: UInt32 = 0

    mutating func reset(section: FeedSection, line: Int, column: Int, id: String?) {
        self.section = section
        self.line = line
        self.column = column
        idText = id
        var t = touched
        while t != 0 {
            let i = t.trailingZeroBitCount
            values[i] = nil
            present[i] = false
            t &= t - 1
        }
        touched = 0
        onsaleType = nil
        presaleType = nil
        artistRefs.removeAll(keepingCapacity: true)
        elementInField = nil
    }

    subscript(_ f: FeedField) -> String? {
        get { values[f.rawValue] }
        set {
            values[f.rawValue] = newValue
            touched |= 1 << UInt32(f.rawValue)
        }
    }

    /// Marks field `f` present (its element was there, empty or not).
    mutating func markPresent(_ f: FeedField) {
        present[f.rawValue] = true
        touched |= 1 << UInt32(f.rawValue)
    }
}
