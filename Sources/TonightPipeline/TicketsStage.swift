import Foundation
import TonightAffinity
import TonightBase
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo
import TonightRanking
import TonightSnapshot
import TonightSnapshotWriter

/// `tickets`: every Tickets Tonight user's explore deck, favourites feed and tonight's picks,
/// written as snapshot datasets: a pure function of the inputs and the config (alerts, which
/// compare with the previous night, are a stage of their own). Users are ranked on
/// both cores in blocks while a writer thread compresses the previous block; output is in
/// user-id byte order, identical for any thread count.
package struct TicketsStage: Stage {
    package init() {}

    package let name = "tickets"
    package let usesEveryCore = true
    package let summary = "per-user explore deck, favourites feed and tonight's picks (Tickets Tonight)"
    package let inputs: [StageInput] = [.stage("parse-affinity"), .stage("geocode"), .stage("load-tickets")]
    package let configKeys = RankingConfig.ticketsKeys + DatasetFiles.configKeys
    package let readsAsOf = true
    package static let datasetNames = ["explore", "feed", "tonight"]
    package var tables: [String] { Self.datasetNames }
    package var datasets: [String] { Self.datasetNames }
    package var shardedDatasets: [String] { Self.datasetNames }

    /// Users per block: each block is ranked on all cores, then handed to the writer.
    static let blockSize = 8_192
    /// Chunks of a block per worker (load balance against the chunks' fixed cost).
    static let chunksPerWorker = 8
    /// One user in this many (`inShapeSample`) has the events in their reach counted for the
    /// `shape.*` details.
    static let shapeSample = 1_000

    package func run(_ context: StageContext) throws -> StageOutcome {
        let began = DispatchTime.now().uptimeNanoseconds
        let settings = try RankingConfig.settings(context.config, asOf: context.asOf, runDate: context.runDate)
        let located = try context.read(.locatedEvents)
        let venues = try context.read(.placedVenues)
        let edges = try context.read(.affinityEdges)
        // The index on a thread of its own while the users are read on every core (runs of
        // rows decoded side by side: inside `Parallel.both` they ran on one core, since a
        // nested parallel loop runs serially), then put in id-byte order (below).
        let built = Locked<(EventIndex, Double)?>(nil)
        let indexJob = BackgroundJob()
        indexJob.start {
            let t = DispatchTime.now().uptimeNanoseconds
            let index = EventIndex(events: located, venues: venues, edges: edges.map { ($0.source, $0.target, $0.score) }, settings: settings)
            built.withLock { $0 = (index, Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9) }
        }
        // A failed read of the users must not leave the index being built after the stage
        // has failed (`join` is safe to call twice).
        defer { try? indexJob.join() }
        let t = DispatchTime.now().uptimeNanoseconds
        var t1 = t
        let (users, placeOf, places) = try { () throws -> (TicketsUsers, [Int32], SharedPlaces) in
            // The table's bytes and its scan are released when this closure returns.
            let scan = try context.scanTicketsUsers()
            t1 = DispatchTime.now().uptimeNanoseconds
            // Two one-core steps side by side: the users' order by id bytes, and the numbering
            // of the places users share (once for all the rankers). Then each row's lists are
            // decoded on every core straight into the id order (the datasets' order, in which
            // users are ranked and written), so the ranking loop reads every column front to back.
            let (order, places) = try Parallel.both({ scan.orderByID() }, { SharedPlaces(scan, settings: settings) })
            return (try TicketsUsers(scan, order: order), order.map { places.placeOf[$0] }, places)
        }()
        let t2 = DispatchTime.now().uptimeNanoseconds
        let (usersSeconds, orderSeconds) = (Double(t2 - t) / 1e9, Double(t2 - t1) / 1e9)
        try indexJob.join()
        let (index, indexSeconds) = built.withLock { $0! }
        let readInputs = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9 - max(usersSeconds, indexSeconds)

        var files = DatasetFiles(context, stage: self)
        let writers = try Self.datasetNames.map { try files.writer($0) }
        let workers = Parallel.width
        context.progress.measure(.users, total: Int64(users.count))
        // One ranker per worker for the whole stage (its buffers are reused), lent to one
        // chunk at a time; the orders of shared places (`places`) are computed once for all of them.
        let rankers = (0..<workers).map { _ in RankerBox(TicketsRanker(index: index, settings: settings, places: places)) }
        let sink = TicketsSink(writers: consume writers, users: users)
        let prepared = DispatchTime.now().uptimeNanoseconds
        let blocks = RankedBlocks<TicketsBatch, RankerBox>(count: users.count, blockSize: Self.blockSize, chunksPerWorker: Self.chunksPerWorker)
        let rankNanos = try blocks.run(
            scratches: rankers,
            fill: { range, ranker, batch in Self.rank(users, range, places: placeOf, ranker: &ranker.value, into: &batch) },
            write: { try sink.write($0) },
            blockDone: { context.progress.update(done: Int64($0)) })
        let ranked = DispatchTime.now().uptimeNanoseconds
        var outcome = StageOutcome()
        // prepare: inputs read, users sorted, index and alerts built; rank + write overlap.
        outcome.details["seconds.prepare"] = String(format: "%.2f", Double(prepared - began) / 1e9)
        outcome.details["seconds.prepare.inputs"] = String(format: "%.2f", readInputs)
        outcome.details["seconds.prepare.users"] = String(format: "%.2f", usersSeconds)
        outcome.details["seconds.prepare.users.orderAndPlaces"] = String(format: "%.2f", orderSeconds)
        outcome.details["seconds.prepare.index"] = String(format: "%.2f", indexSeconds)
        outcome.details["seconds.rank"] = String(format: "%.2f", Double(rankNanos) / 1e9)
        outcome.details["seconds.write"] = String(format: "%.2f", Double(sink.writeNanos) / 1e9)
        outcome.details["seconds.rankAndWrite"] = String(format: "%.2f", Double(ranked - prepared) / 1e9)
        outcome.rows["users"] = users.count
        // The three datasets finished side by side.
        let summaries = try sink.finishAll()
        for (d, name) in Self.datasetNames.enumerated() {
            let summary = summaries[d]
            try files.add(summary)
            outcome.rows[name] = summary.records
            outcome.recordLengths(name, sink.lengths[d], users: users.count, shard: context.shard)
        }
        outcome.details["seconds.finish"] = String(format: "%.2f", Double(DispatchTime.now().uptimeNanoseconds - ranked) / 1e9)
        outcome.details["upcomingEvents"] = String(index.events.count)
        outcome.recordShape("candidates", sink.candidates.map(Int.init), label: "users")
        outcome.recordShape("eventsInReach", sink.inReach.map(Int.init), label: "located users (1 in \(Self.shapeSample) sampled)")
        try files.finish()
        return outcome
    }

    /// Whether the user of id `id` (UTF-8 bytes) is in the sample whose events in reach are
    /// counted: 1 in `shapeSample` by the high half of the id's FNV-1a hash (a property of the
    /// user, so a merge of shards has the same sample as one run; the low half picks the shard).
    static func inShapeSample(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
        (Shard.fnv1a(UnsafeRawBufferPointer(id)) >> 32) % UInt64(shapeSample) == 0
    }

    /// Ranks the users at `positions` (indexes into `users`) and appends their records to
    /// `batch`. The ranker is passed `inout`: reading it out of its box copied the whole
    /// struct (every buffer retained and released) once per user. Users are read as views
    /// of the table's columns (a `TicketsUser` value retained and released its arrays at
    /// every call: ~1 % of the stage).
    static func rank(
        _ users: TicketsUsers, _ positions: Range<Int>, places: [Int32], ranker: inout TicketsRanker, into batch: inout TicketsBatch
    ) {
        for k in positions {
            let user = users[k]
            ranker.rank(user, place: places[k])
            batch.candidates.append(Int32(clamping: ranker.candidateCount))
            if inShapeSample(users.idBytes(k)), let n = ranker.eventsInReach(user) { batch.inReach.append(Int32(clamping: n)) }
            let id = users.id(k)
            if ranker.lists.writeExplore(user: id, to: &batch.records[0].json) {
                batch.records[0].commit(owner: k, length: ranker.lists.explore.count)
            }
            if ranker.lists.writeFeed(user: id, to: &batch.records[1].json) {
                batch.records[1].commit(owner: k, length: ranker.lists.feed.count)
            }
            if ranker.lists.writeTonight(user: id, to: &batch.records[2].json) {
                batch.records[2].commit(owner: k, length: ranker.lists.tonight.count)
            }
        }
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }
}

