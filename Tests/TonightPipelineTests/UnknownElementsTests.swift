import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

/// A feed may carry elements the job does not know (a warning, not an error). The parse-feed
/// record lists them for people, bounded: the first 50 names by name, each cut at 40
/// characters, and how many more (a hostile feed may hold 1,000 names of any length).
@Suite struct UnknownElementsTests {
    @Test(arguments: [3, 60])
    func theRecordListsAtMostFiftyNames(_ count: Int) throws {
        let inputs = copyOfTinyInputs()
        let file = inputs.appendingPathComponent("feed.xml")
        let long = "Z" + String(repeating: "y", count: 300)
        let extra = (0..<count).map { "<X\(String(format: "%02d", $0))>v</X\(String(format: "%02d", $0))>" }.joined() + "<\(long)/>"
        let text = try String(contentsOf: file, encoding: .utf8)
        // In the two events of category 207: each name is seen twice.
        let planted = text.replacingOccurrences(of: "<CategoryID>207</CategoryID>", with: "<CategoryID>207</CategoryID>" + extra)
        #expect(planted != text)
        try planted.write(to: file, atomically: true, encoding: .utf8)
        let work = temporaryDirectory()
        let run = try runner(inputs: inputs, work: work).run()
        let record = try #require(RunStore(work: work).record(run: run.runId, stage: "parse-feed"))
        let listed = try #require(record.details["unknownElements"])
        #expect(record.warnings["unknown-element"] == count + 1)
        if count + 1 > 50 {
            #expect(listed.hasPrefix("X00 (2), X01 (2), "), "\(listed.prefix(100))")
            #expect(listed.hasSuffix(", … (\(count + 1 - 50) more)"), "\(listed.suffix(100))")
            #expect(!listed.contains("Zyy"), "names after the first 50 are counted, not listed")
        } else {
            #expect(listed == "X00 (2), X01 (2), X02 (2), Z\(String(repeating: "y", count: 39))… (2)")
        }
    }
}
