import Testing
@testable import TonightExports

/// The quiz's lists written as JSON arrays of strings (`["Tennis","Golf"]`), as exports of
/// Parse's array columns write them, are read as the `|` lists of user-data.md; before, the
/// whole array was one sport no session has and one gender or age group that never matched.
@Suite struct QuizListTests {
    static func quiz(_ fields: String) throws -> (quiz: PlaymateQuiz?, counts: [String: Int]) {
        let r = try HostileExportTests.playmate(["quiz.csv": "p1,,,\(fields)\n"])
        return (r.players[1].quiz, r.counts)
    }

    @Test func jsonArraysAreLists() throws {
        let r = try Self.quiz(#""[""Tennis"", ""Golf""]","[]","[""Female"",""Non-binary""]","[""18-24""]""#)
        #expect(r.quiz?.playSports == ["Tennis", "Golf"].map(PlaymateLoader.sportKey))
        #expect(r.quiz?.avoidSports == [])
        #expect(r.quiz?.genders == ["Female", "Non-binary"] && r.quiz?.ageGroups == ["18-24"])
        #expect(r.counts["quiz-json-list"] == 4 && r.counts["quiz-unknown-value"] == nil, "\(r.counts)")
        // The same lists as user-data.md writes them: the same quiz, nothing counted.
        let plain = try Self.quiz("Tennis|Golf,,Female|Non-binary,18-24")
        #expect(plain.quiz == r.quiz && plain.counts["quiz-json-list"] == nil)
    }

    /// A list typed in a spreadsheet, `Tennis, Golf` or `Tennis;Golf`, is two items, counted.
    @Test(arguments: ["Tennis, Golf", "Tennis;Golf", " Tennis ; Golf;", "Tennis,,Golf"])
    func commasAndSemicolonsSeparateItems(_ field: String) throws {
        let r = try Self.quiz("\"\(field)\",,\"Female, Male\",18-24;25-34")
        #expect(r.quiz?.playSports == ["Tennis", "Golf"].map(PlaymateLoader.sportKey), "\(String(describing: r.quiz))")
        #expect(r.quiz?.genders == ["Female", "Male"] && r.quiz?.ageGroups == ["18-24", "25-34"])
        #expect(r.counts["quiz-list-separator"] == 3 && r.counts["quiz-unknown-value"] == nil, "\(r.counts)")
    }

    /// A field in user-data.md's form is read by it: a `|` list keeps its items' commas.
    @Test func aBarListKeepsItsCommas() throws {
        let r = try Self.quiz("\"Tennis, doubles|Golf\",,,")
        #expect(r.quiz?.playSports == ["Tennis, doubles", "Golf"].map(PlaymateLoader.sportKey))
        #expect(r.counts["quiz-list-separator"] == nil)
    }

    /// Only an array of strings is a list; anything else is read as before, one item.
    @Test(arguments: [#""[Tennis]""#, #""[""Tennis"", 3]""#, #""[""Tennis""""#, #""{""a"": ""Tennis""}""#])
    func otherBracketsAreText(_ field: String) throws {
        let r = try Self.quiz("\(field),,,")
        #expect(r.quiz?.playSports.count == 1, "\(String(describing: r.quiz))")
        #expect(r.counts["quiz-json-list"] == nil)
    }
}
