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
    package static func formatLocal(_ t: Int64) -> String {
        let day = floorDiv(t, 86_400)
        let sec = Int(t - day * 86_400)
        let (y, m, d) = civil(days: Int(day))
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(sec / 3600, 2) + ":"
            + pad(sec / 60 % 60, 2) + ":" + pad(sec % 60, 2)
    }

    /// ISO 8601 UTC with `Z`.
    package static func formatUTC(_ t: Int64) -> String { formatLocal(t) + "Z" }

    /// `YYYY-MM-DD` of a day number.
    package static func formatDate(days: Int) -> String {
        let (y, m, d) = civil(days: days)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
