/// Which of a plan's stages may start now: the runner's scheduling rule, apart from the
/// threads that carry it out (`StageRunner+Schedule.swift`), so that tests can replay it.
///
/// A stage starts once every upstream stage of the plan is done, while fewer than `width`
/// stages run, and never beside another stage that uses every core (`Stage.usesEveryCore`:
/// catalog, tickets, playmate, publish), so the mostly single-threaded stages (loaders,
/// planner, alerts) fill the cores the others leave idle without two heavy stages halving
/// each other or adding their peaks. Among the ready stages, those that do not use every
/// core start first (so that they pair with each other rather than share a heavy stage's
/// cores), then the plan's (topological) order decides. A shard's per-user stages wait
/// until every shared stage before them is done (a shard's plan is its per-user stages and
/// what they read, so that is all of them; the shared stages' lock is then released for the
/// next shard). `width` 1 is the old order: one stage after another, in plan order.
struct StageSchedule: Sendable {
    enum State: Sendable, Equatable { case waiting, running, done, failed }

    /// Upstream entries of each entry (indices into the plan, all smaller than its own).
    let upstream: [[Int]]
    let usesEveryCore: [Bool]
    /// Entries that wait for every entry before them in the plan that does not wait so (a
    /// shard's per-user stages wait for all its shared stages, which come first).
    let afterShared: [Bool]
    /// Most stages running at once (at least 1).
    let width: Int

    init(upstream: [[Int]], usesEveryCore: [Bool], afterShared: [Bool]? = nil, width: Int) {
        precondition(upstream.count == usesEveryCore.count)
        self.upstream = upstream
        self.usesEveryCore = usesEveryCore
        self.afterShared = afterShared ?? Array(repeating: false, count: upstream.count)
        self.width = max(1, width)
    }

    /// The plan's schedule: `names[i]`'s upstream stages are `stages[i].upstreamStages` that
    /// the plan holds.
    init(plan names: [String], stages: [any Stage], width: Int, barrier: Bool) {
        let position = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        self.init(upstream: stages.map { s in s.upstreamStages.compactMap { position[$0] }.sorted() },
                  usesEveryCore: stages.map(\.usesEveryCore),
                  afterShared: stages.map { barrier && $0.isPerUser },
                  width: width)
    }

    /// The entries to start now, given every entry's state: the ready stages that do not use
    /// every core first (two of them side by side use two cores; one beside a stage that
    /// already keeps every core busy only shares them), then a stage that does, each group in
    /// plan order. One at a time (`width` 1), the plan order alone.
    func startable(_ states: [State]) -> [Int] {
        var running = states.filter { $0 == .running }.count
        var heavy = states.indices.contains { states[$0] == .running && usesEveryCore[$0] }
        let ready = states.indices.filter { i in
            states[i] == .waiting && upstream[i].allSatisfy { states[$0] == .done }
                && !(afterShared[i] && !(0..<i).allSatisfy { afterShared[$0] || states[$0] == .done })
        }
        let order = width == 1 ? ready : ready.filter { !usesEveryCore[$0] } + ready.filter { usesEveryCore[$0] }
        var start: [Int] = []
        for i in order {
            guard running < width else { break }
            if usesEveryCore[i] && heavy { continue }
            start.append(i)
            running += 1
            heavy = heavy || usesEveryCore[i]
        }
        return start.sorted()
    }
}
