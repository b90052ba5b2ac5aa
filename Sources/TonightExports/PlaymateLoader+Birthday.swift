import TonightBase

extension PlaymateLoader {
    /// What players.csv's `birthday` (trimmed, not empty) holds.
    enum Birthday: Equatable {
        /// A real `YYYY-MM-DD` (days since 1970-01-01).
        case date(Int)
        /// That date at midnight as a timestamp (`CivilTime.parseMidnightDate`): a date
        /// column exported as a `DATETIME`, `timestamp` or JavaScript `Date`. Counted
        /// `birthday-as-timestamp`; until 2026-11-28 a `bad-date` reject, and an export of
        /// such a column failed the night.
        case midnight(Int)
        /// A timestamp at another time of day: the date it names depends on the zone it was
        /// entered in, which the text does not say (a reject that says so).
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
        // The shortest timestamp is `YYYY-MM-DD 00:00:00`.
        guard text.count >= 19 else { return .invalid }
        let s = String(decoding: text, as: UTF8.self)
        if let d = CivilTime.parseMidnightDate(s) { return .midnight(d) }
        return CivilTime.isTimestamp(s) ? .timeOfDay : .invalid
    }
}
