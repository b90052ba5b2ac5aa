import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

/// `report.md` repeats input text (example user ids, unknown affinity names, paths, errors):
/// it is shown as it is, never read as Markdown or HTML. A user id
/// `<img src=x onerror=alert(1)>` was raw HTML in the report before.
struct MarkdownTextTests {
    static let hostile = [
        "<img src=x onerror=alert(1)>", "a*b*_c_", "[x](javascript:alert(1))", "&amp;", "a|b", "`", "``x", "x```",
        "` leading", "trailing `", " spaced <b> ", "a ` b `` c ```` d", "\\*not\\*",
    ]

    /// The span's content, as CommonMark reads a code span: between the fences, one space
    /// stripped from each side when both are there.
    static func content(ofSpan span: String) -> String? {
        let fence = span.prefix { $0 == "`" }
        guard !fence.isEmpty, span.hasSuffix(fence), span.count >= 2 * fence.count else { return nil }
        var inner = String(span.dropFirst(fence.count).dropLast(fence.count))
        // No run of backticks inside as long as the fence (it would close the span early).
        guard !inner.contains(String(fence)) else { return nil }
        if inner.hasPrefix(" ") && inner.hasSuffix(" ") && inner.contains(where: { $0 != " " }) {
            inner = String(inner.dropFirst().dropLast())
        }
        return inner
    }

    @Test(arguments: hostile)
    func inputTextIsACodeSpanOfItself(_ text: String) {
        let span = MarkdownText.literal(text)
        #expect(span != text)
        #expect(Self.content(ofSpan: span) == text, "\(span)")
    }

    /// A code span keeps text that starts and ends with a space (CommonMark strips one).
    @Test func aSpanKeepsItsSpaces() {
        #expect(Self.content(ofSpan: MarkdownText.code(" spaced ")) == " spaced ")
        #expect(Self.content(ofSpan: MarkdownText.code("x")) == "x")
    }

    @Test(arguments: ["0.00", "/usr/share/zoneinfo", "users=9 lengths=2:1,3:2", "2026f", "no earlier output"])
    func plainTextStaysAsItIs(_ text: String) {
        #expect(MarkdownText.literal(text) == text)
    }

    @Test func anErrorBlockCannotBeClosedByItsText() {
        let error = "a.csv:3: bad id '```'\n```\n<script>x</script>\n````"
        let block = MarkdownText.block(error)
        let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
        let fence = lines.first!
        #expect(fence.allSatisfy { $0 == "`" } && fence.count == 5)
        #expect(lines.last! == fence)
        #expect(lines.dropFirst().dropLast().allSatisfy { !$0.hasPrefix(fence) })
    }

    /// The whole path: a hostile id in load-tickets' examples reaches report.md as a code span.
    @Test func hostileExamplesReachTheReportAsCodeSpans() throws {
        let inputs = copyOfTinyInputs()
        let users = inputs.appendingPathComponent("tickets/users.csv")
        let id = "<img src=x onerror=alert(1)>"
        try (String(contentsOf: users, encoding: .utf8) + "\"\(id)\",2134,,,,\n").write(to: users, atomically: true, encoding: .utf8)
        let work = temporaryDirectory()
        let run = try runner(inputs: inputs, work: work).run()
        let md = try String(contentsOf: RunStore(work: work).runDirectory(run.runId).appendingPathComponent("report.md"), encoding: .utf8)
        let line = try #require(md.split(separator: "\n").first { $0.hasPrefix("- examples.zip-leading-zeros-lost: ") })
        let value = String(line.dropFirst("- examples.zip-leading-zeros-lost: ".count))
        #expect(Self.content(ofSpan: value) == "\(id) (home_zip 2134)", "\(line)")
    }
}
