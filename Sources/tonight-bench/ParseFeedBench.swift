import ArgumentParser
import Foundation
import TonightCore
import TonightFeed
import TonightGenerator
import TonightPipeline

/// parse-feed against `xmllint --stream --noout` and ElementTree `iterparse` on one file.
struct ParseFeedBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse-feed",
        abstract: "Time the parse-feed stage on the full feed against xmllint and ElementTree.")

    @Option(help: "Data directory (generated with `tonight generate --scale full` if feed.xml is missing).")
    var data: String = "bench-data/full"
    @Option(help: "Interleaved rounds (the median is reported).") var runs: Int = 11
    @Option(help: "Rounds for ElementTree (slow).") var slowRuns: Int = 3
    @Option(help: "Another build's tonight-bench, timed in the same rounds (an A/B of a build setting); the `tonight` beside it runs the whole command too.")
    var otherBuild: String?
    @Option(help: "What the other build is (its row's name).") var otherName: String = "other build"
    @OptionGroup var output: BenchOutput

    func run() throws {
        let dir = URL(fileURLWithPath: data)
        let feed = dir.appendingPathComponent("feed.xml")
        if !FileManager.default.fileExists(atPath: feed.path) {
            print("generating the full data set into \(dir.path) …")
            try DatasetGenerator(scale: .full, seed: 1).generate(into: dir)
        }
        let zst = dir.appendingPathComponent("feed-bench.xml.zst")
        if !FileManager.default.fileExists(atPath: zst.path) {
            _ = try ChildProcess.run(["/bin/sh", "-c", "zstd -q -3 -f -o '\(zst.path)' '\(feed.path)'"])
        }
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let size = FileIO.size(feed)
        print("parse-feed benchmark: \(feed.path) (\(String(format: "%.1f", Double(size) / 1e6)) MB), zst \(String(format: "%.1f", Double(FileIO.size(zst)) / 1e6)) MB")

        // Correctness first: the counts must be exactly the generated ones.
        let check = try ChildProcess.run([me, "parse-once", feed.path], captureOutput: true)
        var counts = BenchTable("Output of the parsed feed", columns: ["what", "value"])
        counts.row(["parse-feed", check.output.trimmingCharacters(in: .whitespacesAndNewlines)])
        if let info = GeneratedInfo.read(dir) {
            let expected = "artists \(info.counts["artists"]!) categories \(info.counts["categories"]!) venues \(info.counts["venues"]!) events \(info.counts["events"]!) rejects 0"
            counts.row(["generated", expected])
            guard check.output.hasPrefix(expected) else { throw ValidationError("counts differ from the generated ones: \(check.output)") }
            counts.note("the counts are exactly the generated ones")
        }

        // Each series' position is taken as it is appended (the rows follow this order).
        var fast: [Series] = []
        func add(_ series: Series) -> Int { fast.append(series); return fast.count - 1 }
        let parseXML = add(Series(name: "tonight parse-feed (.xml)", argv: [me, "parse-once", feed.path]))
        let parseZst = add(Series(name: "tonight parse-feed (.xml.zst)", argv: [me, "parse-once", zst.path]))
        let xmllint = add(Series(name: "xmllint --stream --noout", argv: ["/usr/bin/xmllint", "--stream", "--noout", feed.path]))
        let cat = add(Series(name: "cat > /dev/null", argv: ["/bin/cat", feed.path]))
        let otherParse = otherBuild.map { add(Series(name: "\(otherName) (.xml)", argv: [$0, "parse-once", feed.path])) }
        // The command as a user runs it (issue 12): start-up, input hashing, the stage, its
        // table writes and records. Once with the work directory's hash cache holding the
        // feed's hash (a re-run), once without (a new night's feed: hashed beside the stage,
        // which `--force` runs whatever the hash).
        let tonight = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("tonight").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-parse-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let command = [tonight, "run", "--only", "parse-feed", "--force", "--inputs", dir.path, "--work", work, "--out", work + "/out"]
        let processes = FileManager.default.isExecutableFile(atPath: tonight)
        // The other build's `tonight` (beside its tonight-bench), in a work directory of its
        // own: the whole command of both builds in the same rounds.
        let otherTonight = otherBuild.map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("tonight").path }
            .flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
        let otherWork = work + "-other"
        defer { try? FileManager.default.removeItem(atPath: otherWork) }
        /// A build's whole command, hash cached and new feed: the two series' positions.
        func addWholeCommand(_ name: String, work: String, argv: [String]) throws -> (cached: Int, fresh: Int) {
            _ = try ChildProcess.run(argv)  // the work directory, and the executable's hash cached
            let cached = add(Series(name: "\(name)tonight run --only parse-feed --force (feed hash cached)", argv: argv))
            let fresh = add(Series(name: "\(name)same, new feed (hash cache emptied)",
                                   argv: ["/bin/sh", "-c", "rm -f '\(work)/hash-cache.json'; exec \"$@\"", "sh"] + argv))
            return (cached, fresh)
        }
        let mine = processes ? try addWholeCommand("", work: work, argv: command) : nil
        let other = try otherTonight.flatMap { otherTonight in
            try processes ? addWholeCommand("\(otherName): ", work: otherWork, argv: [otherTonight] + command.dropFirst().map {
                $0 == work ? otherWork : $0 == work + "/out" ? otherWork + "/out" : $0
            }) : nil
        }
        try measure(&fast, runs: runs)
        let script = """
            import sys, xml.etree.ElementTree as ET
            n = 0
            for _, el in ET.iterparse(sys.argv[1], events=("end",)):
                if el.tag in ("Artist", "Category", "Venue", "Event"):
                    n += 1
                    el.clear()
            print(n)
            """
        var slow = [Series(name: "python ElementTree iterparse", argv: ["python3", "-c", script, feed.path])]
        try measure(&slow, runs: slowRuns)

        let ours = fast[parseXML].medianSeconds, xmllintSeconds = fast[xmllint].medianSeconds
        var times = (fast + slow).table("Whole processes, \(runs) interleaved rounds (ElementTree \(slowRuns))")
        times.goal(Goal(name: "parse-feed / xmllint --stream", value: ours / xmllintSeconds, goal: 1.0, direction: .atMost))
        times.goal(Goal(name: "ElementTree / parse-feed", value: slow[0].medianSeconds / ours, goal: 5, direction: .atLeast, unit: "×", decimals: 1))
        times.goal(Goal(name: ".xml.zst / .xml", value: fast[parseZst].medianSeconds / ours, goal: 1.2, direction: .atMost))
        times.goal(Goal(name: "parse-feed peak memory", value: fast[parseXML].medianPeakMB, goal: 300, direction: .atMost, unit: " MiB", decimals: 0))
        times.note(String(format: "parse-feed throughput %.0f MB/s; cat reads the file at %.0f MB/s", Double(size) / 1e6 / ours,
                          Double(size) / 1e6 / fast[cat].medianSeconds))
        if let otherParse {
            times.note(String(format: "%@ / this build = %.2f", otherName, fast[otherParse].medianSeconds / ours))
        }
        if let mine {
            let cached = fast[mine.cached].medianSeconds, fresh = fast[mine.fresh].medianSeconds
            times.goal(Goal(name: "whole command (hash cached) / xmllint --stream", value: cached / xmllintSeconds, goal: 0.8,
                            direction: .atMost))
            times.goal(Goal(name: "whole command (new feed) / xmllint --stream", value: fresh / xmllintSeconds, goal: 0.8,
                            direction: .atMost))
            if let other {
                times.note(String(format: "%@, whole command / this build's: hash cached %.2f, new feed %.2f", otherName,
                                  fast[other.cached].medianSeconds / cached, fast[other.fresh].medianSeconds / fresh))
            }
        }
        try output.emit(benchmark: "parse-feed", tables: [counts, times])
    }
}

