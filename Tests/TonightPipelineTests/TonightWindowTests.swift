import Foundation
import Testing
import TonightCore
import TonightFeed
import TonightRanking

/// recommendations.md's "tonight for a venue" at its edges: the venue-local start on the run
/// date D from `tonight.from` (17:00), or on D+1 before `tonight.until` (04:00); a time and a
/// time zone known; still on sale. Every generated event starts between 19:00 and 22:59 local,
/// so neither the golden files nor the cross-check reach these edges.
@Suite struct TonightWindowTests {
    /// asOf 2026-01-15T06:00:00Z, D = 2026-01-15.
    static let asOf: Int64 = 1_768_456_800
    static let runDate = 20_468
    static let midnightOfD = Int64(runDate) * 86_400

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Seconds from local midnight of D (nil: unknown local start).
        var local: Int64?
        var timeTBA = false
        var timeZone: String? = "America/Chicago"
        var onsale = TypedDate.unknown
        var tonight: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "16:59:59 on D", local: 17 * 3600 - 1, tonight: false),
        Case(name: "17:00:00 on D", local: 17 * 3600, tonight: true),
        Case(name: "23:59:59 on D", local: 86_400 - 1, tonight: true),
        Case(name: "00:00:00 on D+1", local: 86_400, tonight: true),
        Case(name: "03:59:59 on D+1", local: 86_400 + 4 * 3600 - 1, tonight: true),
        Case(name: "04:00:00 on D+1", local: 86_400 + 4 * 3600, tonight: false),
        Case(name: "21:00 on D+1", local: 86_400 + 21 * 3600, tonight: false),
        Case(name: "21:00 on D-1", local: -3 * 3600, tonight: false),
        Case(name: "21:00 on D, time to be announced", local: 21 * 3600, timeTBA: true, tonight: false),
        Case(name: "21:00 on D, venue without time zone", local: 21 * 3600, timeZone: nil, tonight: false),
        Case(name: "local start unknown", local: nil, tonight: false),
        Case(name: "21:00 on D, on sale now", local: 21 * 3600, onsale: .now, tonight: true),
        Case(name: "21:00 on D, on sale since asOf", local: 21 * 3600, onsale: TypedDate(kind: .date, at: asOf), tonight: true),
        Case(name: "21:00 on D, on sale a second after asOf", local: 21 * 3600,
             onsale: TypedDate(kind: .date, at: asOf + 1), tonight: false),
    ]

    @Test(arguments: cases)
    func window(_ c: Case) {
        // startsAt after asOf (an upcoming event): the window is read on the local start alone.
        let e = FeedEvent(id: 0xABC, name: c.name, venue: 1, startsAt: Self.asOf + 12 * 3600, timeTBA: c.timeTBA, onsale: c.onsale)
        let located = LocatedEvent(event: e, localStart: c.local.map { Self.midnightOfD + $0 }, timeZone: c.timeZone,
                                   lat: 41.88, lon: -87.63)
        let index = EventIndex(events: [located], venues: [], settings: RankingSettings(asOf: Self.asOf, runDate: Self.runDate))
        #expect(index.events.map(\.tonight) == [c.tonight])
    }

    /// An event that started before asOf is never tonight's, even inside the window.
    @Test func startedBeforeAsOf() {
        let e = FeedEvent(id: 0xABC, name: "started", venue: 1, startsAt: Self.asOf - 1)
        let located = LocatedEvent(event: e, localStart: Self.midnightOfD + 21 * 3600, timeZone: "America/Chicago")
        let index = EventIndex(events: [located], venues: [], settings: RankingSettings(asOf: Self.asOf, runDate: Self.runDate))
        #expect(!index.events.contains { $0.tonight })
    }
}
