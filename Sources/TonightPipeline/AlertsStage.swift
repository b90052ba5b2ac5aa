import Foundation
import TonightBase
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo
import TonightRanking
import TonightSnapshot

/// `alerts`: changes to the events each user follows, against the previous night's published
/// snapshot, and `following` (the followed events still in the feed) (the newest whose run date is before this run's; recommendations.md). The
/// baseline is this stage's input alone, so a re-run of the same night reuses everything, and
/// a damaged baseline falls back to the next older valid one (see `StageRunner.baseline`).
package struct AlertsStage: Stage {
    package init() {}

    package let name = "alerts"
    package let summary = "per-user alerts about followed events that changed since the previous night's snapshot"
    package let inputs: [StageInput] = [.stage("geocode"), .stage("load-tickets"), .previousNight]
    package let configKeys: [any AnyConfigKey] = DatasetFiles.configKeys
    package let readsAsOf = true
    package static let datasetNames = ["alerts", "following"]
    package var tables: [String] { Self.datasetNames }
    package var datasets: [String] { Self.datasetNames }
    package var shardedDatasets: [String] { Self.datasetNames }
    package var shardInvariantRows: Set<String> { ["changedEvents"] }

    package func run(_ context: StageContext) throws -> StageOutcome {
        let located = try context.read(.locatedEvents)
        var users = try context.read(.ticketsUsers, row: TicketsUser.readIDAndFollows)
        if context.shard != nil { users.removeAll { !context.owns($0.id) } }
        var outcome = StageOutcome()
        var files = DatasetFiles(directory: context.outputDirectory, config: context.config)
        var builder: AlertsBuilder?
        if let baseline = context.baseline {
            builder = try Self.builder(baseline: baseline, located: located)
            outcome.details["baseline"] = baseline.lastPathComponent
        } else {
            outcome.details["baseline"] = "none (no snapshot of an earlier night): no alerts"
        }
        // Users with an alert are few: found first, then sorted by id bytes.
        var found: [(id: String, alerts: [AlertsBuilder.Alert])] = []
        context.progress.measure(.users, total: Int64(users.count))
        if let builder, !builder.changed.isEmpty {
            for (n, u) in users.enumerated() where !u.follows.isEmpty {
                if n % 65_536 == 0 { context.progress.update(done: Int64(n)) }
                let list = builder.alerts(follows: u.follows)
                if !list.isEmpty { found.append((u.id, list)) }
            }
        }
        let order = UTF8Order.sortedIndices(found.map(\.id))
        var json = JSONWriter(capacity: 1 << 12)
        var lengths: [Int] = []
        try files.write("alerts") { w in
            for k in order {
                _ = AlertsBuilder.write(user: found[k].id, found[k].alerts, to: &json)
                try w.append(key: found[k].id, json: json.take())
                lengths.append(found[k].alerts.count)
            }
        }
        let following = try Self.writeFollowing(users, located: located, changed: builder?.changed ?? [:], files: &files)
        try files.finish()
        outcome.rows = ["alerts": found.count, "users": users.count, "changedEvents": builder?.changed.count ?? 0,
                        "following": following.count]
        outcome.recordLengths("following", following, users: users.count, shard: context.shard)
        outcome.recordLengths("alerts", lengths, users: users.count, shard: context.shard)
        return outcome
    }

    /// `following`: per user, the followed events still in the feed, by startsAt then id, each
    /// with its current venue, start and status, and `alert: true` when tonight's alerts speak
    /// of it. Returns the list lengths.
    static func writeFollowing(
        _ users: [(id: String, follows: [UInt64])], located: [LocatedEvent], changed: [UInt64: [AlertsBuilder.Alert]],
        files: inout DatasetFiles
    ) throws -> [Int] {
        var inFeed: [UInt64: Int] = [:]
        for (i, l) in located.enumerated() { inFeed[l.event.id] = i }
        let order = UTF8Order.sortedIndices(users.map(\.id))
        var json = JSONWriter(capacity: 1 << 12)
        var lengths: [Int] = []
        try files.write("following") { w in
            for k in order where !users[k].follows.isEmpty {
                let events = Set(users[k].follows).compactMap { inFeed[$0] }.map { located[$0].event }
                    .sorted { ($0.startsAt, $0.idString) < ($1.startsAt, $1.idString) }
                guard !events.isEmpty else { continue }
                json.beginKeyedList(users[k].id)
                for e in events {
                    json.beginObject()
                    json.field("event", e.idString)
                    json.field("venue", e.venue)
                    json.field("startsAt", CivilTime.formatUTC(e.startsAt))
                    json.field("status", e.status)
                    if changed[e.id] != nil { json.field("alert", true) }
                    json.endObject()
                }
                try w.append(key: users[k].id, json: json.endKeyedList())
                lengths.append(events.count)
            }
        }
        return lengths
    }

    /// The facts alerts compare: the baseline's published events against this run's.
    static func builder(baseline: URL, located: [LocatedEvent]) throws -> AlertsBuilder {
        var old: [UInt64: AlertsBuilder.Facts] = [:]
        do {
            let events = try Snapshot(directory: baseline, cacheBytes: 0).dataset("events")
            let decoder = JSONDecoder()
            try events.forEachRecord { json in
                guard let id = Self.recordEventID(json) else { return }
                let e = try decoder.decode(AlertFacts.self, from: Data(json))
                old[id] = .init(venue: e.venue, startsAt: e.startsAt, status: e.status)
            }
        } catch let e as SnapshotError {
            throw TonightError(.invalidInput, "the alerts baseline cannot be read: \(e.message)", file: e.file,
                               hint: "it verified when the run was planned; re-run to pick the next older valid snapshot")
        }
        var new: [UInt64: AlertsBuilder.Facts] = [:]
        for l in located {
            new[l.event.id] = .init(venue: l.event.venue, startsAt: CivilTime.formatUTC(l.event.startsAt), status: l.event.status)
        }
        return AlertsBuilder(old: old, new: new)
    }

    /// What alerts compare of a published event record (the decoder skips the other fields).
    struct AlertFacts: Decodable {
        var venue: Int64?
        var startsAt: String?
        var status: Int64?
    }

    /// The event id of a record line `{"key":"…",…}` of the `events` dataset.
    static func recordEventID(_ json: [UInt8]) -> UInt64? {
        let prefix = 8  // {"key":"
        guard json.count > prefix, let end = json[prefix...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return EventID.parse(json[prefix..<end])
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        guard datasets.contains(table) else { throw unknownTable(table) }
        try DatasetFiles.dump(table, from: dir, to: sink)
    }
}
