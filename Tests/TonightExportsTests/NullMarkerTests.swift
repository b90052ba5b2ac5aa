import Testing
@testable import TonightExports

/// Absent values as other exporters write them (`\N`, `NULL`, `NA`, `None`, …: `NullMarkers`)
/// are read as empty fields outside the id columns, and integers written as floats (`60.0`) as
/// integers. Before, `lat` `\N` was a `bad-number` reject, `gender` `NULL` a `bad-value` one,
/// `skill_level` `NULL` a published skill level and `duration_min` `60.0` a reject.
@Suite struct NullMarkerTests {
    /// A users.csv row with every optional field a marker loads as the same row with them empty.
    @Test(arguments: NullMarkers.words)
    func ticketsUsersReadMarkersAsEmpty(_ word: String) throws {
        func users(_ rows: String) -> String {
            "user_id,home_zip,lat,lon,radius_km,max_price\n" + (0..<200).map { "g\($0),,40,-74,10,\n" }.joined() + rows
        }
        let marked = try HostileExportTests.load(["users.csv": users("m1,\(word),\(word),\(word),\(word),\(word)\nm2, \(word)\t,40.5,-74.25,\(word),10\n")])
        let plain = try HostileExportTests.load(["users.csv": users("m1,,,,,\nm2,,40.5,-74.25,,10\n")])
        #expect(marked.rejects.isEmpty, "\(marked.rejects)")
        #expect(marked.users.records == plain.users.records)
        #expect(marked.counts["null-marker"] == 7 && plain.counts["null-marker"] == nil, "\(marked.counts)")
        #expect(marked.examples["null-marker"]?.first?.hasPrefix("users.csv:202 lat '") == true)
    }

    /// Every optional column of the Playmate files, and the required ones that are not ids.
    @Test(arguments: ["NULL", "\\N", "NA", "None", "nan", "#N/A"])
    func playmateFilesReadMarkersAsEmpty(_ word: String) throws {
        let w = word
        let marked = try HostileExportTests.playmate([
            "players.csv": "x1,\(w),\(w),\(w),\(w)\n",
            "quiz.csv": "x1,\(w),\(w),\(w),\(w),\(w),\(w)\n",
            "sessions.csv": "t1,Tennis,p1,2026-02-01T18:00:00Z,\(w),40,-74,4\n",
        ])
        let plain = try HostileExportTests.playmate([
            "players.csv": "x1,,,,\n", "quiz.csv": "x1,,,,,,\n", "sessions.csv": "t1,Tennis,p1,2026-02-01T18:00:00Z,,40,-74,4\n",
        ])
        #expect(marked.rejects.isEmpty, "\(marked.rejects)")
        #expect(marked.players == plain.players && marked.sessions == plain.sessions)
        #expect(marked.counts["null-marker"] == 11, "\(marked.counts)")
        #expect(plain.counts["null-marker"] == nil && marked.counts["quiz-unknown-value"] == nil)
    }

    /// A required field that is a marker is missing; an id that is one is an id (ids are
    /// opaque: user-data.md).
    @Test func requiredFieldsAreMissingAndIdsAreIds() throws {
        let r = try HostileExportTests.playmate([
            "players.csv": "NULL,,,,\n",
            "sessions.csv": "t1,NULL,p1,2026-02-01T18:00:00Z,60,40,-74,4\nt2,Tennis,p1,\\N,60,40,-74,4\n"
                + "t3,Tennis,p1,2026-02-01T18:00:00Z,60,NA,NA,4\nt4,Tennis,p1,2026-02-01T18:00:00Z,60,40,-74,None\n"
                + "NA,Tennis,NULL,2026-02-01T18:00:00Z,60,40,-74,4\n",
        ])
        #expect(r.rejects.map { "\($0.line) \($0.reason)" } == ["202 missing-field", "203 missing-field", "204 missing-field", "205 missing-field"],
                "\(r.rejects)")
        #expect(r.players.contains { $0.id == "NULL" })
        #expect(r.sessions.last?.id == "NA" && r.sessions.last?.creatorID == "NULL")
    }

    /// Near misses are values, judged by the column's own rule.
    @Test func nearMissesAreValues() throws {
        let r = try HostileExportTests.playmate([
            "players.csv": "x1,,Null,,\nx2,,NULLS,,\nx3,,N,,\n",
            "sessions.csv": "t1,Tennis,p1,2026-02-01T18:00:00Z,nulll,40,-74,4\n",
        ])
        #expect(r.rejects.map(\.reason) == ["bad-value", "bad-value", "bad-value", "bad-number"], "\(r.rejects)")
        #expect(r.counts["null-marker"] == nil)
    }

    /// pandas writes an integer column that has a blank as floats.
    @Test func integersWrittenAsFloats() throws {
        let r = try HostileExportTests.playmate([
            "sessions.csv": "t1,Tennis,p1,2026-02-01T18:00:00Z,60.0,40,-74,4.00\nt2,Tennis,p1,2026-02-01T18:00:00Z,,40,-74,12.0\n"
                + "t3,Tennis,p1,2026-02-01T18:00:00Z,60.5,40,-74,4\nt4,Tennis,p1,2026-02-01T18:00:00Z,60.,40,-74,4\n"
                + "t5,Tennis,p1,2026-02-01T18:00:00Z,6e1,40,-74,4\nt6,Tennis,p1,2026-02-01T18:00:00Z,60,40,-74,.0\n"
                + "t7,Tennis,p1,2026-02-01T18:00:00Z,60,40,-74,1001.0\n",
        ])
        #expect(r.rejects.map { "\($0.line) \($0.reason)" } == ["204 bad-number", "205 bad-number", "206 bad-number", "207 bad-number", "208 bad-number"],
                "\(r.rejects)")
        let t1 = r.sessions.first { $0.id == "t1" }, t2 = r.sessions.first { $0.id == "t2" }
        #expect(t1?.durationMin == 60 && t1?.capacity == 4 && t2?.durationMin == nil && t2?.capacity == 12)
        #expect(r.counts["decimal-integer"] == 2, "\(r.counts)")
    }

    @Test(arguments: [("60", 60, false), ("60.0", 60, true), (" 7.000 ", 7, true), ("0.0", 0, true)])
    func wholeNumbers(_ text: String, _ value: Int64, _ decimal: Bool) {
        let r = Array(text.utf8).withUnsafeBufferPointer { Field.wholeNumber($0) }
        #expect(r?.value == value && r?.decimal == decimal)
    }

    @Test(arguments: ["60.5", "60.", ".0", "6e1", "-1.0", "60.0.0", "", "1234567890123456789.0"])
    func notWholeNumbers(_ text: String) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { Field.wholeNumber($0) } == nil)
    }
}
