import TonightCore
import TonightBase

/// A POSIX `TZ` rule such as `PST8PDT,M3.2.0,M11.1.0`, `<-03>3` or `MST7`: the footer of a
/// TZif file (RFC 8536 §3.3), which gives local time for instants after the file's last
/// transition. Offsets are stored as seconds *east* of UTC (the TZ string counts west).
package struct PosixTimeZoneRule: Sendable, Equatable {
    /// A day of the year on which daylight saving time starts or ends.
    package enum Day: Sendable, Equatable {
        /// `Jn`: 1…365, February 29 never counted.
        case julian(Int)
        /// `n`: 0…365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…5, 5 = last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// One end of daylight saving time: a day and the local time of day (may be negative or
    /// past 24 hours, RFC 8536's extension).
    package struct Change: Sendable, Equatable {
        package var day: Day
        package var seconds: Int
    }

    /// Standard time's offset east of UTC, in seconds.
    package var standardOffset: Int
    /// Daylight time's offset east of UTC and the rule's two changes, if it has daylight time.
    package var daylight: (offset: Int, start: Change, end: Change)?

    package static func == (a: Self, b: Self) -> Bool {
        guard a.standardOffset == b.standardOffset else { return false }
        switch (a.daylight, b.daylight) {
        case (nil, nil): return true
        case let (x?, y?): return x.offset == y.offset && x.start == y.start && x.end == y.end
        default: return false
        }
    }

    /// Parses a TZ string; nil when it is not of the POSIX form.
    package init?(_ text: String) {
        var p = Parser(Array(text.utf8))
        guard p.name(), let std = p.offset(maxHours: 24) else { return nil }
        standardOffset = -std
        if p.atEnd {
            daylight = nil
            return
        }
        guard p.name() else { return nil }
        var dst = -std + 3600
        if !p.atEnd && p.peek != UInt8(ascii: ",") {
            guard let o = p.offset(maxHours: 24) else { return nil }
            dst = -o
        }
        var start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), seconds: 7200)
        var end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), seconds: 7200)
        if !p.atEnd {
            guard p.eat(UInt8(ascii: ",")), let s = p.change(), p.eat(UInt8(ascii: ",")), let e = p.change() else {
                return nil
            }
            start = s
            end = e
        }
        guard p.atEnd else { return nil }
        daylight = (dst, start, end)
    }

    /// The offset east of UTC in effect at UTC instant `t`.
    package func offset(at t: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = CivilTime.civil(days: Int(CivilTime.floorDiv(t + Int64(standardOffset), 86_400))).year
        // The changes of the years around t, in time order: the last one at or before t
        // decides. Looking at three years makes rules whose changes cross a new year (the
        // southern hemisphere, times past 24:00) come out right.
        var best: (at: Int64, daylight: Bool)?
        for y in (year - 1)...(year + 1) {
            let starts = Int64(Self.day(daylight.start.day, year: y)) * 86_400 + Int64(daylight.start.seconds)
                - Int64(standardOffset)
            let ends = Int64(Self.day(daylight.end.day, year: y)) * 86_400 + Int64(daylight.end.seconds)
                - Int64(daylight.offset)
            for (at, isDaylight) in [(starts, true), (ends, false)] where at <= t {
                // A start at the very instant of an end (`0/0,J365/25`: daylight time all year)
                // wins.
                if best == nil || at > best!.at || (at == best!.at && isDaylight) { best = (at, isDaylight) }
            }
        }
        return (best?.daylight ?? false) ? daylight.offset : standardOffset
    }

    /// The day number (days since 1970-01-01) of `day` in `year`.
    static func day(_ day: Day, year: Int) -> Int {
        let jan1 = CivilTime.days(year: year, month: 1, day: 1)
        switch day {
        case .julian(let n):
            return jan1 + n - 1 + (CivilTime.isLeap(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return jan1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilTime.days(year: year, month: month, day: 1)
            // 1970-01-01 was a Thursday (weekday 4, Sunday = 0).
            let firstWeekday = ((first % 7) + 7 + 4) % 7
            var d = first + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            let length = CivilTime.daysInMonth(year: year, month: month)
            while d >= first + length { d -= 7 }
            return d
        }
    }

    /// A cursor over the TZ string's bytes.
    private struct Parser {
        let b: [UInt8]
        var i = 0

        init(_ b: [UInt8]) { self.b = b }

        var atEnd: Bool { i >= b.count }
        var peek: UInt8 { b[i] }

        mutating func eat(_ c: UInt8) -> Bool {
            guard !atEnd, b[i] == c else { return false }
            i += 1
            return true
        }

        static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

        /// `<…>` (letters, digits, + and -) or at least three letters.
        mutating func name() -> Bool {
            let start = i
            if eat(UInt8(ascii: "<")) {
                while !atEnd, b[i] != UInt8(ascii: ">") {
                    let c = b[i]
                    guard Self.isAlpha(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
                    else { return false }
                    i += 1
                }
                guard i - start - 1 >= 3, eat(UInt8(ascii: ">")) else { return false }
                return true
            }
            while !atEnd, Self.isAlpha(b[i]) { i += 1 }
            return i - start >= 3
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset(maxHours: Int) -> Int? {
            var sign = 1
            if eat(UInt8(ascii: "-")) { sign = -1 } else { _ = eat(UInt8(ascii: "+")) }
            guard let h = number(maxDigits: 3), h <= maxHours else { return nil }
            var s = h * 3600
            if eat(UInt8(ascii: ":")) {
                guard let m = number(maxDigits: 2), m < 60 else { return nil }
                s += m * 60
                if eat(UInt8(ascii: ":")) {
                    guard let sec = number(maxDigits: 2), sec < 60 else { return nil }
                    s += sec
                }
            }
            return sign * s
        }

        mutating func number(maxDigits: Int) -> Int? {
            var v = 0, n = 0
            while !atEnd, b[i] >= 0x30, b[i] <= 0x39, n < maxDigits {
                v = v * 10 + Int(b[i] - 0x30)
                i += 1
                n += 1
            }
            return n > 0 ? v : nil
        }

        /// `date[/time]`.
        mutating func change() -> Change? {
            let day: Day
            if eat(UInt8(ascii: "J")) {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if eat(UInt8(ascii: "M")) {
                guard let m = number(maxDigits: 2), (1...12).contains(m), eat(UInt8(ascii: ".")),
                    let w = number(maxDigits: 1), (1...5).contains(w), eat(UInt8(ascii: ".")),
                    let d = number(maxDigits: 1), (0...6).contains(d)
                else { return nil }
                day = .monthWeekDay(month: m, week: w, weekday: d)
            } else {
                guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var seconds = 7200
            if eat(UInt8(ascii: "/")) {
                guard let s = offset(maxHours: 167) else { return nil }
                seconds = s
            }
            return Change(day: day, seconds: seconds)
        }
    }
}
