import Foundation
import TonightAffinity
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo
import TonightRanking
import TonightSnapshot

/// `tickets`: every Tickets Tonight user's explore deck, favourites feed, tonight's picks and
/// alerts (against the published snapshot), written as snapshot datasets. Users are ranked on
/// both cores in blocks; output is in user-id byte order, identical for any thread count.
package struct TicketsStage: Stage {
    package init() {}

    package let name = "tickets"
    package let summary = "per-user explore, feed, tonight and alerts (Tickets Tonight)"
    package let inputs: [StageInput] = [
        .stage("parse-affinity"), .stage("geocode"), .stage("load-tickets"), .publishedSnapshot,
    ]
    package let configKeys = RankingConfig.ticketsKeys + DatasetFiles.configKeys
    package let implementationVersion = 2
    package let readsAsOf = true
    package static let datasetNames = ["explore", "feed", "tonight", "alerts"]
    package var tables: [String] { Self.datasetNames }
    package var datasets: [String] { Self.datasetNames }

    /// Users per block: each block is ranked on all cores, then written.
    static let blockSize = 8_192

    package func run(_ context: StageContext) throws -> StageOutcome {
        let settings = try RankingConfig.settings(context.config, asOf: context.asOf, runDate: context.runDate)
        let geoDir = context.upstream["geocode"]!
        let located = try BinaryTable.read(LocatedEvent.self, table: "events", from: geoDir.appendingPathComponent("events.bin"))
        let venues = try BinaryTable.read(GeocodedVenue.self, table: "venues", from: geoDir.appendingPathComponent("venues.bin"))
        let edges = try BinaryTable.read(AffinityEdge.self, table: "edges",
                                         from: context.upstream["parse-affinity"]!.appendingPathComponent("edges.bin"))
        var users = try BinaryTable.read(TicketsUser.self, table: "users",
                                         from: context.upstream["load-tickets"]!.appendingPathComponent("users.bin"))
        users.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        let index = EventIndex(events: located, venues: venues, edges: edges.map { ($0.source, $0.target, $0.score) },
                               settings: settings)
        let alerts = try alertsBuilder(context, users: users, located: located)

        var files = DatasetFiles(directory: context.outputDirectory, config: context.config)
        var writers = try Self.datasetNames.map { try DatasetWriter(
            name: $0, directory: context.outputDirectory, frameBytes: files.frameBytes, level: files.level) }
        var lengths = [[Int]](repeating: [], count: 4)
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        context.progress.begin(stage: name, totalBytes: Int64(users.count))
        defer { context.progress.end() }
        // One ranker per worker for the whole stage (its place cache spans blocks); worker w
        // only ever touches rankers[w].
        let shared = TicketsRanker.sharedPlaces(users, settings: settings)
        let rankers = (0..<workers).map { _ in RankerBox(TicketsRanker(index: index, settings: settings, sharedPlaces: shared)) }
        var start = 0
        var rankNanos: UInt64 = 0, writeNanos: UInt64 = 0
        while start < users.count {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let block = Array(users[start..<min(users.count, start + Self.blockSize)])
            // Each worker ranks a contiguous slice; slices are concatenated in order.
            let parts = try Parallel.map(workers) { w -> [[(String, [UInt8], Int)]] in
                let ranker = rankers[w]
                var json = JSONWriter(capacity: 1 << 14)
                var out = [[(String, [UInt8], Int)]](repeating: [], count: 4)
                let from = block.count * w / workers, to = block.count * (w + 1) / workers
                for u in block[from..<to] {
                    let lists = ranker.value.lists(for: u)
                    if let j = lists.exploreJSON(user: u.id, index, &json) { out[0].append((u.id, j, lists.explore.count)) }
                    if let j = lists.feedJSON(user: u.id, index, &json) { out[1].append((u.id, j, lists.feed.count)) }
                    if let j = lists.tonightJSON(user: u.id, index, &json) { out[2].append((u.id, j, lists.tonight.count)) }
                    if let a = alerts {
                        let list = a.alerts(follows: u.follows)
                        if let j = AlertsBuilder.json(user: u.id, list, &json) { out[3].append((u.id, j, list.count)) }
                    }
                }
                return out
            }
            let t1 = DispatchTime.now().uptimeNanoseconds
            for part in parts {
                for d in 0..<4 {
                    for (k, j, n) in part[d] {
                        try writers[d].append(key: k, json: j)
                        lengths[d].append(n)
                    }
                }
            }
            writeNanos += DispatchTime.now().uptimeNanoseconds - t1
            rankNanos += t1 - t0
            start += block.count
            context.progress.update(bytes: Int64(start), records: Int64(start))
        }
        var outcome = StageOutcome()
        outcome.details["seconds.rank"] = String(format: "%.2f", Double(rankNanos) / 1e9)
        outcome.details["seconds.write"] = String(format: "%.2f", Double(writeNanos) / 1e9)
        outcome.rows["users"] = users.count
        for (d, name) in Self.datasetNames.enumerated() {
            try files.add(try writers[d].finish())
            outcome.rows[name] = writers[d].records
            outcome.details["length.\(name)"] = Self.distribution(lengths[d], users: users.count)
        }
        outcome.details["upcomingEvents"] = String(index.events.count)
        outcome.details["alerts"] = alerts == nil ? "no published snapshot: no alerts" : "against the published snapshot"
        try files.finish()
        return outcome
    }

    /// The alerts builder, or nil when nothing is published yet.
    func alertsBuilder(_ context: StageContext, users: [TicketsUser], located: [LocatedEvent]) throws -> AlertsBuilder? {
        let root = context.outDirectory.appendingPathComponent("snapshots")
        guard try SnapshotDirectory(root: root).checkedCurrentID() != nil else { return nil }
        let followed = Set(users.flatMap(\.follows).map(EventID.format))
        var old: [String: AlertsBuilder.Facts] = [:]
        do {
            let events = try Snapshot.openCurrent(in: root, cacheBytes: 0).dataset("events")
            let decoder = JSONDecoder()
            try events.forEachRecord { json in
                guard let key = Self.recordKey(json), followed.contains(key) else { return }
                let e = try decoder.decode(CatalogEvent.self, from: Data(json))
                old[key] = .init(venue: e.venue, startsAt: e.startsAt, status: e.status.map(Int64.init))
            }
        } catch let e as SnapshotError {
            throw TonightError(.invalidInput, "the published snapshot cannot be read for alerts: \(e.message)", file: e.file,
                               hint: "verify it with `tonight snapshot verify`; roll back if it is damaged")
        }
        var new: [String: AlertsBuilder.Facts] = [:]
        for l in located {
            new[l.event.idString] = .init(venue: l.event.venue, startsAt: CivilTime.formatUTC(l.event.startsAt), status: l.event.status)
        }
        return AlertsBuilder(old: old, new: new)
    }

    /// The key of a record line `{"key":"…",…}` (event ids need no unescaping).
    static func recordKey(_ json: [UInt8]) -> String? {
        let prefix = 8  // {"key":"
        guard json.count > prefix, let end = json[prefix...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: json[prefix..<end], as: UTF8.self)
    }

    /// "users with a list, min/median/p90/max length".
    static func distribution(_ lengths: [Int], users: Int) -> String {
        guard !lengths.isEmpty else { return "0 of \(users) users have a list" }
        let s = lengths.sorted()
        return "\(s.count) of \(users) users; length min \(s[0]) median \(s[s.count / 2]) p90 \(s[s.count * 9 / 10]) max \(s.last!)"
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }
}

/// A ranker owned by one worker thread (the task group never shares one between workers).
final class RankerBox: @unchecked Sendable {
    var value: TicketsRanker
    init(_ value: TicketsRanker) { self.value = value }
}
