import Testing
@testable import TonightExports

/// The app's genders and age groups written in another case or with another dash (an enum
/// column's export, a spreadsheet's autocorrect) are the app's values; before, such a gender
/// was a `bad-value` reject and such a quiz answer matched nobody.
@Suite struct AppSpellingTests {
    @Test(arguments: [("female", "Female"), ("MALE", "Male"), ("non-binary", "Non-binary"), ("Non\u{2013}Binary", "Non-binary"),
                      ("Non-binary", "Non-binary")])
    func playersGendersInAnotherSpelling(_ written: String, _ app: String) throws {
        let r = try HostileExportTests.playmate(["players.csv": "x1,,\(written),,\n"])
        #expect(r.rejects.isEmpty, "\(r.rejects)")
        #expect(r.players.last?.id == "x1" && r.players.last?.gender == app)
        #expect(r.counts["value-spelling"] == (written == app ? nil : 1), "\(r.counts)")
    }

    @Test(arguments: ["F", "Nonbinary", "Non binary", "Fémale", "woman"])
    func otherGendersAreRejected(_ written: String) throws {
        let r = try HostileExportTests.playmate(["players.csv": "x1,,\(written),,\n"])
        #expect(r.rejects.map(\.reason) == ["bad-value"])
    }

    @Test func quizAnswersInAnotherSpelling() throws {
        let r = try HostileExportTests.playmate(["quiz.csv": "p1,,,,,female|NON-BINARY|Robot,UNDER 12|12\u{2013}17|75+\n"])
        #expect(r.players[1].quiz?.genders == ["Female", "Non-binary"])
        #expect(r.players[1].quiz?.ageGroups == ["Under 12", "12-17", "75+"])
        #expect(r.counts["value-spelling"] == 4 && r.counts["quiz-unknown-value"] == 1, "\(r.counts)")
    }
}