/// One parse-feed stage body on one file (what the harness times in a child process): parse,
/// validate, write the binary tables.
struct ParseOnce: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "parse-once", shouldDisplay: false)

    @Argument var file: String

    func run() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tonight-bench-\(getpid())")
        try FileIO.createDirectory(out)
        defer { try? FileIO.removeItem(out) }
        let t0 = DispatchTime.now().uptimeNanoseconds
        var result: FeedParseResult? = try ParseFeedStage.parseAndWrite(
            URL(fileURLWithPath: file), options: ParseFeedStage.options(TonightConfig()), to: out)
        let t1 = DispatchTime.now().uptimeNanoseconds
        let t2 = t1
        let line = "artists \(result!.artists.count) categories \(result!.categories.count) venues \(result!.venues.count) events \(result!.events.count) rejects \(result!.rejects.count) warnings \(result!.warnings.values.reduce(0, +))"
        ParseFeedStage.releaseInBackground(result!)
        result = nil
        let t3 = DispatchTime.now().uptimeNanoseconds
        if ProcessInfo.processInfo.environment["TONIGHT_TRACE"] != nil {
            FileHandle.standardError.write(Data(String(format: "parse %.3f s, write %.3f s, free %.3f s\n", Double(t1 - t0) / 1e9, Double(t2 - t1) / 1e9, Double(t3 - t2) / 1e9).utf8))
        }
        print(line)
    }
}
