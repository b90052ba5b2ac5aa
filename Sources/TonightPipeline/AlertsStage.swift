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
        var clock = PhaseClock()
        let located = try context.read(.locatedEvents)
        let users = try context.read(.ticketsUsers, skip: TicketsUser.skip, owned: { r, owned in try TicketsUser.readIDAndFollows(&r, if: owned) })
        clock.lap("read")
        var outcome = StageOutcome()
        var files = DatasetFiles(context, stage: self)
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
        clock.lap("baseline")
        let order = UTF8Order.sortedIndices(found.map(\.id))
        var json = JSONWriter(capacity: 1 << 12)
        var lengths: [Int] = []
        try files.write("alerts") { w in
            for k in order {
                _ = AlertsBuilder.write(user: found[k].id, found[k].alerts, to: &json)
                try w.append(key: found[k].id, json: json.bytes[...])  // copied by the writer
                json.clear()
                lengths.append(found[k].alerts.count)
            }
        }
        clock.lap("alerts")
        let following = try Self.writeFollowing(users, located: located, changed: builder?.changed ?? [:], files: &files)
        try files.finish()
        clock.lap("following")
        for (k, v) in clock.laps { outcome.details["seconds.\(k)"] = String(format: "%.2f", v) }
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
        // Feed events ranked once by (startsAt, id): a user's list is their follows' ranks, sorted.
        // (Fixed-width upper-case hex ids sort as their numbers.)
        let keys = located.map { (startsAt: $0.event.startsAt, id: $0.event.id) }
        let byStart = keys.indices.sorted { (keys[$0].startsAt, keys[$0].id) < (keys[$1].startsAt, keys[$1].id) }
        var rankOf: [UInt64: Int32] = [:]
        rankOf.reserveCapacity(located.count)
        for (r, i) in byStart.enumerated() { rankOf[located[i].event.id] = Int32(r) }
        // Each followed feed event's item, rendered once, when first needed (a shard's users
        // follow a part of the feed): `{"event":…,"venue":…,"startsAt":…,"status":…}`, back to
        // back in one buffer (an array per item cost a cache miss on its header at every use).
        var items = RenderedItems(count: byStart.count)
        func item(_ r: Int) -> Range<Int> {
            items.range(r) { json in
                let e = located[byStart[r]].event
                json.beginObject()
                json.field("event", eventID: e.id)
                json.field("venue", e.venue)
                json.field("startsAt", CivilTime.formatUTC(e.startsAt))
                json.field("status", e.status)
                json.endObject()
            }
        }
        let alerted = byStart.map { changed[located[$0].event.id] != nil }
        let withFollows = users.indices.filter { !users[$0].follows.isEmpty }
        let order = UTF8Order.sortedIndices(withFollows.map { users[$0].id }).map { withFollows[$0] }
        var lengths: [Int] = []
        var ranks: [Int32] = []
        var record: [UInt8] = []
        let itemsKey = Array(#","items":["#.utf8), alertField = Array(#","alert":true}"#.utf8)
        try files.write("following") { w in
            for k in order {
                ranks.removeAll(keepingCapacity: true)
                for id in users[k].follows { if let r = rankOf[id] { ranks.append(r) } }
                guard !ranks.isEmpty else { continue }
                ranks.sort()
                // The bytes JSONWriter's keyed list gives, assembled from the rendered items.
                record.removeAll(keepingCapacity: true)
                JSONKey.appendRecordPrefix(users[k].id, to: &record)
                record += itemsKey
                var count = 0
                for (n, r) in ranks.enumerated() where n == 0 || ranks[n - 1] != r {  // a follow listed twice counts once
                    if count > 0 { record.append(UInt8(ascii: ",")) }
                    let item = item(Int(r))
                    if alerted[Int(r)] {
                        record += items.bytes[item.dropLast()]
                        record += alertField
                    } else {
                        record += items.bytes[item]
                    }
                    count += 1
                }
                record += [UInt8(ascii: "]"), UInt8(ascii: "}")]
                try w.append(key: users[k].id, json: record[...])
                lengths.append(count)
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