/// A ranker owned by one worker thread (the workers never share one).
final class RankerBox: @unchecked Sendable {
    var value: TicketsRanker
    init(_ value: TicketsRanker) { self.value = value }
}

/// One worker's records of a block, per dataset (explore, feed, tonight).
struct TicketsBatch: RecycledBatch {
    var records = [BatchedRecords](repeating: BatchedRecords(), count: TicketsStage.datasetNames.count)
    /// Explore candidates of every user ranked, and events in reach of the sampled located
    /// users (the data set's shape: `TicketsStage.shapeSample`).
    var candidates: [Int32] = []
    var inReach: [Int32] = []

    /// Empties every buffer, keeping its storage (batches are recycled block to block).
    mutating func removeAll() {
        for d in records.indices { records[d].removeAll() }
        candidates.removeAll(keepingCapacity: true)
        inReach.removeAll(keepingCapacity: true)
    }
}

/// The writer side of the tickets pipeline: appends batches to the dataset writers, in
/// order, on the writer thread only (the stage touches it again after `join`).
final class TicketsSink: @unchecked Sendable {
    private var writers: [DatasetWriter]
    private let users: TicketsUsers
    private(set) var lengths: [[Int]]
    private(set) var writeNanos: UInt64 = 0
    /// The batches' shape measures, in user order.
    private(set) var candidates: [Int32] = []
    private(set) var inReach: [Int32] = []

    init(writers: [DatasetWriter], users: TicketsUsers) {
        self.writers = writers
        self.users = users
        lengths = Array(repeating: [], count: writers.count)
    }

    func write(_ parts: [TicketsBatch]) throws {
        let t0 = DispatchTime.now().uptimeNanoseconds
        for part in parts {
            for d in writers.indices {
                try part.records[d].write(to: &writers[d]) { users.id($0) }
                lengths[d] += part.records[d].lengths
            }
            candidates += part.candidates
            inReach += part.inReach
        }
        writeNanos += DispatchTime.now().uptimeNanoseconds - t0
    }

    /// Finishes every dataset, on all cores; the sink is spent afterwards.
    func finishAll() throws -> [DatasetWriter.Summary] {
        try DatasetWriter.finishAll(&writers)
    }
}
