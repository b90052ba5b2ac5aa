import Foundation
import TonightBase
import TonightCore
import TonightExports
import TonightRanking
import TonightSnapshot
import TonightSnapshotWriter

/// `playmate`: every player's suggested sessions, statistics and upcoming sessions (`sessions`,
/// `player_stats`, `upcoming_sessions`; players ranked on all cores, output in id byte order),
/// every session by id (`playmate_sessions`) and the open sessions per geohash cell
/// (`open_sessions`).
package struct PlaymateStage: Stage {
    package init() {}

    package let name = "playmate"
    package let usesEveryCore = true
    package let summary = "per-player suggested sessions and statistics (Playmate)"
    package let inputs: [StageInput] = [.stage("load-playmate")]
    package let configKeys = RankingConfig.playmateKeys + [ConfigKeys.Catalog.geohashPrecision] + DatasetFiles.configKeys
    package let readsAsOf = true
    package static let datasetNames = ["sessions", "player_stats", "upcoming_sessions", "playmate_sessions", "open_sessions"]
    /// Players per block: each block is ranked on all cores, then handed to the writer.
    static let blockSize = 16_384
    /// Chunks of a block per worker (load balance against the chunks' fixed cost).
    static let chunksPerWorker = 8
    package var tables: [String] { Self.datasetNames }
    package var datasets: [String] { Self.datasetNames }
    /// `playmate_sessions` (every session by id) and `open_sessions` (by cell) are written by
    /// shard 0 alone.
    package var shardedDatasets: [String] { ["sessions", "player_stats", "upcoming_sessions"] }

    package func run(_ context: StageContext) throws -> StageOutcome {
        var clock = PhaseClock()
        let settings = try RankingConfig.settings(context.config, asOf: context.asOf, runDate: context.runDate)
        // The two tables on one core each (read one after the other, they left a core idle);
        // when both are damaged, the players' error is the one reported, as before.
        let (readPlayers, readSessions) = Parallel.pair(
            { Result { try context.read(.players) } }, { Result { try context.read(.sessions) } })
        let players = try readPlayers.get(), sessions = try readSessions.get()
        clock.lap("read")
        try Self.checkIndices(players: players, sessions: sessions, file: try context.url(of: StageTable.sessions).path)
        let ranker = PlaymateRanker(players: players, sessions: sessions, settings: settings)
        // The players this stage ranks (a shard's, or all), in id byte order.
        let owned = context.shard == nil ? Array(players.indices) : players.indices.filter { context.owns(players[$0].id) }
        let order = UTF8Order.sortedIndices(owned.map { players[$0].id }).map { owned[$0] }
        let workers = Parallel.width
        clock.lap("prepare")
        var files = DatasetFiles(context, stage: self)
        let sink = PlayerSink(
            suggestions: try files.writer("sessions"), stats: try files.writer("player_stats"),
            upcoming: try files.writer("upcoming_sessions"), ids: order.map { players[$0].id })
        context.progress.measure(.players, total: Int64(order.count))
        // Every session by id (what suggestions and the apps' session pages point at) and the
        // open sessions per cell: not keyed by player, so shard 0 writes them for all, on a
        // thread of their own while the players are ranked (their JSON is built on one core:
        // after the ranking, it left the other idle).
        let writesSessions = (context.shard?.index ?? 0) == 0
        let pages = Locked<(summaries: [DatasetWriter.Summary], cells: Int)>(([], 0))
        let sessionPages = BackgroundJob()
        if writesSessions {
            let shape = files, precision = context.config[ConfigKeys.Catalog.geohashPrecision]
            sessionPages.start {
                do {
                    var json = JSONWriter(capacity: 1 << 12)
                    var all = try shape.writer("playmate_sessions")
                    for i in UTF8Order.sortedIndices(sessions.map(\.id)) {
                        try all.append(key: sessions[i].id, json: ranker.sessionRecordJSON(i, &json))
                    }
                    let cells = ranker.openSessionRecords(precision: precision)
                    var open = try shape.writer("open_sessions")
                    for r in cells { try open.append(key: r.key, json: r.json) }
                    let summaries = [try all.finish(), try open.finish()]
                    pages.withLock { $0 = (summaries, cells.count) }
                } catch let e as SnapshotError {
                    throw TonightError(e)
                }
            }
        }
        defer { try? sessionPages.join() }
        // Blocks of players ranked on all cores while a writer thread appends the previous
        // block's records, as in `tickets` (`RankedBlocks`). Each chunk writes its records
        // back to back into a batch (one buffer per dataset), which the writer compresses
        // where they lie; a record's owner is the player's place in `order` (the sink's keys
        // in order).
        let blocks = RankedBlocks<PlayerBatch, PlaymateScratch>(count: order.count, blockSize: Self.blockSize, chunksPerWorker: Self.chunksPerWorker)
        _ = try blocks.run(
            scratches: (0..<workers).map { _ in PlaymateScratch(sessions: sessions.count) },
            fill: { range, scratch, batch in
                for k in range {
                    let u = order[k]
                    let list = ranker.suggestions(for: u, scratch: &scratch)
                    if ranker.writeSessions(u, list, to: &batch.records[PlayerSink.suggestions].json) {
                        batch.records[PlayerSink.suggestions].commit(owner: k, length: list.count)
                    }
                    ranker.writeStats(u, ranker.stats(for: u), to: &batch.records[PlayerSink.stats].json)
                    batch.records[PlayerSink.stats].commit(owner: k)
                    if ranker.writeUpcomingSessions(u, to: &batch.records[PlayerSink.upcoming].json) {
                        batch.records[PlayerSink.upcoming].commit(owner: k)
                    }
                }
            },
            write: { try sink.write($0) },
            blockDone: { context.progress.update(done: Int64($0)) })
        for summary in try sink.finishAll() { try files.add(summary) }
        clock.lap("rank")
        try sessionPages.join()
        let cellForm = SnapshotManifest.KeyForm(geohashLength: context.config[ConfigKeys.Catalog.geohashPrecision])
        for summary in pages.current.summaries { try files.add(summary, keyForm: summary.name == "open_sessions" ? cellForm : nil) }
        try files.finish()
        clock.lap("finish")
        var outcome = StageOutcome()
        for (k, v) in clock.laps { outcome.details["seconds.\(k)"] = String(format: "%.2f", v) }
        outcome.rows = ["players": owned.count, "sessions": sink.records[0], "player_stats": sink.records[1],
                        "upcoming_sessions": sink.records[2], "playmate_sessions": writesSessions ? sessions.count : 0,
                        "open_sessions": pages.current.cells]
        outcome.recordLengths("sessions", sink.lengths, users: owned.count, shard: context.shard)
        return outcome
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }

    /// Every player index of the tables points into the players table (`-1`: a creator who is
    /// not a known player), so a damaged table cannot send the ranker out of bounds.
    static func checkIndices(players: [PlaymatePlayer], sessions: [PlaymateSession], file: String) throws {
        let n = Int32(clamping: players.count)
        let bad = players.contains { $0.friends.contains { $0 < 0 || $0 >= n } }
            || sessions.contains { $0.creator < -1 || $0.creator >= n || $0.joined.contains { $0 < 0 || $0 >= n } }
        if bad {
            throw TonightError(.invalidInput, "a player index of the load-playmate tables is out of range", file: file,
                               hint: "re-run load-playmate with --force")
        }
    }
}

