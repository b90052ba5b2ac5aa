import Foundation
import Testing
import TonightCore
@testable import TonightFeed

/// James Clark's XMLTEST not-wf cases: every one refused with exit 65 and FILE:LINE:COLUMN.
/// They run twice: as the feed stage sees them (root must be Ticketmaster) and with the root
/// check off, so that the refusal comes from well-formedness checking itself.
@Suite struct NotWellFormedTests {
    static let cases: [String] = {
        let base = resource("xmltest/not-wf")
        var out: [String] = []
        for dir in ["sa", "not-sa", "ext-sa"] {
            let d = base.appendingPathComponent(dir)
            for f in (try? FileManager.default.contentsOfDirectory(atPath: d.path)) ?? [] where f.hasSuffix(".xml") {
                out.append("\(dir)/\(f)")
            }
        }
        return out.sorted()
    }()

    @Test func suiteIsPresent() {
        #expect(Self.cases.count == 197)
    }

    @Test(arguments: cases)
    func refusedByTheStage(_ name: String) throws {
        try check(name, requiredRoot: "Ticketmaster")
    }

    @Test(arguments: cases)
    func refusedAsNotWellFormed(_ name: String) throws {
        try check(name, requiredRoot: nil)
    }

    private func check(_ name: String, requiredRoot: String?) throws {
        let url = resource("xmltest/not-wf/\(name)")
        var options = FeedParserOptions()
        options.requiredRoot = requiredRoot
        var caught: TonightError?
        do {
            _ = try FeedParser.parse(url, options: options)
        } catch let e as TonightError {
            caught = e
        }
        let e = try #require(caught, "\(name) was accepted")
        #expect(e.exitCode == 65)
        #expect(e.file == url.path && e.line != nil && e.column != nil, "\(name): \(e)")
    }
}
