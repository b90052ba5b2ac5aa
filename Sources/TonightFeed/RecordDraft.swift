/// The raw values of the record being parsed, reset for each record.
struct RecordDraft {
    var section: FeedSection = .artists
    var line = 0
    var column = 0
    /// The record's `ID` attribute, trimmed (nil when absent).
    var idText: String?
    /// Cleaned text per field (or the `ID` attribute of a reference field).
    var values = [String?](repeating: nil, count: FeedField.allCases.count)
    /// Which field elements were present, even if empty.
    var present = [Bool](repeating: false, count: FeedField.allCases.count)
    /// `Type` attributes of the typed dates.
    var onsaleType: String?
    var presaleType: String?
    /// `ArtistIDs/ArtistID` references in order: the `ID` text and whether `Type="Primary"`.
    var artistRefs: [(id: String, primary: Bool)] = []
    /// `Field>element` when a text field held an element (the record is rejected).
    var elementInField: String?

    mutating func reset(section: FeedSection, line: Int, column: Int, id: String?) {
        self.section = section
        self.line = line
        self.column = column
        idText = id
        for i in values.indices {
            values[i] = nil
            present[i] = false
        }
        onsaleType = nil
        presaleType = nil
        artistRefs.removeAll(keepingCapacity: true)
        elementInField = nil
    }

    subscript(_ f: FeedField) -> String? {
        get { values[f.rawValue] }
        set { values[f.rawValue] = newValue }
    }
}