/// The writer side of the playmate pipeline: appends batches to the three per-player datasets
/// in order, on the writer thread only (the stage reads it again after `join`).
final class PlayerSink: @unchecked Sendable {
    /// sessions, player_stats, upcoming_sessions (one array, so that `finishAll` takes the
    /// writers themselves, not copies that share their buffers), at these indexes, which are
    /// also those of a batch's records.
    private var writers: [DatasetWriter]
    static let (suggestions, stats, upcoming) = (0, 1, 2)
    /// The ranked players' ids in the order they are written (a record's owner indexes it).
    private let ids: [String]
    /// Each suggestion list's length, in key order.
    private(set) var lengths: [Int] = []
    /// Records of each dataset (sessions, player_stats, upcoming_sessions), once finished.
    private(set) var records: [Int] = []

    init(suggestions: consuming DatasetWriter, stats: consuming DatasetWriter, upcoming: consuming DatasetWriter,
         ids: [String]) {
        writers = [suggestions, stats, upcoming]
        self.ids = ids
    }

    /// Finishes the three datasets side by side (on all cores); the sink is spent afterwards.
    func finishAll() throws -> [DatasetWriter.Summary] {
        let summaries = try DatasetWriter.finishAll(&writers)
        records = summaries.map(\.records)
        return summaries
    }

    func write(_ parts: [PlayerBatch]) throws {
        for batch in parts {
            for d in writers.indices {
                try batch.records[d].write(to: &writers[d]) { ids[$0] }
            }
            lengths += batch.records[Self.suggestions].lengths
        }
    }
}

/// One chunk's records of a block of players, per dataset (`PlayerSink`'s indexes).
struct PlayerBatch: RecycledBatch {
    var records = [BatchedRecords](repeating: BatchedRecords(), count: 3)

    /// Empties every buffer, keeping its storage (batches are recycled block to block).
    mutating func removeAll() {
        for d in records.indices { records[d].removeAll() }
    }
}
