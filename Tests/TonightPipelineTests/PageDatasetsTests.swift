import Foundation
import Testing
import TonightBase
import TonightCore
import TonightGenerator
import TonightSnapshot
@testable import TonightPipeline

/// The artist and venue pages (`artist_events`, `venue_events`, `artist_years`) on a generated
/// `small` set against a slow reference computed from the published `events` and `venues`.
@Suite struct PageDatasetsTests {
    struct World: Sendable {
        var inputs: URL
        var work: URL
        var snapshot: Snapshot
        var events: [CatalogEvent]
        var venues: [Int64: CatalogVenue]
        var artists: [Int64]
        var asOf: Int64
    }

    static let world: World = {
        let inputs = temporaryDirectory("tonight-pages")
        _ = try! DatasetGenerator(scale: .small, seed: 5).generate(into: inputs)
        let work = temporaryDirectory()
        let asOf = GeneratedInfo.read(inputs)!.asOf
        try! runner(inputs: inputs, work: work) { $0.asOf = asOf; $0.date = Int(asOf / 86_400) }.run()
        let s = try! Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
        var events: [CatalogEvent] = [], venues: [Int64: CatalogVenue] = [:], artists: [Int64] = []
        let d = JSONDecoder()
        try! s.dataset("events").forEachRecord { events.append(try d.decode(CatalogEvent.self, from: Data($0))) }
        try! s.dataset("venues").forEachRecord { let v = try d.decode(CatalogVenue.self, from: Data($0)); venues[v.id] = v }
        try! s.dataset("artists").forEachRecord { artists.append(try d.decode(CatalogArtist.self, from: Data($0)).id) }
        return World(inputs: inputs, work: work, snapshot: s, events: events, venues: venues, artists: artists, asOf: asOf)
    }()

    /// recommendations.md's upcoming window with the default settings (60 days, no excluded status).
    static func isUpcoming(_ e: CatalogEvent, asOf: Int64) -> Bool {
        guard let t = e.startsAt.flatMap(CivilTime.parseInstant) else { return false }
        return t >= asOf && t < asOf + 60 * 86_400
    }

    static func page(_ list: [CatalogEvent], _ w: World) -> [PageEvent] {
        list.sorted { ($0.startsAt!, $0.id) < ($1.startsAt!, $1.id) }.prefix(200).map {
            PageEvent(event: $0.id, name: $0.name, venue: $0.venue!, city: w.venues[$0.venue!]?.city, startsAt: $0.startsAt!,
                      localStart: $0.localStart, status: $0.status.map(Int64.init))
        }
    }

    @Test func artistAndVenuePagesMatchTheReference() throws {
        let w = Self.world
        let upcoming = w.events.filter { Self.isUpcoming($0, asOf: w.asOf) }
        #expect(upcoming.count > 50)
        var byArtist: [Int64: [CatalogEvent]] = [:], byVenue: [Int64: [CatalogEvent]] = [:]
        for e in upcoming {
            for a in Set(e.artists) { byArtist[a, default: []].append(e) }
            byVenue[e.venue!, default: []].append(e)
        }
        var checked = 0
        for a in w.artists {
            #expect(try w.snapshot.artistEvents(artist: a) == Self.page(byArtist[a] ?? [], w), "artist \(a)")
            checked += byArtist[a]?.count ?? 0
        }
        #expect(checked == upcoming.map { Set($0.artists).count }.reduce(0, +))
        for v in w.venues.keys {
            #expect(try w.snapshot.venueEvents(venue: v) == Self.page(byVenue[v] ?? [], w), "venue \(v)")
        }
        #expect(w.snapshot.manifest.datasets["artist_events"]!.records == byArtist.count)
        #expect(w.snapshot.manifest.datasets["venue_events"]!.records == byVenue.count)
    }

