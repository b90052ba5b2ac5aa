import Foundation
import Testing
import TonightBase
import TonightCore
import TonightSnapshot
@testable import TonightPipeline

/// The planners' calendar (`planner`, `similar_dates`) on the generated `small` set of
/// `PageDatasetsTests` against a slow reference computed from the published `events`,
/// `venues` and `artists` (the headliner and the affinity edges from the stage tables, which
/// the snapshot does not publish), and the reader's calendar accessors on `tiny`.
@Suite struct PlannerDatasetsTests {
    typealias World = PageDatasetsTests.World

    static func stageDirectory(_ w: World, _ stage: String) -> URL {
        let store = RunStore(work: w.work)
        return store.runDirectory(store.runIDs().first!).appendingPathComponent(stage)
    }

    /// pop(e) of recommendations.md with C = 50, m the mean stars of every published event.
    static func popularity(_ w: World) -> [String: Double] {
        let rated = w.events.compactMap(\.stars)
        let m = rated.reduce(0, +) / Double(max(1, rated.count))
        return Dictionary(uniqueKeysWithValues: w.events.map { e in
            let n = Double(e.starReviews ?? 0)
            return (e.id, 50 + n > 0 ? (50 * m + n * (e.stars ?? m)) / (50 + n) / 5 : 0)
        })
    }

    static func cell(_ w: World, _ venue: Int64, precision: Int = 4) -> String? {
        guard let v = w.venues[venue], let lat = v.lat, let lon = v.lon else { return nil }
        return Geohash.encode(lat: lat, lon: lon, length: precision)
    }

    static func date(_ e: CatalogEvent) -> String { String((e.localStart ?? e.startsAt!).prefix(10)) }

    /// The default settings on the shared night, and coarse cells (geohash 1) with a list of
    /// 2 on the same inputs, where dates are crowded and the cap and the ranking matter.
    @Test(arguments: [(4, 50), (1, 2)])
    func plannerMatchesTheReference(precision: Int, size: Int) throws {
        let w = PageDatasetsTests.world
        var snapshot = w.snapshot
        if precision != 4 {
            let work = temporaryDirectory()
            let config = try TonightConfig.parse("catalog:\n  geohashPrecision: \(precision)\nplanner:\n  size: \(size)\n", path: "t.yaml")
            try runner(inputs: w.inputs, work: work, config: config) { $0.asOf = w.asOf; $0.date = Int(w.asOf / 86_400) }.run()
            snapshot = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
        }
        let pop = Self.popularity(w)
        let headliners = Dictionary(
            try StageTable.locatedEvents.read(in: Self.stageDirectory(w, "geocode")).map { ($0.event.idString, $0.event.headliner) },
            uniquingKeysWith: { a, _ in a })
        var names: [Int64: String] = [:]
        try w.snapshot.dataset("artists").forEachRecord {
            let a = try JSONDecoder().decode(CatalogArtist.self, from: Data($0))
            names[a.id] = a.name
        }
        var days: [String: [CatalogEvent]] = [:]
        for e in w.events where PageDatasetsTests.isUpcoming(e, asOf: w.asOf) {
            guard let cell = Self.cell(w, e.venue!, precision: precision) else { continue }
            days[cell + "/" + Self.date(e), default: []].append(e)
        }
        #expect(precision == 4 || days.values.contains { $0.count > size }, "coarse cells must have crowded dates")
        #expect(snapshot.manifest.datasets["planner"]!.records == days.count)
        for (key, list) in days {
            let parts = key.split(separator: "/").map(String.init)
            let ranked = list.sorted { a, b in
                pop[a.id]! != pop[b.id]! ? pop[a.id]! > pop[b.id]! : (a.startsAt!, a.id) < (b.startsAt!, b.id)
            }
            var counts: [Int64: Int] = [:]
            for e in list { if let c = e.category { counts[c, default: 0] += 1 } }
            let expected = PlannerDay(
                cell: parts[0], date: parts[1], total: list.count,
                categories: counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    .map { CategoryCount(category: $0.key, count: $0.value) },
                events: ranked.prefix(size).map { e in
                    let h = headliners[e.id] ?? nil
                    return PlannerEvent(event: e.id, name: e.name, venue: e.venue!, city: w.venues[e.venue!]?.city, startsAt: e.startsAt!,
                                        localStart: e.localStart, headliner: h, headlinerName: h.flatMap { names[$0] },
                                        category: e.category, popularity: NumberPrecision.score.rounded(pop[e.id]!))
                })
            let got = try #require(try snapshot.plannerDay(cell: parts[0], date: parts[1]), "\(key)")
            #expect(got.total == expected.total && got.categories == expected.categories, "\(key)")
            #expect(got == expected, "\(key)")
        }
    }

