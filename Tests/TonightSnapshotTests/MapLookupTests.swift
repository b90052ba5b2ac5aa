import Testing
import Foundation
import TonightBase
import TonightGenerator
@testable import TonightSnapshot

/// The map lookups (`nearby`, `openSessions(lat:lon:radiusKm:)`) against a brute-force
/// reference on a world shaped like the real one (most places in a few cities, some at the
/// poles and across the antimeridian), read both ways: one lookup per cell and one scan of the
/// dataset. Until 2026-11-28 every cell of the circle was listed whatever their number (a
/// 20,000 km radius: ~1 M lookups; precision 12: no end), and a bad argument (a negative or NaN
/// radius, a latitude of 91, a precision the dataset does not use) gave an empty answer
/// instead of an error.
@Suite struct MapLookupTests {
    struct Place { var id: Int; var lat: Double; var lon: Double }

    /// 600 places: 70 % around 4 cities, the rest anywhere (poles and the antimeridian included).
    static let places: [Place] = {
        var rng = SplitMix64(seed: 28)
        let cities = [(40.75, -73.99), (51.51, -0.13), (-33.87, 151.21), (64.84, -147.72)]
        var out: [Place] = []
        for id in 0..<600 {
            let (lat, lon): (Double, Double)
            switch id % 10 {
            case 0..<7:
                let c = cities[id % cities.count]
                lat = c.0 + (rng.unit() - 0.5) * 0.8
                lon = c.1 + (rng.unit() - 0.5) * 0.8
            case 7: (lat, lon) = (89.0 + rng.unit(), rng.unit() * 360 - 180)
            case 8: (lat, lon) = (rng.unit() * 20 - 10, rng.unit() < 0.5 ? 179.9 + rng.unit() * 0.1 : -180 + rng.unit() * 0.1)
            default: (lat, lon) = (rng.unit() * 180 - 90, rng.unit() * 360 - 180)
            }
            out.append(Place(id: id, lat: lat, lon: lon))
        }
        return out
    }()

    static func instant(_ id: Int) -> String { String(format: "2026-01-%02dT%02d:00:00Z", 15 + id % 10, id % 24) }

