import Foundation
import Testing
import TonightSnapshot
import TonightTesting

/// The app exports as other CSV writers write them (`scripts/messy-inputs.py --csv-only`: a
/// byte order mark, CRLF, the columns in another order with an unknown one holding quoted
/// commas, quotes and a line break, fields quoted at random) carry the same rows, so not one
/// published byte may change: the night's content hash is the clean night's.
@Suite struct ExportFormatTests {
    @Test(.enabled(if: ExternalTool.python3.isAvailable))
    func anotherCSVWriterChangesNoPublishedByte() throws {
        let dir = temporaryDirectory("tonight-csv-format")
        let clean = dir.appendingPathComponent("clean"), messy = dir.appendingPathComponent("messy")
        let made = try runTonight(["generate", "--scale", "small", "--out", clean.path])
        try #require(made.status == 0, "\(made.stderr)")
        let copy = try shell("python3 '\(packageRoot.path)/scripts/messy-inputs.py' '\(clean.path)' '\(messy.path)' --csv-only",
                             mergingStandardError: true)
        try #require(copy.status == 0, "\(copy.output)")
        #expect(copy.output.range(of: "csv-files (9|10) quoted [1-9]", options: .regularExpression) != nil, "\(copy.output)")
        var hashes: [String] = []
        for (name, inputs) in [("a", clean), ("b", messy)] {
            let work = dir.appendingPathComponent(name)
            let run = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.appendingPathComponent("out").path,
                                      "--as-of", "2026-01-15T06:00:00Z"])
            try #require(run.status == 0, "\(run.stderr)")
            hashes.append(try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots")).manifest.contentHash)
        }
        #expect(hashes[0] == hashes[1] && !hashes[0].isEmpty, "\(hashes)")
    }
}