    @Test func artistYearsMatchTheReference() throws {
        let w = Self.world
        var years: [Int64: [Int: [CatalogEvent]]] = [:]
        for e in w.events {
            let date = e.localStart ?? e.startsAt!
            for a in Set(e.artists) { years[a, default: [:]][Int(date.prefix(4))!, default: []].append(e) }
        }
        #expect(years.values.contains { $0.count > 1 } || w.events.allSatisfy { ($0.localStart ?? $0.startsAt!).hasPrefix("2026") })
        for a in w.artists {
            let expected = (years[a] ?? [:]).sorted { $0.key < $1.key }.map { year, list -> ArtistYear in
                let dates = list.map { String(($0.localStart ?? $0.startsAt!).prefix(10)) }.sorted()
                let cities = Set(list.compactMap { e in w.venues[e.venue!].flatMap { v in v.city.map { "\($0)|\(v.state ?? "")|\(v.country ?? "")" } } })
                return ArtistYear(year: year, events: list.count, venues: Set(list.map { $0.venue! }).count, cities: cities.count,
                                  first: dates.first!, last: dates.last!)
            }
            #expect(try w.snapshot.artistYears(artist: a) == expected, "artist \(a)")
        }
    }

    /// `artist_years` counts a city by (city, state, country): two Portlands are two cities,
    /// two venues of one Portland one. Generated feeds never send an artist to two same-named
    /// cities in a year, so `tiny` is given three venues and three dates of artist 1061.
    @Test func sameNamedCitiesInTwoStatesAreTwoCities() throws {
        let inputs = copyOfTinyInputs(), feed = inputs.appendingPathComponent("feed.xml")
        var xml = try String(contentsOf: feed, encoding: .utf8)
        let venues = [(901, "OR", "97201"), (902, "ME", "04101"), (903, "OR", "97205")].map { id, state, zip in
            "\t<Venue ID=\"\(id)\" >\n\t\t<City>Portland</City>\n\t\t<State>\(state)</State>\n\t\t<VenueName>Hall \(id)</VenueName>\n"
                + "\t\t<ZipCode>\(zip)</ZipCode>\n\t</Venue>\n"
        }
        let events = [(901, "2026-02-01"), (902, "2026-02-02"), (903, "2026-02-03")].map { venue, date in
            "\t<Event ID=\"00000000000009\(venue - 900)0\" >\n\t\t<ArtistIDs>\n\t\t\t<ArtistID ID=\"1061\" Type=\"Primary\" />\n\t\t</ArtistIDs>\n"
                + "\t\t<EventDate Type=\"DEF\" >\(date)</EventDate>\n\t\t<EventTime>20:00:00</EventTime>\n"
                + "\t\t<PerformanceName>Portland \(venue)</PerformanceName>\n\t\t<VenueID ID=\"\(venue)\" />\n\t</Event>\n"
        }
        xml = xml.replacingOccurrences(of: "</Venues>", with: venues.joined() + "</Venues>")
            .replacingOccurrences(of: "</EventsPricePoints>", with: events.joined() + "</EventsPricePoints>")
        try xml.write(to: feed, atomically: true, encoding: .utf8)
        let work = temporaryDirectory()
        try runner(inputs: inputs, work: work).run()
        let s = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
        // The expected count from the published events and venues.
        var places: [(String, String)] = []
        try s.dataset("events").forEachRecord { json in
            let e = try JSONDecoder().decode(CatalogEvent.self, from: Data(json))
            guard e.artists.contains(1061), (e.localStart ?? e.startsAt!).hasPrefix("2026"), let v = try s.venue(id: e.venue!), let city = v.city else { return }
            places.append((city, "\(city)|\(v.state ?? "")|\(v.country ?? "")"))
        }
        let byKey = Set(places.map(\.1)).count, byName = Set(places.map(\.0)).count
        #expect(byKey == byName + 1, "\(places)")  // the two Portlands
        let year = try #require(try s.artistYears(artist: 1061).first { $0.year == 2026 })
        #expect(year.cities == byKey)
        #expect(year.events == places.count)
    }