    @Test func similarDatesMatchTheReference() throws {
        let w = PageDatasetsTests.world
        var neighbours: [Int64: [Int64: Double]] = [:]
        for e in try StageTable.affinityEdges.read(in: Self.stageDirectory(w, "parse-affinity"))
        where e.score >= 0.05 && e.source != e.target {
            neighbours[e.source, default: [:]][e.target] = max(neighbours[e.source]?[e.target] ?? 0, e.score)
        }
        #expect(neighbours.count > 10)
        let upcoming = w.events.filter { PageDatasetsTests.isUpcoming($0, asOf: w.asOf) && Self.cell(w, $0.venue!) != nil }
            .sorted { ($0.startsAt!, $0.id) < ($1.startsAt!, $1.id) }
        var records = 0, items = 0
        for a in w.artists {
            let near = neighbours[a] ?? [:]
            let expected = upcoming.filter { !$0.artists.contains(a) }.compactMap { e -> SimilarDate? in
                let performing = Set(e.artists).compactMap { n in near[n].map { (n, $0) } }
                guard let best = performing.max(by: { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 > $1.0 }) else { return nil }
                return SimilarDate(event: e.id, name: e.name, startsAt: e.startsAt!, localStart: e.localStart, date: Self.date(e),
                                   venue: e.venue!, city: w.venues[e.venue!]?.city, cell: Self.cell(w, e.venue!)!,
                                   artist: best.0, score: NumberPrecision.score.rounded(best.1))
            }.prefix(200)
            #expect(try w.snapshot.similarDates(artist: a) == Array(expected), "artist \(a)")
            if !expected.isEmpty { records += 1 }
            items += expected.count
        }
        #expect(items > records, "lists of more than one event must occur")
        #expect(w.snapshot.manifest.datasets["similar_dates"]!.records == records)
    }

    /// The calendar of one cell in one batch read: dates with events only, in date order.
    @Test func plannerDaysReadsACellsCalendar() throws {
        let work = temporaryDirectory()
        try runner(inputs: tinyInputs, work: work).run()
        let s = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
        let days = try s.plannerDays(cell: "dr5r", from: "2026-01-14", days: 11)
        #expect(days.map(\.date) == ["2026-01-15", "2026-01-17", "2026-01-24"])
        #expect(days.map { $0.events.map(\.event) } == [["1D446879A86F5DEA"], ["897592F97A8DDB0D"], ["1AF6280B4C830302"]])
        #expect(try s.plannerDays(cell: "dr5r", from: "2026-01-16", days: 1).isEmpty)  // an open date
        #expect(try s.plannerDay(cell: "dr5r", date: "2026-01-17")?.events.first?.headlinerName == "The Golden Satellites")
        #expect(throws: SnapshotError.self) { try s.plannerDays(cell: "dr5r", from: "15/01/2026", days: 3) }
        // No calendar's leniency: a date that does not exist, or not written YYYY-MM-DD, is
        // refused (Foundation would start 2026-02-30's calendar on March 2).
        for bad in ["2026-02-30", "2026-13-01", "2026-00-10", "2026-1-15", "2026-01-15x", "+2026-01-15", "2026-01-32"] {
            #expect(throws: SnapshotError.self, "\(bad)") { try s.plannerDays(cell: "dr5r", from: bad, days: 3) }
        }
        #expect(try s.plannerDays(cell: "dr5r", from: "2024-02-29", days: 1).isEmpty)  // a leap day
        // A count of days outside 0…366 is refused (a billion built a billion keys first).
        for days in [-1, Snapshot.maxPlannerDays + 1, 1_000_000_000] {
            #expect(throws: SnapshotError.self, "\(days)") { try s.plannerDays(cell: "dr5r", from: "2026-01-14", days: days) }
        }
        #expect(try s.plannerDays(cell: "dr5r", from: "2026-01-14", days: 0).isEmpty)
        let year = try s.plannerDays(cell: "dr5r", from: "2026-01-14", days: Snapshot.maxPlannerDays)
        #expect(Array(year.prefix(3)) == days && year.map(\.date) == year.map(\.date).sorted())
        // Across a month end: 2026-01-30 … 2026-02-05 reaches Toronto's 02-04.
        #expect(try s.plannerDays(cell: "dpz8", from: "2026-01-30", days: 7).map(\.date) == ["2026-02-04"])
    }

