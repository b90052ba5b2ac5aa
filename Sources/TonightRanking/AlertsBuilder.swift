import Foundation
import TonightCore
import TonightFeed

/// Alerts for followed events (recommendations.md): this run's events against those of the
/// snapshot currently published. Without a published snapshot there are no alerts.
package struct AlertsBuilder: Sendable {
    /// What an alert compares of an event.
    package struct Facts: Sendable, Equatable {
        package var venue: Int64?
        package var startsAt: String?
        package var status: Int64?

        package init(venue: Int64?, startsAt: String?, status: Int64?) {
            self.venue = venue
            self.startsAt = startsAt
            self.status = status
        }
    }

    /// An alert's old or new value, written with the JSON type of the field it comes from
    /// in `events`: venue id and status as numbers, the start as the same ISO 8601 text.
    package enum Value: Sendable, Equatable {
        case venue(Int64)
        case startsAt(String)
        case status(Int64)

        func write(_ name: String, to w: inout JSONWriter) {
            switch self {
            case .venue(let v), .status(let v): w.field(name, v)
            case .startsAt(let s): w.field(name, s)
            }
        }
    }

    package struct Alert: Sendable, Equatable {
        package var event: String
        package var kind: String
        package var old: Value?
        package var new: Value?
        /// The old start, for ordering.
        package var oldStartsAt: String
    }

    /// The alerts of every event that changed against the published snapshot, by event id
    /// (computed once: most nights few events change, so most users' follows find nothing).
    package let changed: [UInt64: [Alert]]

    /// `old`: facts of the published events; `new`: this run's facts of the events in the
    /// feed. An event missing from `old` gives no alert (nothing to compare).
    package init(old: [UInt64: Facts], new: [UInt64: Facts]) {
        var changed: [UInt64: [Alert]] = [:]
        for (id, o) in old {
            let key = EventID.format(id)
            let start = o.startsAt ?? ""
            var list: [Alert] = []
            if let n = new[id] {
                if o.venue != n.venue {
                    list.append(Alert(event: key, kind: "venue-changed", old: o.venue.map(Value.venue), new: n.venue.map(Value.venue),
                                      oldStartsAt: start))
                }
                if o.startsAt != n.startsAt {
                    list.append(Alert(event: key, kind: "time-changed", old: o.startsAt.map(Value.startsAt),
                                      new: n.startsAt.map(Value.startsAt), oldStartsAt: start))
                }
                if o.status != n.status {
                    list.append(Alert(event: key, kind: "status-changed", old: o.status.map(Value.status),
                                      new: n.status.map(Value.status), oldStartsAt: start))
                }
            } else {
                list.append(Alert(event: key, kind: "removed", old: nil, new: nil, oldStartsAt: start))
            }
            if !list.isEmpty { changed[id] = list }
        }
        self.changed = changed
    }

    /// The alerts of one user, ordered by old startsAt, event id, kind.
    package func alerts(follows: [UInt64]) -> [Alert] {
        guard !changed.isEmpty else { return [] }
        var out: [Alert] = []
        for (n, id) in follows.enumerated() where !follows[..<n].contains(id) {  // a few follows: no set
            if let list = changed[id] { out += list }
        }
        return out.sorted { ($0.oldStartsAt, $0.event, $0.kind) < ($1.oldStartsAt, $1.event, $1.kind) }
    }

    /// Appends the `alerts` record of one user to `w` (no newline); false, writing nothing,
    /// for no alerts.
    package static func write(user: String, _ alerts: [Alert], to w: inout JSONWriter) -> Bool {
        guard !alerts.isEmpty else { return false }
        w.beginKeyedList(user)
        for a in alerts {
            w.beginObject()
            w.field("event", a.event)
            w.field("kind", a.kind)
            a.old?.write("old", to: &w)
            a.new?.write("new", to: &w)
            w.endObject()
        }
        w.closeKeyedList()
        return true
    }
}
