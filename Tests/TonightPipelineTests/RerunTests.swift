import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightGenerator
import TonightSnapshot

/// Re-runs a data engineer can trust: a rebuilt binary recomputes what its code touches, memory
/// is measured per stage, progress shows on a terminal, the run store stays bounded.
@Suite struct RerunTests {
    /// A changed executable recomputes every stage ("code changed"); a changed geocoding table
    /// recomputes exactly the stages that read it and what reads them.
    @Test func aRebuiltBinaryDoesNotReuseOldOutputs() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let real = BuildIdentity.current
        #expect(real.binary.count == 64 && real.resources[.geotable]?.count == 64)

        let rebuilt = runner(inputs: tinyInputs, work: work)
        rebuilt.buildIdentity = BuildIdentity(binary: String(repeating: "a", count: 64), resources: real.resources)
        let plan = try rebuilt.plan()
        #expect(plan.allSatisfy { $0.action == .run }, "\(plan.map(\.action))")
        #expect(plan[0].reason.contains("code changed (build"), "\(plan[0].reason)")

        let newTable = runner(inputs: tinyInputs, work: work)
        newTable.buildIdentity = BuildIdentity(binary: real.binary, resources: [.geotable: String(repeating: "b", count: 64)])
        let action = Dictionary(uniqueKeysWithValues: try newTable.plan().map { ($0.stage, $0.action) })
        // load-playmate reads the table's ZIP points (coordinates given the wrong way round).
        #expect(action == ["parse-feed": .reuse, "parse-affinity": .reuse, "geocode": .run, "load-tickets": .run,
                           "load-playmate": .run, "catalog": .run, "planner": .run, "tickets": .run, "alerts": .run, "playmate": .run,
                           "publish": .run])
        let why = try newTable.plan().first { $0.stage == "geocode" }!.reason
        #expect(why.contains("bundled data changed"), "\(why)")
        // The identity is recorded where people look.
        let record = try #require(RunStore(work: work).record(run: RunStore(work: work).runIDs()[0], stage: "geocode"))
        #expect(record.codeVersion.contains(String(real.binary.prefix(16))))
        #expect(try publishedManifest(work: work).codeVersion == "\(BuildIdentity.version) build \(real.id)")
    }

    @Test func versionPrintsTheBuildId() throws {
        let r = try runTonight(["--version"])
        #expect(r.status == 0 && r.stdout.hasPrefix("tonight \(BuildIdentity.version) (build "), "\(r.stdout)")
    }

    /// Each stage's peak is its own high-water mark, not the process's running maximum.
    @Test func peakMemoryIsPerStage() throws {
        let dir = temporaryDirectory("tonight-small-peak")
        _ = try DatasetGenerator(scale: .small, seed: 4).generate(into: dir)
        let work = temporaryDirectory()
        let run = try runner(inputs: dir, work: work).run()
        let peaks = try run.stages.map { try #require(RunStore(work: work).record(run: run.runId, stage: $0.stage)).peakMemoryBytes }
        #expect(peaks.allSatisfy { $0 > 0 })
        // A running maximum never goes down; per-stage peaks do.
        #expect(zip(peaks, peaks.dropFirst()).contains { $0 > $1 }, "\(peaks)")
    }

    /// Each stage records the process's CPU while it ran: with the stages one after another
    /// their sum is within the whole process's CPU (GNU time's), the ranking spends some, and
    /// a record written before the field existed still reads.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")))
    func cpuIsRecordedPerStage() throws {
        let dir = temporaryDirectory("tonight-small-cpu")
        _ = try DatasetGenerator(scale: .small, seed: 4).generate(into: dir)
        let work = temporaryDirectory()
        let config = work.appendingPathComponent("one-at-a-time.yaml"), times = work.appendingPathComponent("time.txt")
        try Data("runs:\n  stagesAtOnce: 1\n".utf8).write(to: config)
        let exe = try tonightExecutable().path
        let r = try shell("/usr/bin/time -f '%U %S' -o '\(times.path)' '\(exe)' run --inputs '\(dir.path)' --work '\(work.path)/w' --out '\(work.path)/o' --config '\(config.path)'")
        #expect(r.status == 0)
        let total = try String(contentsOf: times, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }.reduce(0, +)
        let store = RunStore(work: work.appendingPathComponent("w"))
        let id = try #require(store.runIDs().first)
        let records = try RunRecord.read(store.runDirectory(id).appendingPathComponent("run.json")).stages
            .map { try #require(store.record(run: id, stage: $0.stage)) }
        let cpu = try records.map { try #require($0.cpuSeconds, "\($0.stage)") }
        #expect(cpu.allSatisfy { $0 >= 0 }, "\(cpu)")
        // GNU time counts in hundredths; every stage's reading is a difference of the process's.
        #expect(cpu.reduce(0, +) <= total + 0.02, "stages \(cpu), process \(total)")
        #expect(try #require(records.first { $0.stage == "tickets" }?.cpuSeconds) > 0.01)

        var json = try #require(String(data: try JSONEncoder().encode(records[0]), encoding: .utf8))
        json = json.replacingOccurrences(of: #""cpuSeconds":"#, with: #""unknownField":"#)
        #expect(try JSONDecoder().decode(StageRecord.self, from: Data(json.utf8)).cpuSeconds == nil)
    }

    /// Progress lines, in each stage's unit, on a terminal (a pseudo-terminal made by `script`),
    /// and none when stderr is not a terminal.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnATerminalOnly() throws {
        let dir = temporaryDirectory("tonight-small-progress")
        _ = try DatasetGenerator(scale: .small, seed: 4).generate(into: dir)
        let work = temporaryDirectory()
        let exe = try tonightExecutable().path
        let log = work.appendingPathComponent("tty.log")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qc", "'\(exe)' run --inputs '\(dir.path)' --work '\(work.path)/w' --out '\(work.path)/o'", log.path]
        p.environment = ProcessInfo.processInfo.environment.merging(["TONIGHT_PROGRESS_AFTER": "0"]) { _, b in b }
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        for (stage, unit) in [("parse-feed", "MB"), ("load-tickets", "MB"), ("tickets", "users"), ("playmate", "players"),
                              ("catalog", "datasets"), ("publish", "files")] {
            #expect(text.contains("\(stage): ") && text.split(separator: "\r").contains { $0.contains("\(stage): ") && $0.contains(unit) },
                    "no \(unit) progress for \(stage)")
        }
        // Not a terminal: no progress.
        let plain = try runTonight(["run", "--inputs", dir.path, "--work", work.path + "/w2", "--out", work.path + "/o2"],
                                   environment: ["TONIGHT_PROGRESS_AFTER": "0"])
        #expect(plain.status == 0 && !plain.stderr.contains("\u{1b}[K"))
    }

    /// The next night on the same users is a quieter evening for `tonight` (fewer picks), not a
    /// failure: day-dependent datasets are unguarded by default; others still are.
    @Test func theNextNightIsNotRefusedForFewerPicks() throws {
        let dir = temporaryDirectory("tonight-small-nights")
        _ = try DatasetGenerator(scale: .small, seed: 11).generate(into: dir)
        let work = temporaryDirectory()
        try runner(inputs: dir, work: work).run()
        let night1 = try publishedManifest(work: work)
        let second = try runner(inputs: dir, work: work) { $0.asOf += 86_400; $0.date += 1 }.run()
        #expect(second.status == "completed")
        let night2 = try publishedManifest(work: work)
        #expect(night2.id != night1.id)
        #expect(night2.datasets["tonight"]!.records != night1.datasets["tonight"]!.records)
        // A guarded dataset still refuses a drop past its limit.
        var strict = TonightConfig()
        try strict.set(ConfigKeys.Publish.maxShrinkByDataset, ["explore": 0.0, "tonight": 1.0, "alerts": 1.0])
        let e = #expect(throws: TonightError.self) {
            try runner(inputs: dir, work: work, config: strict) { $0.asOf += 30 * 86_400; $0.date += 30 }.run()
        }
        #expect(e?.message.contains("publish refused") == true && e?.exitCode == 65, "\(String(describing: e))")
    }

    /// `runs gc` keeps the newest N, and what they reused from, and the run CURRENT came from.
    @Test func runsGCKeepsWhatIsStillNeeded() throws {
        let work = temporaryDirectory()
        let out = work.path + "/out"
        // Night 1 computes everything; nights 2–4 reuse most of it.
        for night in 0..<4 {
            let r = try runTonight(["run", "--work", work.path, "--out", out, "--as-of", "2026-01-1\(5 + night)T06:00:00Z"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let store = RunStore(work: work)
        let ids = store.runIDs()
        #expect(ids.count == 4)
        let newest = ids[0]
        let reusedFrom = Set(FileIO.list(store.runDirectory(newest)).compactMap { store.record(run: newest, stage: $0)?.reusedFrom })
        #expect(reusedFrom.contains(ids[3]))  // parse-feed was computed on night 1
        let gc = try runTonight(["runs", "gc", "--keep", "1", "--work", work.path, "--out", out])
        #expect(gc.status == 0, "\(gc.stderr)")
        let left = Set(store.runIDs())
        #expect(left.contains(newest) && reusedFrom.isSubset(of: left))
        #expect(left.count < 4, "\(left)")
        // What is left still reuses and publishes.
        #expect(try runTonight(["run", "--work", work.path, "--out", out, "--as-of", "2026-01-18T06:00:00Z"]).status == 0)
    }
}

/// The executable's hash is remembered in the work directory's hash cache, so a run does not
/// read the whole executable at every start; the cached identity is the process's own.
@Suite struct BuildIdentityCacheTests {
    @Test func theExecutablesHashIsCachedAndAgrees() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let cache = try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("hash-cache.json"))) as! [String: Any]
        let entry = try #require(cache[BuildIdentity.executable.standardizedFileURL.path] as? [String: Any])
        #expect(entry["sha256"] as? String == BuildIdentity.current.binary)
        #expect(BuildIdentity.of(cache: FileHashCache(work: work)) == BuildIdentity.current)
        #expect(runner(inputs: tinyInputs, work: work).buildIdentity == BuildIdentity.current)
    }
}
