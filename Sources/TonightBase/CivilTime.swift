/// Calendar arithmetic on the proleptic Gregorian calendar in UTC, without Foundation's
/// formatters (which are slow and locale-dependent). Based on Howard Hinnant's public-domain
/// `days_from_civil` / `civil_from_days` algorithms.
package enum CivilTime {
    /// Days since 1970-01-01 for a calendar date (no validation).
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The calendar date of a day number.
    package static func civil(days z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    package static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Parses `YYYY-MM-DD` (exactly) into a day number, or nil if it is not a real date.
    package static func parseDate(_ b: some Collection<UInt8>) -> Int? {
        let a = Array(b)
        guard a.count == 10, a[4] == UInt8(ascii: "-"), a[7] == UInt8(ascii: "-"),
            let y = digits(a, 0, 4), let m = digits(a, 5, 2), let d = digits(a, 8, 2),
            (1...12).contains(m), d >= 1, d <= daysInMonth(year: y, month: m)
        else { return nil }
        return days(year: y, month: m, day: d)
    }

    /// Parses `HH:MM:SS` (exactly) into seconds of the day, or nil if not a real time.
    package static func parseTime(_ b: some Collection<UInt8>) -> Int? {
        let a = Array(b)
        guard a.count == 8, a[2] == UInt8(ascii: ":"), a[5] == UInt8(ascii: ":"),
            let h = digits(a, 0, 2), let m = digits(a, 3, 2), let s = digits(a, 6, 2),
            h < 24, m < 60, s < 60
        else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// Parses ISO 8601 UTC `YYYY-MM-DDTHH:MM:SSZ` (fractional seconds not accepted).
    package static func parseInstant(_ s: String) -> Int64? {
        let a = Array(s.utf8)
        guard a.count == 20, a[10] == UInt8(ascii: "T"), a[19] == UInt8(ascii: "Z"),
            let d = parseDate(a[0..<10]), let t = parseTime(a[11..<19])
        else { return nil }
        return Int64(d) * 86_400 + Int64(t)
    }

    /// Parses an ISO 8601 / RFC 3339 instant with any offset:
    /// `YYYY-MM-DD(T| )HH:MM:SS[(.|,)digits](Z|±HH|±HHMM|±HH:MM)` (what `date -Iseconds`,
    /// `date --rfc-3339=seconds`, JavaScript's `toISOString`, Python's `isoformat` and
    /// PostgreSQL's `timestamptz` print), converted to UTC. `fraction` says whether the
    /// fraction of a second held a non-zero digit (the seconds are then the whole second
    /// before): each caller decides what such a time means. Offsets up to ±14:00.
    package static func parseInstantWithOffset(_ s: String) -> (seconds: Int64, fraction: Bool)? {
        guard let t = parseTimestamp(s.utf8), let offset = t.offset else { return nil }
        return (Int64(t.day) * 86_400 + Int64(t.second) - Int64(offset), t.fraction)
    }

    /// The parts of a timestamp as exporters write it, the zone optional:
    /// `YYYY-MM-DD(T| )HH:MM:SS[(.|,)digits][Z|±HH|±HHMM|±HH:MM]`, as written (not converted
    /// to UTC). `day` and `second` are the date and the time of day written; `fraction` whether
    /// the fraction of a second held a non-zero digit; `offset` the zone's seconds east of UTC
    /// (up to ±14:00), nil when the text has no zone. Nil when the text is not such a
    /// timestamp, or names no real date or time. `parseInstantWithOffset` is this with the zone
    /// required; a date column exported as a `DATETIME`, `timestamp` or JavaScript `Date`
    /// (`1990-01-05 00:00:00`, `1990-01-05T00:00:00.000Z`) is this at midnight.
    package static func parseTimestamp(_ text: some Collection<UInt8>) -> (day: Int, second: Int, fraction: Bool, offset: Int?)? {
        let b = Array(text)
        func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }
        guard b.count >= 19, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
              let d = parseDate(b[0..<10]), let t = parseTime(b[11..<19]) else { return nil }
        var i = 19
        var fraction = false
        if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            let digits = b[(i + 1)...].prefix(while: isDigit)
            guard !digits.isEmpty else { return nil }
            fraction = digits.contains { $0 != UInt8(ascii: "0") }
            i += 1 + digits.count
        }
        let zone = b[i...]
        if zone.isEmpty { return (d, t, fraction, nil) }
        if zone.elementsEqual([UInt8(ascii: "Z")]) { return (d, t, fraction, 0) }
        guard let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let rest = Array(zone.dropFirst())
        let hhmm: [UInt8]
        switch rest.count {
        case 2: hhmm = rest + Array("00".utf8)
        case 4: hhmm = rest
        case 5 where rest[2] == UInt8(ascii: ":"): hhmm = Array(rest[0..<2] + rest[3..<5])
        default: return nil
        }
        guard let hours = digits(hhmm, 0, 2), let minutes = digits(hhmm, 2, 2), hours <= 14, minutes < 60 else { return nil }
        let offset = hours * 3600 + minutes * 60
        return (d, t, fraction, sign == UInt8(ascii: "-") ? -offset : offset)
    }

    /// An instant as schedulers and exporters write it (`parseInstant`'s form first, then
    /// `parseInstantWithOffset`'s), a fraction of a second rounded up to the next second: with
    /// whole-second run instants that keeps `startsAt ≥ asOf`, `occurs_at > asOf` and
    /// `occurs_at ≤ asOf` exact.
    package static func parseInstantRoundingUp(_ s: String) -> Int64? {
        if let t = parseInstant(s) { return t }
        return parseInstantWithOffset(s).map { $0.seconds + ($0.fraction ? 1 : 0) }
    }

    private static func digits(_ a: [UInt8], _ at: Int, _ n: Int) -> Int? {
        var v = 0
        for i in at..<at + n {
            let c = a[i] &- UInt8(ascii: "0")
            guard c < 10 else { return nil }
            v = v * 10 + Int(c)
        }
        return v
    }

    /// Floor division for negative instants.
    @inline(__always) package static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// `YYYY-MM-DDTHH:MM:SS` for seconds since the epoch (no zone suffix).
    package static func formatLocal(_ t: Int64) -> String { format(t, zone: false) }

    /// ISO 8601 UTC with `Z`.
    package static func formatUTC(_ t: Int64) -> String { format(t, zone: true) }

    /// `YYYY-MM-DD` of a day number.
    package static func formatDate(days: Int) -> String {
        let (y, m, d) = civil(days: days)
        guard (0...9999).contains(y) else { return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) }
        return String(unsafeUninitializedCapacity: 10) { b in
            writeDate(y, m, d, into: b)
            return 10
        }
    }

    /// The date and time written digit by digit into the string's own memory (a string per
    /// field and per concatenation made eleven for one instant: the catalog writes a few
    /// hundred thousand). Years outside 0…9999 take the general path, which pads to four
    /// digits and never cuts.
    private static func format(_ t: Int64, zone: Bool) -> String {
        let day = floorDiv(t, 86_400)
        let sec = Int(t - day * 86_400)
        let (y, m, d) = civil(days: Int(day))
        guard (0...9999).contains(y) else {
            return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(sec / 3600, 2) + ":"
                + pad(sec / 60 % 60, 2) + ":" + pad(sec % 60, 2) + (zone ? "Z" : "")
        }
        return String(unsafeUninitializedCapacity: zone ? 20 : 19) { b in
            writeDate(y, m, d, into: b)
            b[10] = UInt8(ascii: "T")
            two(sec / 3600, b, 11)
            b[13] = UInt8(ascii: ":")
            two(sec / 60 % 60, b, 14)
            b[16] = UInt8(ascii: ":")
            two(sec % 60, b, 17)
            if zone { b[19] = UInt8(ascii: "Z") }
            return zone ? 20 : 19
        }
    }

    /// `YYYY-MM-DD` at the start of `b` (a year of 0…9999).
    @inline(__always)
    private static func writeDate(_ y: Int, _ m: Int, _ d: Int, into b: UnsafeMutableBufferPointer<UInt8>) {
        two(y / 100, b, 0)
        two(y % 100, b, 2)
        b[4] = UInt8(ascii: "-")
        two(m, b, 5)
        b[7] = UInt8(ascii: "-")
        two(d, b, 8)
    }

    /// The two digits of `v` (0…99) at `at`.
    @inline(__always)
    private static func two(_ v: Int, _ b: UnsafeMutableBufferPointer<UInt8>, _ at: Int) {
        b[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / 10)
        b[at + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
