import Testing
import TonightBase
@testable import TonightExports

/// `sessions.occurs_at` as exporters write an instant: user-data.md's form, and the same
/// instant as JavaScript (`toISOString`: `.000Z`), Python (`isoformat`: `+00:00`) and
/// PostgreSQL (`timestamptz`: a space and `+00`) print it, or at another offset. Before,
/// every one of them was a `bad-date` reject, so such an exporter failed the whole night
/// (all its rows rejected) although each names one instant exactly.
@Suite struct ExportedInstantTests {
    @Test(arguments: [
        ("2026-02-01T18:00:00Z", "2026-02-01T18:00:00Z"),
        ("2026-02-01T18:00:00.000Z", "2026-02-01T18:00:00Z"),
        ("2026-02-01T18:00:00+00:00", "2026-02-01T18:00:00Z"),
        ("2026-02-01 18:00:00+00", "2026-02-01T18:00:00Z"),
        ("2026-02-01T13:00:00-05:00", "2026-02-01T18:00:00Z"),
        ("2026-02-01T23:30:00+0530", "2026-02-01T18:00:00Z"),
        ("2026-02-02T04:00:00+10", "2026-02-01T18:00:00Z"),
        ("2026-01-31T23:59:59.000001-18:00", nil),  // beyond ±14:00
        // A fraction rounds up: 18:00:00.25 is after 18:00:00, so a run as of 18:00:00 must
        // still offer it (occurs_at > asOf) and not count it played.
        ("2026-02-01T17:59:59.25Z", "2026-02-01T18:00:00Z"),
        ("2026-02-01T17:59:59,5+00:00", "2026-02-01T18:00:00Z"),
        ("2026-02-01T18:00:00", nil),  // no zone: a local time, ambiguous
        ("2026-02-01 18:00:00", nil),
        ("2026-02-01T18:00:00.Z", nil),
        ("2026-02-01T18:00:00+1:00", nil),
        ("2026-02-01T18:00:00+01:60", nil),
        ("2026-02-01T18:00:00+15:00", nil),
        ("2026-02-01T18:00Z", nil),
        ("2026-02-30T18:00:00+00:00", nil),
        ("2026-02-01t18:00:00z", nil),
        ("1999-12-31T23:59:59-01:00", "2000-01-01T00:59:59Z"),
        ("2000-01-01T00:59:59+01:00", nil),  // 1999-12-31T23:59:59Z: before the range
    ] as [(String, String?)])
    func occursAtTakesEveryExportersForm(text: String, utc: String?) throws {
        let r = try HostileExportTests.playmate(["sessions.csv": "t1,Tennis,p1,\"\(text)\",60,40,-74,4\n"])
        if let utc {
            #expect(r.rejects.isEmpty, "\(r.rejects.map(\.detail))")
            #expect(r.sessions.last.map { CivilTime.formatUTC($0.occursAt) } == utc)
        } else {
            #expect(r.rejects.map { "\($0.line) \($0.reason)" } == ["202 bad-date"])
            #expect(r.sessions.last?.id != "t1")
        }
    }

    /// The rejection says which forms are read.
    @Test func aRefusedInstantSaysWhatIsRead() throws {
        let r = try HostileExportTests.playmate(["sessions.csv": "t1,Tennis,p1,2026-02-01 18:00:00,60,40,-74,4\n"])
        #expect(r.rejects.first?.detail.contains("is not an ISO 8601 instant (2026-11-22T18:00:00Z; an offset such as +00:00 or -05:00 is converted to UTC)") == true,
                "\(r.rejects.map(\.detail))")
    }
}