    /// A snapshot with `open_sessions`, `nearby` and `venues` built from `places` at `precision`
    /// (recorded in the manifest's `keyForm` when `declared`).
    static func snapshot(precision: Int = 4, declared: Bool = false) throws -> Snapshot {
        var sessions: [String: [OpenSession]] = [:], events: [String: [NearbyEvent]] = [:]
        var venues: [(String, [UInt8])] = []
        for p in places {
            let cell = Geohash.encode(lat: p.lat, lon: p.lon, length: precision)
            sessions[cell, default: []].append(OpenSession(
                session: "s\(p.id)", sport: "Tennis", skillLevel: nil, occursAt: instant(p.id), durationMin: 60,
                locationName: nil, lat: p.lat, lon: p.lon, spotsLeft: 1))
            events[cell, default: []].append(NearbyEvent(event: "E\(p.id)", startsAt: instant(p.id), venue: Int64(p.id)))
            venues.append((String(p.id), Array(#"{"key":"\#(p.id)","id":\#(p.id),"name":"V","lat":\#(p.lat),"lon":\#(p.lon),"precision":"postal"}"#.utf8)))
        }
        func records<T: Encodable>(_ byCell: [String: [T]]) throws -> [(String, [UInt8])] {
            try byCell.keys.sorted().map { cell in
                let items = try JSONEncoder().encode(byCell[cell]!)
                return (cell, Array(#"{"key":"\#(cell)","items":"#.utf8) + items + Array("}".utf8))
            }
        }
        let root = temporaryDirectory("map-lookups")
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001", datasets: [
            "open_sessions": try records(sessions), "nearby": try records(events),
            "venues": venues.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) },
        ], keyForms: declared ? ["open_sessions": .init(geohashLength: precision), "nearby": .init(geohashLength: precision)] : [:])
        return try Snapshot.open(id: id, in: root)
    }

    /// Circles of every size, around the cities, the poles and the antimeridian.
    static let circles: [(lat: Double, lon: Double, radiusKm: Double)] = {
        var rng = SplitMix64(seed: 11)
        var out: [(Double, Double, Double)] = [(40.75, -73.99, 0), (40.75, -73.99, 30), (90, 0, 150), (-90, 45, 3000),
                                               (0, 180, 500), (0, -180, 500), (64.84, -147.72, 20_038), (0, 0, 25_000)]
        for _ in 0..<24 {
            let p = places[Int(rng.next() % UInt64(places.count))]
            out.append((p.lat, p.lon, [1, 10, 80, 400, 2500, 9000][Int(rng.next() % 6)] * (0.5 + rng.unit())))
        }
        return out
    }()

    @Test func bothWaysMatchTheReference() throws {
        let s = try Self.snapshot()
        for c in Self.circles {
            let inside = Self.places.filter { GeoDistance.km(c.lat, c.lon, $0.lat, $0.lon) <= c.radiusKm }
            let sessions = Set(inside.map { "s\($0.id)" }), events = Set(inside.map { "E\($0.id)" })
            let cells = Geohash.cells(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm, length: 4)
            for plan in [Snapshot.CellPlan.cells(cells), .scan, nil] {
                let open = try s.openSessions(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm, precision: 4, plan: plan)
                #expect(Set(open.map(\.session)) == sessions, "\(c) \(String(describing: plan).prefix(40))")
                #expect(open.map(\.occursAt) == open.map(\.occursAt).sorted())
                let near = try s.nearby(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm, precision: 4, plan: plan)
                #expect(Set(near.map(\.event.event)) == events, "\(c)")
                #expect(near.allSatisfy { abs($0.distanceKm - GeoDistance.km(c.lat, c.lon, Self.places[Int($0.event.venue)].lat,
                                                                                Self.places[Int($0.event.venue)].lon)) < 1e-9 })
            }
        }
    }

    /// The plan never lists more cells than the dataset has records, and the bound it compares
    /// is at least the cells' number.
    @Test func aLargeCircleIsAScanAndTheBoundHolds() throws {
        #expect(Snapshot.cellPlan(lat: 0, lon: 0, radiusKm: 20_000, precision: 4, records: 5_000) == .scan)
        #expect(Snapshot.cellPlan(lat: 40.75, lon: -73.99, radiusKm: 100, precision: 12, records: 1_000_000) == .scan)
        guard case .cells(let few) = Snapshot.cellPlan(lat: 40.75, lon: -73.99, radiusKm: 30, precision: 4, records: 5_000) else {
            Issue.record("a 30 km circle at precision 4 is a few cells")
            return
        }
        #expect(few.contains("dr5r") && few.count <= 16)
        for c in Self.circles where c.radiusKm <= 3000 {
            for length in 1...4 {
                let listed = Geohash.cells(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm, length: length).count
                #expect(Double(listed) <= Geohash.cellCountBound(lat: c.lat, radiusKm: c.radiusKm, length: length), "\(c) \(length)")
            }
        }
        // A fine precision the dataset uses is read by scan, and finds what precision 4 finds.
        let fine = try Self.snapshot(precision: 9)
        let coarse = try Self.snapshot(precision: 4)
        for c in Self.circles.prefix(6) {
            #expect(try fine.openSessions(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm, precision: 9)
                == coarse.openSessions(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm))
        }
    }

    /// Without a `precision` the lookups take the dataset's: the manifest's `keyForm`, or the
    /// first key's length in older manifests (until 2026-11-28 the default was 4, refused by a
    /// dataset of other cells).
    @Test(arguments: [false, true])
    func theDatasetsPrecisionByDefault(declared: Bool) throws {
        let fine = try Self.snapshot(precision: 6, declared: declared)
        let coarse = try Self.snapshot(precision: 4, declared: declared)
        for c in Self.circles.prefix(8) {
            #expect(try fine.openSessions(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm)
                == coarse.openSessions(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm, precision: 4))
            #expect(try fine.nearby(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm)
                == coarse.nearby(lat: c.lat, lon: c.lon, radiusKm: c.radiusKm))
        }
        #expect { try fine.nearby(lat: 40.75, lon: -73.99, radiusKm: 30, precision: 4) } throws: {
            ($0 as? SnapshotError)?.code == .invalidArgument && "\($0)".contains("pass precision: 6")
        }
    }

    struct Circle: Sendable, CustomTestStringConvertible {
        var lat: Double, lon: Double, radiusKm: Double, precision: Int
        init(_ lat: Double, _ lon: Double, _ radiusKm: Double, _ precision: Int) {
            (self.lat, self.lon, self.radiusKm, self.precision) = (lat, lon, radiusKm, precision)
        }
        var testDescription: String { "(\(lat), \(lon)) \(radiusKm) km, precision \(precision)" }
    }

    static let badArguments: [Circle] = [
        Circle(.nan, 0, 10, 4), Circle(91, 0, 10, 4), Circle(-90.5, 0, 10, 4), Circle(0, 180.5, 10, 4),
        Circle(0, -.infinity, 10, 4), Circle(0, 0, -1, 4), Circle(0, 0, .nan, 4), Circle(0, 0, .infinity, 4),
        Circle(0, 0, 10, 0), Circle(0, 0, 10, 13), Circle(0, 0, 10, -3),
        Circle(0, 0, 10, 5),  // the dataset's cells have 4 characters
    ]

    @Test(arguments: badArguments)
    func badArgumentsAreRefused(_ c: Circle) throws {
        let (lat, lon, radiusKm, precision) = (c.lat, c.lon, c.radiusKm, c.precision)
        let s = try Self.snapshot()
        for lookup in ["nearby", "openSessions"] {
            do {
                if lookup == "nearby" { _ = try s.nearby(lat: lat, lon: lon, radiusKm: radiusKm, precision: precision) }
                else { _ = try s.openSessions(lat: lat, lon: lon, radiusKm: radiusKm, precision: precision) }
                Issue.record("\(lookup) accepted \(lat), \(lon), \(radiusKm) km, precision \(precision)")
            } catch let e as SnapshotError {
                #expect(e.code == .invalidArgument, "\(e)")
            }
        }
    }
}
