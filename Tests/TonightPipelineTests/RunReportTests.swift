import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

/// `report.html`: self-contained, valid HTML5, the failure first, the last runs beside tonight
/// and anything unusual flagged at the top and in `metrics.prom`.
@Suite(.serialized) struct RunReportTests {
    /// Seven ordinary nights of `tiny` (forced, so every stage runs), then an eighth whose
    /// export lost most users (published with --allow-shrink). Returns the work directory and the
    /// last two run directories.
    static let history: (work: URL, normal: URL, shrunk: URL) = {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        var last: RunRecord?
        for _ in 0..<7 { last = try! runner(inputs: inputs, work: work) { $0.force = true }.run() }
        let normal = RunStore(work: work).runDirectory(last!.runId)
        let users = inputs.appendingPathComponent("tickets/users.csv")
        let lines = try! String(contentsOf: users, encoding: .utf8).split(separator: "\n")
        try! (lines.prefix(3).joined(separator: "\n") + "\n").write(to: users, atomically: true, encoding: .utf8)
        let shrunk = try! runner(inputs: inputs, work: work) { $0.allowShrink = true }.run()
        return (work, normal, RunStore(work: work).runDirectory(shrunk.runId))
    }()

    static func text(_ dir: URL, _ file: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
    }

    @Test func anOrdinaryNightFlagsNothing() throws {
        let html = try Self.text(Self.history.normal, "report.html")
        #expect(html.contains("Nothing outside its usual band against the last 6 runs"))
        let prom = try Self.text(Self.history.normal, "metrics.prom")
        #expect(prom.contains("tonight_anomalies 0\n"))
        #expect(prom.contains("tonight_anomaly{kind=\"records\",dataset=\"explore\"} 0\n"))
    }

    @Test func aShrunkExportIsFlaggedAtTheTopAndInMetrics() throws {
        let html = try Self.text(Self.history.shrunk, "report.html")
        let flagged = try #require(html.range(of: "outside the usual band</h2>"))
        #expect(flagged.lowerBound < html.range(of: "Stage timeline")!.lowerBound)
        #expect(html.contains("explore: records"))
        #expect(html.contains("fewer than the last run's"))
        let prom = try Self.text(Self.history.shrunk, "metrics.prom")
        #expect(prom.contains("tonight_anomaly{kind=\"records\",dataset=\"explore\"} 1\n"))
        #expect(prom.contains("tonight_anomaly{kind=\"shrink\",dataset=\"explore\"} 1\n"))
        #expect(prom.contains("tonight_anomaly{kind=\"shrink\",dataset=\"events\"} 0\n"))
        #expect(try String(contentsOf: Self.history.work.appendingPathComponent("metrics/tonight.prom"), encoding: .utf8) == prom)
        #expect(try Self.text(Self.history.shrunk, "report.md").contains("figure(s) outside the usual band"))
        // Run over run: the last runs beside tonight, tonight's cell in bold.
        #expect(html.contains("Run over run (the last 7 completed runs)"))
    }

