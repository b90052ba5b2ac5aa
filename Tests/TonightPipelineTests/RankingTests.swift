import TonightBase
import TonightRanking
import Foundation
import Testing
import TonightAffinity
import TonightCore
import TonightExports
import TonightFeed
import TonightGeo
@testable import TonightPipeline
import TonightGenerator
import TonightSnapshot

/// The per-user lists on the generated `small` set: properties of every list of every user,
/// and agreement with the slow reference implementation.
@Suite(.serialized) struct RankingTests {
    struct Run: @unchecked Sendable {
        let snapshot: Snapshot
        let users: [TicketsUser]
        let events: [LocatedEvent]
        let places: [Int64: Placement]
        let venues: [GeocodedVenue]
        let edges: [AffinityEdge]
        let players: [PlaymatePlayer]
        let sessions: [PlaymateSession]
        let work: URL
    }

    static let run: Run = {
        let inputs = temporaryDirectory("tonight-small")
        _ = try! DatasetGenerator(scale: .small, seed: 11).generate(into: inputs)
        let work = temporaryDirectory()
        let record = try! runner(inputs: inputs, work: work).run()
        let dir = RunStore(work: work).runDirectory(record.runId)
        func table<R: BinaryRecord>(_ t: R.Type, _ stage: String, _ name: String) -> [R] {
            try! BinaryTable.read(t, table: name, from: dir.appendingPathComponent(stage).appendingPathComponent("\(name).bin"))
        }
        let venues = table(GeocodedVenue.self, "geocode", "venues")
        return Run(
            snapshot: try! Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots")),
            users: table(TicketsUser.self, "load-tickets", "users"), events: table(LocatedEvent.self, "geocode", "events"),
            places: Dictionary(venues.map { ($0.venue.id, $0.placement) }, uniquingKeysWith: { a, _ in a }), venues: venues,
            edges: table(AffinityEdge.self, "parse-affinity", "edges"),
            players: table(PlaymatePlayer.self, "load-playmate", "players"),
            sessions: table(PlaymateSession.self, "load-playmate", "sessions"), work: work)
    }()

    /// The app's age group on asOf's date, computed here independently of the pipeline.
    static func ageGroup(born: Int) -> String {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        let age = c.dateComponents([.year], from: Date(timeIntervalSince1970: Double(born) * 86_400),
                                   to: Date(timeIntervalSince1970: Double(asOf / 86_400 * 86_400))).year!
        switch age {
        case ..<12: return "Under 12"
        case 12...17: return "12-17"
        case 18...24: return "18-24"
        case 25...34: return "25-34"
        case 35...44: return "35-44"
        case 45...54: return "45-54"
        case 55...64: return "55-64"
        case 65...74: return "65-74"
        default: return "75+"
        }
    }

    /// A published score (6 significant digits, snapshots.md) against the reference's exact one.
    static func scoreMatches(_ exact: Double, _ published: Double) -> Bool {
        abs(exact - published) <= abs(exact) * 5e-6 * (1 + 1e-6) + 1e-300
    }

    /// A published distance (2 decimals) against the reference's exact one.
    static func distanceMatches(_ exact: Double?, _ published: Double?) -> Bool {
        guard let exact, let published else { return exact == nil && published == nil }
        return abs(exact - published) <= 0.005 + 1e-9
    }

