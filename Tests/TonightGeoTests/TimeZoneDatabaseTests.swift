import Foundation
import Testing
import TonightTesting
import TonightCore
@testable import TonightGeo
import TonightBase

/// The TZif reader against the system's own `zdump`, which reads the same files with the C
/// library's code: every transition it lists in 2012–2030, and 2040–2060 (past the last
/// transition of a "fat" file, where the POSIX footer decides).
@Suite struct TimeZoneDatabaseTests {
    static let hasZdump = ExternalTool.zdump.isAvailable && ExternalTool.date.isAvailable

    /// North American zones of the geocoding table (the 2026 Canadian changes among them),
    /// southern-hemisphere zones, 30- and 45-minute offsets, negative DST (Dublin), Ramadan
    /// changes (Casablanca), a footer with negative rule times (Nuuk).
    static let zones = [
        "America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Yellowknife", "America/Inuvik",
        "America/Toronto", "America/St_Johns", "America/New_York", "America/Phoenix", "America/Regina",
        "Pacific/Honolulu", "America/Whitehorse", "Australia/Sydney", "America/Sao_Paulo", "Pacific/Auckland",
        "Asia/Kolkata", "Asia/Kathmandu", "Europe/Dublin", "Africa/Casablanca", "America/Nuuk", "America/Santiago",
    ]

