import Foundation
import Testing
import TonightCore
import TonightSnapshot
@testable import TonightPipeline

/// The runner's scheduling rule (`StageSchedule`), replayed on the standard graph with
/// stage durations, and a real run side by side against one after another.
@Suite struct StageScheduleTests {
    /// Realistic full's stage seconds (Docs/BENCHMARKS.md), for a replay in virtual time.
    static let seconds: [String: Double] = [
        "parse-feed": 0.6, "parse-affinity": 0.23, "geocode": 0.27, "load-tickets": 1.1, "load-playmate": 1.8,
        "catalog": 1.9, "planner": 1.1, "tickets": 22, "alerts": 1.5, "playmate": 4.6, "publish": 7.9,
    ]

    struct Replay {
        var order: [String] = []
        /// (stage, start, end) in virtual seconds.
        var spans: [(stage: String, start: Double, end: Double)] = []
        var wall: Double = 0
    }

    /// Runs the whole standard plan through `schedule` in virtual time on `width` cores, the
    /// cores shared: a stage that uses every core does `seconds × width` core-seconds of work,
    /// another `seconds × 1`; running stages get cores in proportion to what they can use, so
    /// a stage beside another slows down when together they want more cores than there are.
    static func replay(width: Int, barrier: Bool = false, stages: [any Stage] = StageGraph.standard.stages) -> Replay {
        let schedule = StageSchedule(plan: stages.map(\.name), stages: stages, width: width, barrier: barrier)
        var states = Array(repeating: StageSchedule.State.waiting, count: stages.count)
        let cores = Double(width)
        let demand = stages.map { $0.usesEveryCore ? cores : 1 }
        var left: [Int: Double] = [:]  // core-seconds of work left, per running stage
        var started: [Int: Double] = [:]
        var now = 0.0
        var replay = Replay()
        while states.contains(where: { $0 != .done }) {
            for i in schedule.startable(states) {
                states[i] = .running
                left[i] = seconds[stages[i].name]! * demand[i]
                started[i] = now
                replay.order.append(stages[i].name)
            }
            guard !left.isEmpty else {
                Issue.record("nothing runs and nothing can start: \(states)")
                break
            }
            let share = min(1, cores / left.keys.map { demand[$0] }.reduce(0, +))
            let (next, dt) = left.map { ($0.key, $0.value / (demand[$0.key] * share)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }!
            now += dt
            for k in left.keys { left[k]! -= demand[k] * share * dt }
            left[next] = nil
            states[next] = .done
            replay.spans.append((stages[next].name, started[next]!, now))
        }
        replay.wall = now
        return replay
    }

    @Test func oneAtATimeIsThePlanOrder() {
        let replay = Self.replay(width: 1)
        #expect(replay.order == StageGraph.standard.stages.map(\.name))
        for (a, b) in zip(replay.spans, replay.spans.dropFirst()) { #expect(a.end <= b.start + 1e-9) }
        #expect(abs(replay.wall - Self.seconds.values.reduce(0, +)) < 1e-9)
    }

    @Test(arguments: [2, 3, 8])
    func sideBySideKeepsTheRules(width: Int) throws {
        let replay = Self.replay(width: width)
        let stages = Dictionary(uniqueKeysWithValues: StageGraph.standard.stages.map { ($0.name, $0) })
        #expect(Set(replay.order) == Set(stages.keys))
        let span = Dictionary(uniqueKeysWithValues: replay.spans.map { ($0.stage, $0) })
        for s in replay.spans {
            // Every upstream stage ended before the stage started.
            for up in stages[s.stage]!.upstreamStages { #expect(span[up]!.end <= s.start, "\(s.stage) before \(up) ended") }
            // At any start: at most `width` stages, never two that use every core.
            let beside = replay.spans.filter { $0.start <= s.start && s.start < $0.end }
            #expect(beside.count <= width)
            #expect(beside.filter { stages[$0.stage]!.usesEveryCore }.count <= 1, "\(beside.map(\.stage))")
        }
        // The loaders start at once; Playmate's branch does not wait for the feed.
        #expect(Set(replay.order.prefix(2)) == ["parse-feed", "load-playmate"])
        // Publish is last, after everything.
        #expect(replay.order.last == "publish" && span["publish"]!.start == replay.spans.map(\.end).filter { $0 <= span["publish"]!.start }.max())
        // The stages that do not use every core pair up (planner beside alerts, rather than
        // each sharing catalog's cores), and the run is shorter by what they overlap, the
        // cores being shared (2 cores: 43.0 -> 39.7 virtual seconds).
        #expect(span["planner"]!.start < span["alerts"]!.end && span["alerts"]!.start < span["planner"]!.end)
        #expect(span["load-playmate"]!.start < span["load-tickets"]!.end)
        #expect(replay.wall < Self.replay(width: 1).wall - 3, "\(replay.wall)")
    }

    /// A shard's per-user stages wait for every shared stage (the shared stages' lock is
    /// released then, for the next shard).
    @Test func aShardsPerUserStagesWaitForTheSharedOnes() {
        // A shard's plan: the per-user stages and what they read.
        var needed = Set(StageGraph.standard.stages.filter(\.isPerUser).map(\.name))
        for s in StageGraph.standard.stages.reversed() where needed.contains(s.name) { needed.formUnion(s.upstreamStages) }
        let plan = StageGraph.standard.stages.filter { needed.contains($0.name) }
        #expect(!plan.contains { $0.name == "publish" || $0.name == "catalog" })
        let replay = Self.replay(width: 4, barrier: true, stages: plan)
        #expect(replay.order.count == plan.count)
        let stages = Dictionary(uniqueKeysWithValues: plan.map { ($0.name, $0) })
        let lastShared = replay.spans.filter { !stages[$0.stage]!.isPerUser }.map(\.end).max()!
        let firstPerUser = replay.spans.filter { stages[$0.stage]!.isPerUser }.map(\.start).min()!
        #expect(firstPerUser >= lastShared)
        // The shared stages still run side by side.
        #expect(Set(replay.order.prefix(2)) == ["parse-feed", "load-playmate"])
    }

    /// A stage that fails while others run beside it: nothing new starts, the run fails at
    /// that stage, what finished beside it is recorded as run, what never started as not
    /// run, and nothing is published.
    @Test func aFailureBesideARunningStageStopsTheRun() throws {
        let inputs = copyOfTinyInputs()
        try "player,born\nX,1\n".write(to: inputs.appendingPathComponent("playmate/players.csv"), atomically: true, encoding: .utf8)
        var config = TonightConfig()
        try config.set(ConfigKeys.Runs.stagesAtOnce, 4)
        let work = temporaryDirectory("schedule-failure")
        #expect(throws: TonightError.self) { try runner(inputs: inputs, work: work, config: config).run() }
        let store = RunStore(work: work)
        let runID = try #require(store.runIDs().first)
        let run = try RunRecord.read(store.runDirectory(runID).appendingPathComponent("run.json"))
        #expect(run.status == "failed" && run.failedStage == "load-playmate")
        let action = Dictionary(uniqueKeysWithValues: run.stages.map { ($0.stage, $0.action) })
        #expect(action["load-playmate"] == "failed")
        #expect(action["playmate"] == "not run" && action["publish"] == "not run")
        // Every stage is either done (with its record), failed, or not run.
        for s in run.stages {
            switch s.action {
            case "run": #expect(store.record(run: runID, stage: s.stage) != nil, "\(s.stage)")
            case "failed": #expect(s.stage == "load-playmate")
            default: #expect(s.action == "not run" && store.record(run: runID, stage: s.stage) == nil, "\(s.stage): \(s.action)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out/snapshots/CURRENT").path))
    }

    /// A real run of the tiny inputs side by side (4 at once) and one after another: the same
    /// datasets, byte for byte.
    @Test func sideBySideWritesTheSameBytes() throws {
        var hashes: [Int: [String: String]] = [:]
        for n in [1, 4] {
            var config = TonightConfig()
            try config.set(ConfigKeys.Runs.stagesAtOnce, n)
            let work = temporaryDirectory("schedule-\(n)")
            let run = try runner(inputs: tinyInputs, work: work, config: config).run()
            #expect(run.status == "completed")
            #expect(run.stages.allSatisfy { $0.action == "run" && ($0.durationSeconds ?? -1) >= 0 })
            // The run record says when each stage started: after every stage it reads ended
            // (what the report's timeline draws).
            let entry = Dictionary(uniqueKeysWithValues: run.stages.map { ($0.stage, $0) })
            for s in StageGraph.standard.stages {
                let start = try #require(entry[s.name]?.startSeconds)
                for up in s.upstreamStages {
                    let u = try #require(entry[up])
                    #expect(start >= (u.startSeconds ?? .infinity) + (u.durationSeconds ?? 0) - 0.005, "\(s.name) started before \(up) ended")
                }
            }
            let wall = RunReport.wallSeconds(run), sum = run.stages.compactMap(\.durationSeconds).reduce(0, +)
            #expect(wall > 0 && (n == 1 ? abs(wall - sum) < 0.5 : wall <= sum + 0.05), "wall \(wall), stages \(sum)")
            let snapshot = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"), cacheBytes: 0)
            hashes[n] = snapshot.manifest.datasets.mapValues(\.sha256)
        }
        #expect(hashes[1]?.count == 23 && hashes[1] == hashes[4])
    }
}