    @Test func everyListKeepsItsPromises() throws {
        let r = Self.run
        let byID = Dictionary(r.events.map { ($0.event.idString, $0.event) }, uniquingKeysWith: { a, _ in a })
        let ref = ReferenceRanking(events: r.events, places: r.places, edges: r.edges, asOf: asOf, runDate: Int(asOf / 86_400))
        var nonEmpty = 0
        for u in r.users {
            let explore = try r.snapshot.explore(user: u.id)
            if !explore.isEmpty { nonEmpty += 1 }
            var perArtist: [Int64: Int] = [:]
            for item in explore {
                let e = try #require(byID[item.event])
                #expect(!u.follows.contains(e.id) && !u.dismissed.contains(e.id), "\(u.id): followed or dismissed \(item.event)")
                #expect(ref.upcoming(e), "\(u.id): \(item.event) is not upcoming")
                #expect(ref.inReach(u, e) && ref.affordable(u, e), "\(u.id): \(item.event) out of reach or budget")
                if let a = item.artist { perArtist[a, default: 0] += 1 }
            }
            #expect(perArtist.values.allSatisfy { $0 <= 2 }, "\(u.id): more than 2 events of one artist")
            // Non-increasing scores within the ranked part and within the popular part.
            for part in [explore.filter { $0.reason != .popular }, explore.filter { $0.reason == .popular }] {
                #expect(zip(part, part.dropFirst()).allSatisfy { $0.score >= $1.score * (1 - 1e-9) }, "\(u.id): scores increase")
            }
            for item in try r.snapshot.tonight(user: u.id) {
                let e = try #require(byID[item.event])
                #expect(!u.dismissed.contains(e.id) && e.startsAt >= asOf && ref.inReach(u, e) && ref.affordable(u, e))
            }
            for item in try r.snapshot.feed(user: u.id) { #expect(ref.upcoming(try #require(byID[item.event]))) }
        }
        #expect(nonEmpty > r.users.count / 2)
    }

    /// Every number of every published dataset is written no more precisely than snapshots.md
    /// allows, and false-by-default booleans are absent.
    @Test func publishedNumbersAreNoMorePreciseThanTheyMean() throws {
        let snapshot = Self.run.snapshot
        let limits: [String: (decimals: Int?, significant: Int?)] = [
            "distanceKm": (2, nil), "lat": (5, nil), "lon": (5, nil), "score": (nil, 6),
        ]
        var checked = 0
        for name in snapshot.datasets.keys.sorted() {
            try snapshot.dataset(name).forEachRecord { bytes in
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(!text.contains(#""following":false"#) && !text.contains(#""timeTBA":false"#), "\(name): \(text.prefix(200))")
                for (field, limit) in limits {
                    var rest = Substring(text)
                    while let r = rest.range(of: "\"\(field)\":") {
                        rest = rest[r.upperBound...]
                        let number = rest.prefix { "0123456789.-+e".contains($0) }
                        let mantissa = number.split(separator: "e").first ?? number
                        let decimals = mantissa.split(separator: ".").dropFirst().first?.count ?? 0
                        var digits = Substring(mantissa.filter(\.isNumber)).drop { $0 == "0" }
                        if !mantissa.contains(".") { while digits.last == "0" { digits = digits.dropLast() } }
                        if let d = limit.decimals { #expect(decimals <= d && !number.contains("e"), "\(name).\(field) = \(number)") }
                        if let n = limit.significant { #expect(digits.count <= n, "\(name).\(field) = \(number)") }
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 10_000)
    }

    @Test func fastPathAgreesWithTheReference() throws {
        let r = Self.run
        let ref = ReferenceRanking(events: r.events, places: r.places, edges: r.edges, asOf: asOf, runDate: Int(asOf / 86_400))
        // Every 7th user (about 1,400 of 10,000; the reference is slow by design).
        for u in stride(from: 0, to: r.users.count, by: 7).map({ r.users[$0] }) {
            let (want, got) = (ref.explore(u), try r.snapshot.explore(user: u.id))
            #expect(want.map(\.event) == got.map(\.event), "explore of \(u.id)")
            #expect(want.count == got.count && zip(want, got).allSatisfy {
                Self.scoreMatches($0.score, $1.score) && $0.artist == $1.artist && $0.because == $1.because && $0.reason == $1.reason
                    && Self.distanceMatches($0.distanceKm, $1.distanceKm)
            }, "explore of \(u.id)")
            let (wf, gf) = (ref.feed(u), try r.snapshot.feed(user: u.id))
            #expect(wf.map(\.event) == gf.map(\.event) && wf.map(\.artists) == gf.map(\.artists)
                    && wf.map(\.following) == gf.map(\.following), "feed of \(u.id)")
            let (wt, gt) = (ref.tonight(u), try r.snapshot.tonight(user: u.id))
            #expect(wt.map(\.event) == gt.map(\.event) && zip(wt, gt).allSatisfy { Self.scoreMatches($0.score, $1.score) }, "tonight of \(u.id)")
        }
    }

    /// The shape measures `tonight-bench` prints (tickets' `shape.*` details) against the
    /// reference's full scans: every located user's events in reach, and every user's explore
    /// candidates, for every 7th user; and the stage's histogram of candidates is every user's.
    @Test func shapeMeasuresAgreeWithTheReference() throws {
        let r = Self.run
        let ref = ReferenceRanking(events: r.events, places: r.places, edges: r.edges, asOf: asOf, runDate: Int(asOf / 86_400))
        let settings = try RankingConfig.settings(TonightConfig(), asOf: asOf, runDate: Int(asOf / 86_400))
        let index = EventIndex(events: r.events, venues: r.venues, edges: r.edges.map { ($0.source, $0.target, $0.score) },
                               settings: settings)
        var ranker = TicketsRanker(index: index, settings: settings)
        var located = 0, withCandidates = 0
        for u in stride(from: 0, to: r.users.count, by: 7).map({ r.users[$0] }) {
            ranker.rank(u)
            let want = ref.exploreCandidates(u).count
            #expect(ranker.candidateCount == want, "candidates of \(u.id)")
            if want > 0 { withCandidates += 1 }
            let reach = ranker.eventsInReach(u)
            #expect(reach == ref.eventsInReach(u), "events in reach of \(u.id)")
            if let reach, reach > 0 { located += 1 }
        }
        #expect(located > 100 && withCandidates > 100)  // enough users for the counts to mean something
        var all: [Int] = []
        for u in r.users {
            ranker.rank(u)
            all.append(ranker.candidateCount)
        }
        let store = RunStore(work: r.work)
        let details = try #require(store.runIDs().first.flatMap { store.record(run: $0, stage: "tickets") }).details
        #expect(details["shape.histogram.candidates"] == ListLengths(all, users: all.count).text)
    }

    /// The explore deck taken from a heap (long candidate lists) is the deck of a full sort:
    /// every user of `small` ranked both ways, whatever the length of their candidate list.
    @Test func heapSelectionGivesTheSortedDeck() throws {
        let r = Self.run
        let settings = try RankingConfig.settings(TonightConfig(), asOf: asOf, runDate: Int(asOf / 86_400))
        let index = EventIndex(events: r.events, venues: r.venues, edges: r.edges.map { ($0.source, $0.target, $0.score) },
                               settings: settings)
        var heap = TicketsRanker(index: index, settings: settings), sorted = heap
        heap.fullSortLimit = 0
        sorted.fullSortLimit = .max
        var long = 0
        for u in r.users {
            heap.rank(u)
            sorted.rank(u)
            #expect(heap.lists == sorted.lists, "explore of \(u.id)")
            if heap.lists.explore.count >= 5 { long += 1 }
        }
        #expect(long > 100)  // enough decks with several items for the order to matter
    }

    @Test func sessionsPassEveryFilterAndAgreeWithTheReference() throws {
        let r = Self.run
        let radius = 80.4672
        let byID = Dictionary(r.sessions.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (ui, p) in r.players.enumerated() {
            let got = try r.snapshot.sessions(user: p.id)
            let origin: (Double, Double)? = p.quiz.flatMap { q in q.lat.flatMap { la in q.lon.map { (la, $0) } } }
                ?? p.lat.flatMap { la in p.lon.map { (la, $0) } }
            var history: [String: Int] = [:]
            for s in r.sessions where s.joined.contains(Int32(ui)) || s.creator == Int32(ui) { history[s.sport, default: 0] += 1 }
            var want: [(Double, Int)] = []
            for (si, s) in r.sessions.enumerated() {
                let members = Set(s.joined + (s.creator >= 0 ? [s.creator] : []))
                let count = s.joined.count + (s.creator >= 0 && s.joined.contains(s.creator) ? 0 : 1)
                guard s.occursAt > asOf, count < s.capacity, !members.contains(Int32(ui)), s.creator != Int32(ui),
                      !(p.quiz?.avoidSports.contains(s.sport) ?? false),
                      // feedback.csv: declined sessions and sports declined for the reason `sport`.
                      !(p.feedback?.declined.contains(s.id) ?? false),
                      !(p.feedback?.avoidSports.contains(s.sport) ?? false) else { continue }
                if let (la, lo) = origin, GeoDistance.km(la, lo, s.lat, s.lon) > radius { continue }
                let weight = (history[s.sport] ?? 0) + (Set(p.quiz?.playSports ?? []).contains(s.sport) ? 10 : 0)
                let friends = members.filter(p.friends.contains).count
                let genders = members.filter { m in r.players[Int(m)].gender.map { p.quiz?.genders.contains($0) ?? false } ?? false }.count
                let ages = members.filter { m in
                    r.players[Int(m)].birthday.map { p.quiz?.ageGroups.contains(Self.ageGroup(born: $0)) ?? false } ?? false
                }.count
                want.append((5.2 * Double(weight) + 2.3 * Double(friends) + 1.2 * Double(genders) + 1.9 * Double(ages), si))
            }
            // Issue 16: among equal scores, sessions at a skill level the player has played first.
            let played = Set(r.sessions.filter { ($0.joined.contains(Int32(ui)) || $0.creator == Int32(ui)) && $0.occursAt <= asOf }
                .compactMap(\.skillLevel))
            want.sort { a, b in
                if abs(a.0 - b.0) > 1e-9 * max(abs(a.0), abs(b.0)) { return a.0 > b.0 }
                let x = r.sessions[a.1], y = r.sessions[b.1]
                let px = x.skillLevel.map(played.contains) ?? false, py = y.skillLevel.map(played.contains) ?? false
                if px != py { return px }
                return x.occursAt != y.occursAt ? x.occursAt < y.occursAt : x.id < y.id
            }
            #expect(got.map(\.session) == want.prefix(8).map { r.sessions[$0.1].id }, "sessions of \(p.id)")
            for item in got {
                let s = r.sessions[try #require(byID[item.session])]
                #expect(s.occursAt > asOf && item.score >= 0)
                if origin != nil { #expect((item.distanceKm ?? .infinity) <= radius + 0.005) }  // written to 2 decimals
            }
            #expect(zip(got, got.dropFirst()).allSatisfy { $0.score >= $1.score * (1 - 1e-9) })
            #expect(try r.snapshot.playerStats(user: p.id) != nil)
        }
    }
}