    /// `artistEvents.size` caps both page lists at the soonest events; the datasets verify.
    @Test func theSizeCapsThePagesAndTheSnapshotVerifies() throws {
        let work = temporaryDirectory()
        let config = try TonightConfig.parse("artistEvents:\n  size: 1\n", path: "test.yaml")
        try runner(inputs: tinyInputs, work: work, config: config).run()
        let s = try Snapshot.openCurrent(in: work.appendingPathComponent("out/snapshots"))
        #expect(try s.artistEvents(artist: 1061).map(\.event) == ["1D446879A86F5DEA"])
        #expect(try s.venueEvents(venue: 83).map(\.event) == ["985C2D1A10B4833F"])
        let report = s.verify(references: true)
        #expect(report.isValid, "\(report.problems)")
        #expect(Self.world.snapshot.verify(references: true).isValid)
    }

    /// `upcoming_sessions` and `open_sessions` against every published session record.
    @Test func sessionPagesMatchTheReference() throws {
        let w = Self.world
        var sessions: [PlaymateSessionRecord] = []
        try w.snapshot.dataset("playmate_sessions").forEachRecord { sessions.append(try JSONDecoder().decode(PlaymateSessionRecord.self, from: Data($0))) }
        let asOf = CivilTime.formatUTC(w.asOf)
        let future = sessions.filter { $0.occursAt > asOf }
            .sorted { $0.occursAt != $1.occursAt ? $0.occursAt < $1.occursAt : UTF8Order.less($0.id, $1.id) }
        #expect(future.count > 20)
        var byPlayer: [String: [UpcomingSession]] = [:]
        for x in future {
            for m in x.members {
                byPlayer[m, default: []].append(UpcomingSession(
                    session: x.id, sport: x.sport, occursAt: x.occursAt, locationName: x.locationName, lat: x.lat, lon: x.lon,
                    players: x.players, capacity: x.capacity, created: x.creator == m ? true : nil))
            }
        }
        var players: [String] = []
        try w.snapshot.dataset("player_stats").forEachRecord { players.append(try JSONDecoder().decode(ItemKey.self, from: Data($0)).key) }
        for p in players { #expect(try w.snapshot.upcomingSessions(user: p) == byPlayer[p] ?? [], "player \(p)") }
        #expect(w.snapshot.manifest.datasets["upcoming_sessions"]!.records == byPlayer.count)
        var byCell: [String: [OpenSession]] = [:]
        for x in future where x.players < x.capacity {
            byCell[Geohash.encode(lat: x.lat, lon: x.lon, length: 4), default: []].append(OpenSession(
                session: x.id, sport: x.sport, skillLevel: x.skillLevel, occursAt: x.occursAt, durationMin: x.durationMin,
                locationName: x.locationName, lat: x.lat, lon: x.lon, spotsLeft: x.capacity - x.players))
        }
        #expect(byCell.count > 3)
        for (cell, list) in byCell { #expect(try w.snapshot.openSessions(cell: cell) == list, "cell \(cell)") }
        #expect(w.snapshot.manifest.datasets["open_sessions"]!.records == byCell.count)
        // The map: a circle around one open session finds it, and only sessions inside the circle.
        let first = try #require(byCell.values.first?.first)
        let found = try w.snapshot.openSessions(lat: first.lat, lon: first.lon, radiusKm: 25)
        #expect(found.contains(first))
        #expect(found.allSatisfy { GeoDistance.km(first.lat, first.lon, $0.lat, $0.lon) <= 25 })
    }

    struct ItemKey: Decodable { var key: String }

    /// `following` against the export's follows: each user's followed events that are in the
    /// feed, soonest first (no alerts on a first night).
    @Test func followingMatchesTheExport() throws {
        let w = Self.world
        let byID = Dictionary(uniqueKeysWithValues: w.events.map { ($0.id, $0) })
        var follows: [String: Set<String>] = [:]
        let text = try String(contentsOf: w.inputs.appendingPathComponent("tickets/follows.csv"), encoding: .utf8)
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            follows[String(f[0]), default: []].insert(String(f[1]))
        }
        var users = Set<String>()
        for line in try String(contentsOf: w.inputs.appendingPathComponent("tickets/users.csv"), encoding: .utf8).split(separator: "\n").dropFirst() {
            users.insert(String(line.split(separator: ",", omittingEmptySubsequences: false)[0]))
        }
        var withList = 0
        for u in users {
            let expected = (follows[u] ?? []).compactMap { byID[$0] }.sorted { ($0.startsAt!, $0.id) < ($1.startsAt!, $1.id) }
                .map { FollowingItem(event: $0.id, venue: $0.venue!, startsAt: $0.startsAt!, status: $0.status.map(Int64.init), alert: nil) }
            #expect(try w.snapshot.following(user: u) == expected, "user \(u)")
            if !expected.isEmpty { withList += 1 }
        }
        #expect(withList > 100)
        #expect(w.snapshot.manifest.datasets["following"]!.records == withList)
    }

    /// `event_search` against a reference built from the published events, artists and venues:
    /// every key, its events in order, their popularity; and the reader's multi-word filter.
    @Test func eventSearchMatchesTheReference() throws {
        let w = Self.world
        var artistName: [Int64: String] = [:]
        try w.snapshot.dataset("artists").forEachRecord { let a = try JSONDecoder().decode(CatalogArtist.self, from: Data($0)); artistName[a.id] = a.name }
        let rated = w.events.compactMap(\.stars)
        let m = rated.reduce(0, +) / Double(max(1, rated.count))
        func pop(_ e: CatalogEvent) -> Double {
            let n = Double(e.starReviews ?? 0)
            return (50 * m + n * (e.stars ?? m)) / (50 + n) / 5
        }
        let ranked = w.events.filter { Self.isUpcoming($0, asOf: w.asOf) }.sorted {
            pop($0) != pop($1) ? pop($0) > pop($1) : ($0.startsAt!, $0.id) < ($1.startsAt!, $1.id)
        }
        var expected: [String: [CatalogEvent]] = [:]
        for e in ranked {
            let v = w.venues[e.venue!]
            let texts = [e.name] + e.artists.compactMap { artistName[$0] } + [v?.name, v?.city].compactMap { $0 }
            var prefixes = Set<String>()
            for t in texts {
                for word in NameKey.words(ofKey: NameKey.general(t)) {
                    for n in 1...min(4, word.unicodeScalars.count) {
                        var p = ""
                        p.unicodeScalars.append(contentsOf: word.unicodeScalars.prefix(n))
                        prefixes.insert(p)
                    }
                }
            }
            for p in prefixes where expected[p, default: []].count < 10 { expected[p, default: []].append(e) }
        }
        #expect(w.snapshot.manifest.datasets["event_search"]!.records == expected.count)
        for (key, list) in expected {
            let got = try w.snapshot.dataset("event_search").value(key: key, as: EventList.self)?.items ?? []
            #expect(got.map(\.event) == list.map(\.id), "prefix \(key)")
            for (g, e) in zip(got, list) { #expect(abs(g.popularity - pop(e)) <= 1e-5 * max(1, pop(e))) }
        }
        // The reader: a word longer than 4 scalars filters its 4-scalar list by name and city.
        let some = try #require(ranked.first { NameKey.words(ofKey: NameKey.general($0.name)).contains { $0.unicodeScalars.count > 5 } })
        let long = try #require(NameKey.words(ofKey: NameKey.general(some.name)).first { $0.unicodeScalars.count > 5 })
        let found = try w.snapshot.searchEvents(prefix: String(long.prefix(5)).uppercased())
        #expect(found.allSatisfy { NameKey.words(ofKey: NameKey.general($0.name + " " + ($0.city ?? ""))).contains { $0.hasPrefix(String(long.prefix(5))) } })
        #expect(try w.snapshot.searchEvents(prefix: "  ").isEmpty)
    }

    struct EventList: Decodable { var items: [EventMatch] }
}