    /// Everything a page needs is inside it; tables are tables.
    @Test func theReportIsSelfContained() throws {
        let html = try Self.text(Self.history.shrunk, "report.html")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for banned in ["<script", "src=", "href=\"http", "@import", "url(http", "<pre>| stage"] { #expect(!html.contains(banned), "\(banned)") }
        for section in ["Stage timeline", "<h2>Stages</h2>", "Rejects and warnings", "Geocoding precision", "List lengths", "<h2>Datasets</h2>", "<table>", "<svg"] {
            #expect(html.contains(section), "\(section)")
        }
        for dataset in ["explore", "feed", "tonight", "sessions"] { #expect(html.contains("<h3><code>\(dataset)</code></h3>"), "\(dataset) histogram") }
    }

    @Test(.enabled(if: ExternalTool.xmllint.isAvailable)) func theReportIsWellFormed() throws {
        let r = try shell("xmllint --noout '\(Self.history.shrunk.appendingPathComponent("report.html").path)'", mergingStandardError: true)
        #expect(r.status == 0, "\(r.output)")
    }

    /// html5lib in strict mode raises on any HTML5 parse error (and does on a broken page).
    @Test(.enabled(if: ExternalTool.html5lib.isAvailable)) func theReportIsValidHTML5() throws {
        let check = "python3 -c 'import html5lib,sys; html5lib.HTMLParser(strict=True).parse(open(sys.argv[1],\"rb\"))'"
        for dir in [Self.history.normal, Self.history.shrunk] {
            let r = try shell("\(check) '\(dir.appendingPathComponent("report.html").path)'", mergingStandardError: true)
            #expect(r.status == 0, "\(r.output)")
        }
        let broken = temporaryDirectory().appendingPathComponent("broken.html")
        try "<!DOCTYPE html><html><head><title>x</title></head><body><table><tr><td>a</b></td></tr></table></body></html>".write(to: broken, atomically: true, encoding: .utf8)
        #expect(try shell("\(check) '\(broken.path)'").status != 0)
    }

    /// A failed run's report begins with the failure: the stage, the error, the kept rejects.
    @Test func aFailedRunShowsTheFailureFirst() throws {
        let inputs = copyOfTinyInputs()
        try "<Feed><broken".write(to: inputs.appendingPathComponent("feed.xml"), atomically: true, encoding: .utf8)
        let work = temporaryDirectory()
        #expect(throws: TonightError.self) { try runner(inputs: inputs, work: work).run() }
        let id = try #require(RunStore(work: work).runIDs().first)
        let html = try Self.text(RunStore(work: work).runDirectory(id), "report.html")
        let failure = try #require(html.range(of: "<section class=\"failure\"><h2>Run failed at stage <code>parse-feed</code>"))
        #expect(failure.lowerBound < html.range(of: "Stage timeline")!.lowerBound)
        #expect(html.contains("Nothing was published"))
    }

    /// Rejected export rows are counted by reason and by the file they came from.
    @Test func rejectsByReasonAndFile() throws {
        let inputs = copyOfTinyInputs()
        let users = inputs.appendingPathComponent("tickets/users.csv")
        try FileIO.write(Array(try FileIO.read(users)) + Array("brokenrow\n".utf8), to: users)
        // Within the reject share: the stage's counts.
        let work = temporaryDirectory()
        let lenient = try TonightConfig.parse("exports:\n  maxRejectShare: 0.5\n", path: "test.yaml")
        try runner(inputs: inputs, work: work, config: lenient).run()
        let id = try #require(RunStore(work: work).runIDs().first)
        let html = try Self.text(RunStore(work: work).runDirectory(id), "report.html")
        let byFile = try #require(html.range(of: "<h3>By file</h3>"))
        #expect(html[byFile.upperBound...].hasPrefix("<table><thead><tr><th>stage</th><th>file</th><th>rejected rows</th></tr></thead><tbody><tr><td><code>load-tickets</code></td><td>users.csv</td><td class=\"n\">1</td>"))
        #expect(html.contains("<td><code>load-tickets</code></td><td>reject</td><td>bad-csv</td>"))
        // Past it the stage fails: its kept rejects are summed up in the failure section.
        let strict = temporaryDirectory()
        #expect(throws: TonightError.self) { try runner(inputs: inputs, work: strict).run() }
        let failedID = try #require(RunStore(work: strict).runIDs().first)
        let failed = try Self.text(RunStore(work: strict).runDirectory(failedID), "report.html")
        let section = try #require(failed.range(of: "<section class=\"failure\">"))
        #expect(failed[section.lowerBound...].contains("<td>bad-csv</td><td>users.csv</td><td class=\"n\">1</td>"))
    }

    /// Rendered by headless Chromium at 1280 px: not blank, and no wider than the window.
    @Test(.enabled(if: ExternalTool.chromium.isAvailable)) func chromiumRendersTheReport() throws {
        let dir = temporaryDirectory()
        let page = dir.appendingPathComponent("report.html")
        try FileIO.copyFile(Self.history.shrunk.appendingPathComponent("report.html"), to: page)
        let chromium = "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars"
        let png = dir.appendingPathComponent("shot.png")
        let shot = try shell("\(chromium) --window-size=1280,2400 --screenshot='\(png.path)' 'file://\(page.path)'", mergingStandardError: true)
        #expect(shot.status == 0, "\(shot.output)")
        // Share of pixels that are not white (a decoder of 8-bit RGB(A) PNGs, no library).
        let count = try shell("""
            python3 - '\(png.path)' <<'PY'
            import sys, struct, zlib
            data = open(sys.argv[1], 'rb').read()
            pos, idat = 8, b''
            while pos < len(data):
                n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
                if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
                if kind == b'IDAT': idat += body
            bpp = {2: 3, 6: 4}[ctype]; raw = zlib.decompress(idat); stride = w * bpp
            prev = bytearray(stride); ink = 0; i = 0
            for _ in range(h):
                f = raw[i]; row = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
                for x in range(stride):
                    a = row[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
                    if f == 1: row[x] = (row[x] + a) & 255
                    elif f == 2: row[x] = (row[x] + b) & 255
                    elif f == 3: row[x] = (row[x] + (a + b) // 2) & 255
                    elif f == 4:
                        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                ink += sum(1 for x in range(0, stride, bpp) if row[x] < 240 or row[x + 1] < 240 or row[x + 2] < 240)
                prev = row
            print(ink / (w * h))
            PY
            """)
        let ink = try #require(Double(count.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(count.output)")
        #expect(ink > 0.01, "the screenshot is blank (\(ink))")
        // The page's own width at 1280 px, read by a probe added to a copy (the report has none).
        var html = try String(contentsOf: page, encoding: .utf8)
        html = html.replacingOccurrences(of: "</body>", with: "<script>document.title='width='+document.documentElement.scrollWidth</script></body>")
        let probe = dir.appendingPathComponent("probe.html")
        try html.write(to: probe, atomically: true, encoding: .utf8)
        let dom = try shell("\(chromium) --window-size=1280,900 --dump-dom 'file://\(probe.path)'")
        let width = try #require(dom.output.range(of: "<title>width=").map { Int(dom.output[$0.upperBound...].prefix { $0.isNumber }) } ?? nil,
                                 "\(dom.output.prefix(300))")
        #expect(width <= 1280, "the page is \(width) px wide at 1280")
    }
}
