import TonightBase

extension PlaymateLoader {
    /// What players.csv's `birthday` (trimmed, not empty) holds.
    enum Birthday: Equatable {
        /// A real `YYYY-MM-DD` (days since 1970-01-01).
        case date(Int)
        /// That date at midnight as a timestamp (`CivilTime.parseTimestamp` at 00:00:00, any
        /// fraction of zeros, with or without a zone: the date as written): a date column
        /// exported as a `DATETIME`, `timestamp` or JavaScript `Date`. Counted
        /// `birthday-as-timestamp`; until 2026-11-28 a `bad-date` reject, and an export of
        /// such a column failed the night.
        case midnight(Int)
        /// A timestamp at another time of day (`1990-01-04T23:00:00Z`, midnight of the 5th at
        /// +01:00): the date it names depends on the zone it was entered in, which the text
        /// does not say (a reject that says so).
        case timeOfDay
        /// Anything else (a reject).
        case invalid

        /// The date, if any.
        var days: Int? {
            switch self {
            case .date(let d), .midnight(let d): d
            case .timeOfDay, .invalid: nil
            }
        }
    }

    /// Reads a birthday (the definition: `birthday_date` in scripts/definitions/playmate.py,
    /// compared by `FieldRuleDefinitionTests.birthdaysAreTheDefinitions`).
    static func birthday(_ text: UnsafeBufferPointer<UInt8>) -> Birthday {
        if let d = CivilTime.parseDate(text) { return .date(d) }
        guard let stamp = CivilTime.parseTimestamp(text) else { return .invalid }
        return stamp.second == 0 && !stamp.fraction ? .midnight(stamp.day) : .timeOfDay
    }
}