        static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// (UTC instant, offset) of every line of `zdump -v` (`ZONE  Sun Mar  8 09:59:59 2026 UT = … gmtoff=-28800`).
    static func zdump(_ zone: String, from: Int, to: Int) throws -> [(Int64, Int)] {
        try shell("zdump -v -c \(from),\(to) \(zone)").output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 7, parts[6] == "UT", let gmtoff = parts.last, gmtoff.hasPrefix("gmtoff="),
                let month = months.firstIndex(of: String(parts[2])), let day = Int(parts[3]), let year = Int(parts[5])
            else { return nil }
            let hms = parts[4].split(separator: ":").compactMap { Int($0) }
            let t = Int64(CivilTime.days(year: year, month: month + 1, day: day)) * 86_400
                + Int64(hms[0] * 3600 + hms[1] * 60 + hms[2])
            return (t, Int(gmtoff.dropFirst("gmtoff=".count))!)
        }
    }

    @Test(.enabled(if: hasZdump), arguments: zones)
    func agreesWithZdump(_ zone: String) throws {
        let rules = try TimeZoneDatabase.system().rules(zone)
        for (from, to) in [(2012, 2031), (2040, 2061)] {
            let lines = try Self.zdump(zone, from: from, to: to)
            #expect(!lines.isEmpty || zone == "America/Phoenix" || zone == "Pacific/Honolulu" || zone == "America/Regina"
                    || zone == "Asia/Kolkata" || zone == "Asia/Kathmandu" || from == 2040)
            for (t, offset) in lines {
                #expect(rules.offset(at: t) == offset, "\(zone) at \(CivilTime.formatUTC(t))")
            }
        }
        // Between transitions too: noon UTC on the 1st of every month.
        let monthly = try shell(
            (2012...2030).flatMap { y in (1...12).map { m in String(format: "%04d-%02d-01T12:00:00Z", y, m) } }
                .map { "TZ=\(zone) date -d \($0) +%z" }.joined(separator: "; "))
            .output.split(separator: "\n")
        var k = 0
        for y in 2012...2030 {
            for m in 1...12 {
                let z = monthly[k]
                k += 1
                let sign = z.hasPrefix("-") ? -1 : 1
                let digits = z.dropFirst()
                let expected = sign * (Int(digits.prefix(2))! * 3600 + Int(digits.suffix(2))! * 60)
                let t = Int64(CivilTime.days(year: y, month: m, day: 1)) * 86_400 + 12 * 3600
                #expect(rules.offset(at: t) == expected, "\(zone) \(y)-\(m)")
            }
        }
    }

    /// The issue that started this: British Columbia stays on UTC−7 after 2026-11-01 (tzdata
    /// 2026b; `scripts/install-deps.sh` upgrades an older one).
    @Test func vancouverAfterTheLastFallBack() throws {
        let rules = try TimeZoneDatabase.system().rules("America/Vancouver")
        let t = CivilTime.parseInstant("2026-12-06T09:00:00Z")!
        #expect(CivilTime.formatLocal(rules.local(t)) == "2026-12-06T02:00:00")
        let before = CivilTime.parseInstant("2025-12-06T09:00:00Z")!
        #expect(CivilTime.formatLocal(rules.local(before)) == "2025-12-06T01:00:00")
    }

    @Test func versionIsRead() throws {
        let db = try TimeZoneDatabase.system()
        #expect(db.version != "unknown")
        #expect(db.version.first?.isNumber == true)
    }

    @Test func missingDatabaseIsAnIOErrorNamingThePackage() throws {
        let e = #expect(throws: TonightError.self) {
            try TimeZoneDatabase.system(environment: ["TZDIR": "/nonexistent/zoneinfo"])
        }
        #expect(e?.exitCode == 74)
        #expect(e?.hint?.contains("tzdata") == true)
    }

    @Test(arguments: ["../etc/passwd", "/etc/passwd", "America/../../x", "", "America//Vancouver", "America/Van couver"])
    func hostileZoneNamesAreRefused(_ name: String) throws {
        #expect(!TimeZoneDatabase.isValidName(name))
        #expect(throws: TonightError.self) { try TimeZoneDatabase.system().rules(name) }
    }

    @Test func unknownZoneIsAnIOError() throws {
        let e = #expect(throws: TonightError.self) { try TimeZoneDatabase.system().rules("America/Atlantis") }
        #expect(e?.exitCode == 74)
    }

    /// Truncated and corrupted files are errors, never a crash or a wrong offset.
    @Test func damagedFilesAreRefused() throws {
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/America/Vancouver")))
        #expect((try? ZoneRules(tzif: good, name: "x")) != nil)
        for cut in stride(from: 0, to: good.count - 1, by: 97) {
            #expect(throws: ZoneRules.FormatError.self) { try ZoneRules(tzif: Array(good[0..<cut]), name: "x") }
        }
        var badMagic = good
        badMagic[0] = UInt8(ascii: "X")
        #expect(throws: ZoneRules.FormatError.self) { try ZoneRules(tzif: badMagic, name: "x") }
        var badFooter = good
        badFooter[badFooter.count - 3] = UInt8(ascii: "!")
        #expect(throws: ZoneRules.FormatError.self) { try ZoneRules(tzif: badFooter, name: "x") }
    }

    /// A version 2 file with no transitions: the footer alone gives every offset.
    @Test func footerOnlyFile() throws {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func header(types: UInt32, chars: UInt32) -> [UInt8] {
            Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15) + be32(0) + be32(0) + be32(0) + be32(0) + be32(types) + be32(chars)
        }
        let type: [UInt8] = be32(UInt32(bitPattern: -28800)) + [0, 0]
        let v1 = header(types: 1, chars: 4) + type + Array("PST\0".utf8)
        let file = v1 + header(types: 1, chars: 4) + type + Array("PST\0".utf8) + Array("\nPST8PDT,M3.2.0,M11.1.0\n".utf8)
        let rules = try ZoneRules(tzif: file, name: "test")
        #expect(rules.transitions.isEmpty)
        let la = try TimeZoneDatabase.system().rules("America/Los_Angeles")
        for t in stride(from: Int64(1_300_000_000), to: 2_500_000_000, by: 86_400 * 7 + 3_601) {
            #expect(rules.offset(at: t) == la.offset(at: t), "\(CivilTime.formatUTC(t))")
        }
    }

    @Test(arguments: [
        ("MST7", -25200, nil),
        ("<+0330>-3:30", 12600, nil),
        ("<-03>3", -10800, nil),
        ("PST8PDT,M3.2.0,M11.1.0", -28800, -25200),
        ("EST5EDT,M3.2.0/2,M11.1.0/2", -18000, -14400),
        ("IST-1GMT0,M10.5.0,M3.5.0/1", 3600, 0),
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", -7200, -3600),
        ("NZST-12NZDT,M9.5.0,M4.1.0/3", 43200, 46800),
        ("EST5EDT,0/0,J365/25", -18000, -14400),
        ("AAA3BBB,J60/2,300/2", -10800, -7200),
    ] as [(String, Int, Int?)])
    func posixRulesParse(_ text: String, _ standard: Int, _ daylight: Int?) throws {
        let rule = try #require(PosixTimeZoneRule(text))
        #expect(rule.standardOffset == standard)
        #expect(rule.daylight?.offset == daylight)
    }

    @Test(arguments: ["", "M", "MS7", "MST", "MST25", "PST8PDT,M3.2.0", "PST8PDT,M13.2.0,M11.1.0", "PST8PDT,M3.6.0,M11.1.0",
                      "<-0>3", "EST5EDT,J0,J365", "EST5EDT,M3.2.0/168,M11.1.0", "MST7 "])
    func malformedPosixRulesAreRefused(_ text: String) {
        #expect(PosixTimeZoneRule(text) == nil)
    }

    /// Daylight time all year (`0/0,J365/25`) and a rule crossing the new year.
    @Test func posixRuleEdges() throws {
        let allYear = try #require(PosixTimeZoneRule("EST5EDT,0/0,J365/25"))
        for m in 1...12 {
            let t = Int64(CivilTime.days(year: 2031, month: m, day: 15)) * 86_400
            #expect(allYear.offset(at: t) == -14400)
        }
        let nz = try #require(PosixTimeZoneRule("NZST-12NZDT,M9.5.0,M4.1.0/3"))
        #expect(nz.offset(at: CivilTime.parseInstant("2031-01-10T00:00:00Z")!) == 46800)
        #expect(nz.offset(at: CivilTime.parseInstant("2031-07-10T00:00:00Z")!) == 43200)
    }
}