    /// `planner.minScore` and `planner.size` shape the lists; a score above every edge empties
    /// `similar_dates`, and the snapshot still verifies.
    @Test func plannerSettingsShapeTheLists() throws {
        let work = temporaryDirectory()
        let config = try TonightConfig.parse("planner:\n  minScore: 0.13\n  similarSize: 1\n", path: "test.yaml")
        try runner(inputs: tinyInputs, work: work, config: config).run()
        let s = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
        // 1061's neighbours at ≥ 0.13: 1096 (0.1403) and 1087 (0.1327); the soonest is 8975.
        #expect(try s.similarDates(artist: 1061).map(\.event) == ["897592F97A8DDB0D"])
        #expect(try s.similarDates(artist: 1053).isEmpty)
        #expect(s.verify(references: true).isValid)
        let none = temporaryDirectory()
        try runner(inputs: tinyInputs, work: none, config: try TonightConfig.parse("planner:\n  minScore: 1\n", path: "t.yaml")).run()
        let t = try Snapshot.openCurrent(in: none.appendingPathComponent("out/snapshots"))
        #expect(t.manifest.datasets["similar_dates"]?.records == 0)
        #expect(t.manifest.datasets["planner"]?.records == 11)
    }
}

/// Playmate feedback on the generated `small` set: a declined session never comes back, a
/// sport declined for the reason `sport` is avoided, and players without feedback keep the
/// lists they get when there is no feedback file at all.
@Suite struct PlaymateFeedbackRankingTests {
    @Test func feedbackShapesOnlyTheAnsweringPlayersLists() throws {
        let w = PageDatasetsTests.world
        let players = try StageTable.players.read(in: PlannerDatasetsTests.stageDirectory(w, "load-playmate"))
        var sportOf: [String: String] = [:]
        try w.snapshot.dataset("playmate_sessions").forEachRecord {
            let s = try JSONDecoder().decode(PlaymateSessionRecord.self, from: Data($0))
            sportOf[s.id] = s.sport.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let answering = players.filter { $0.feedback != nil }
        #expect(answering.count > 20)
        #expect(answering.contains { !($0.feedback?.avoidSports.isEmpty ?? true) })
        for p in answering {
            let list = try w.snapshot.sessions(user: p.id).map(\.session)
            #expect(Set(list).isDisjoint(with: p.feedback!.declined), "\(p.id) was suggested a session it declined")
            #expect(!list.contains { p.feedback!.avoidSports.contains(sportOf[$0]!) }, "\(p.id) was suggested an avoided sport")
        }

        // The same night without the feedback file.
        let inputs = temporaryDirectory("tonight-nofeedback").appendingPathComponent("in")
        try FileManager.default.copyItem(at: w.inputs, to: inputs)
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("playmate/feedback.csv"))
        let work = temporaryDirectory()
        try runner(inputs: inputs, work: work) { $0.asOf = w.asOf; $0.date = Int(w.asOf / 86_400) }.run()
        let plain = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
        var changed = 0
        for p in players {
            let with = try w.snapshot.sessions(user: p.id), without = try plain.sessions(user: p.id)
            if p.feedback == nil {
                #expect(with == without, "\(p.id) has no feedback but its list changed")
            } else if with != without {
                changed += 1
                // What the player was shown before and did not decline (nor avoid) is still there, if it fits.
                let declined = Set(p.feedback!.declined)
                #expect(without.map(\.session).filter { !declined.contains($0) && !p.feedback!.avoidSports.contains(sportOf[$0]!) }
                    .allSatisfy { s in with.contains { $0.session == s } }, "\(p.id)")
            }
        }
        #expect(changed > 0, "the generated feedback must change some lists")
    }
}
