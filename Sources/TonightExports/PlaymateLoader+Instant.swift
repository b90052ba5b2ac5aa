import TonightBase

extension PlaymateLoader {
    /// `sessions.occurs_at` (trimmed): an instant as exporters write it
    /// (`CivilTime.parseInstantRoundingUp`), else seconds or milliseconds since 1970-01-01 UTC
    /// (`epochInstant`); `epoch` says which. The definition: `session_instant` in
    /// scripts/definitions/common.py (`FieldRuleDefinitionTests.instantsAreTheDefinitions`).
    static func occursAt(_ text: String) -> (seconds: Int64, epoch: Bool)? {
        if let t = CivilTime.parseInstantRoundingUp(text) { return (t, false) }
        var text = text
        return text.withUTF8 { epochInstant($0) }.map { ($0, true) }
    }

    /// Seconds since 1970-01-01 UTC as an integer column's export, JavaScript's `Date.now()`
    /// or Python's `time.time()` write an instant: 9 or 10 digits of seconds, with a decimal
    /// fraction or not (`1732300000`, `1732300000.25`), or 12 or 13 digits of milliseconds
    /// (`1732300000250`); a fraction of a second rounded up to the next second, as in the ISO
    /// forms. The digit counts keep the two apart: from 2000 to 2099 seconds have 9 or 10
    /// digits and milliseconds 12 or 13, so 11 digits, or 14 and more, are neither. Until
    /// 2026-11-28 a `bad-date` reject, and an export of such a column failed the night.
    static func epochInstant(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        func digit(_ c: UInt8) -> Int64? { c &- UInt8(ascii: "0") < 10 ? Int64(c &- UInt8(ascii: "0")) : nil }
        var whole: Int64 = 0
        var n = 0
        while n < b.count, let d = digit(b[n]) {
            guard n < 13 else { return nil }
            whole = whole * 10 + d
            n += 1
        }
        var fraction = false
        if n < b.count {
            // Only seconds take a fraction: `.` and at least one digit, nothing after.
            guard n == 9 || n == 10, b[n] == UInt8(ascii: "."), n + 1 < b.count else { return nil }
            for c in b[(n + 1)...] {
                guard let d = digit(c) else { return nil }
                if d != 0 { fraction = true }
            }
        }
        switch n {
        case 9, 10: return whole + (fraction ? 1 : 0)
        case 12, 13: return whole / 1000 + (whole % 1000 != 0 ? 1 : 0)
        default: return nil
        }
    }
}
