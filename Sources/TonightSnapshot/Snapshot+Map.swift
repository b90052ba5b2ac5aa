import TonightBase
import Foundation

/// The map lookups: the records of the geohash cells (`nearby`, `open_sessions`) that meet a
/// circle, each item then checked against the circle itself.
///
/// A circle's cells are read one key each while they are fewer than the dataset's records;
/// beyond that (a radius of thousands of kilometres, or a fine `precision`) the dataset is
/// read once from end to end instead. Until 2026-11-28 every cell was listed whatever their
/// number: a 20,000 km radius listed the ~1 M cells of precision 4 and looked each one up, and a
/// precision of 12 with a 100 km radius never ended (`MapLookupTests`).
extension Snapshot {
    /// How the cells of a circle are read.
    enum CellPlan: Equatable, Sendable {
        /// One lookup per cell (sorted).
        case cells([String])
        /// Every record of the dataset, in key order.
        case scan
    }

    /// The plan for a circle against a dataset of `records` records: its cells while they
    /// are at most as many as the records, a scan otherwise.
    static func cellPlan(lat: Double, lon: Double, radiusKm: Double, precision: Int, records: Int) -> CellPlan {
        if Geohash.cellCountBound(lat: lat, radiusKm: radiusKm, length: precision) <= Double(records) {
            return .cells(Geohash.cells(lat: lat, lon: lon, radiusKm: radiusKm, length: precision))
        }
        return .scan
    }

    /// The map view: open sessions within `radiusKm` of the point, soonest first. Reads the
    /// geohash cells that meet the circle, then checks each session's place.
    ///
    /// `precision` is the dataset's cell length (the pipeline's `catalog.geohashPrecision`):
    /// nil takes it from the manifest's `keyForm` (from the dataset's first key in manifests
    /// written before 2026-11-28). A latitude outside −90…90, a longitude outside −180…180, a
    /// radius that is negative or not finite, a precision outside 1…12 or one that is not the
    /// dataset's are `invalidArgument` errors. Any radius is answered in at most one read of
    /// the dataset.
    public func openSessions(lat: Double, lon: Double, radiusKm: Double, precision: Int? = nil) throws -> [OpenSession] {
        try openSessions(lat: lat, lon: lon, radiusKm: radiusKm, precision: precision, plan: nil)
    }

    /// `openSessions(lat:lon:radiusKm:precision:)` read the way `plan` says (nil: `cellPlan`).
    func openSessions(lat: Double, lon: Double, radiusKm: Double, precision: Int?, plan: CellPlan?) throws -> [OpenSession] {
        let found = try circleItems("open_sessions", lat: lat, lon: lon, radiusKm: radiusKm, precision: precision,
                                    plan: plan, as: OpenSession.self)
        // ISO 8601 instants in one format sort as text.
        return found.filter { GeoDistance.km(lat, lon, $0.lat, $0.lon) <= radiusKm }
            .sorted { $0.occursAt != $1.occursAt ? $0.occursAt < $1.occursAt : UTF8Order.less($0.session, $1.session) }
    }

    /// Upcoming events at venues within `radiusKm` of the point, soonest first, each with its
    /// distance. Reads the geohash cells that meet the circle, then checks each venue's place
    /// (the venues read in one batch). The arguments are checked as by
    /// `openSessions(lat:lon:radiusKm:precision:)`.
    public func nearby(lat: Double, lon: Double, radiusKm: Double, precision: Int? = nil) throws -> [NearbyMatch] {
        try nearby(lat: lat, lon: lon, radiusKm: radiusKm, precision: precision, plan: nil)
    }

    /// `nearby(lat:lon:radiusKm:precision:)` read the way `plan` says (nil: `cellPlan`).
    func nearby(lat: Double, lon: Double, radiusKm: Double, precision: Int?, plan: CellPlan?) throws -> [NearbyMatch] {
        let events = try circleItems("nearby", lat: lat, lon: lon, radiusKm: radiusKm, precision: precision,
                                     plan: plan, as: NearbyEvent.self)
        var seen = Set<Int64>()
        let ids = events.map(\.venue).filter { seen.insert($0).inserted }
        let venues = try dataset("venues")
        var distance: [Int64: Double] = [:]
        for (id, json) in zip(ids, try venues.records(keys: ids.map(String.init))) {
            guard let json else { continue }
            let v: CatalogVenue = try Self.decode(json, key: String(id), file: venues.path)
            if let vlat = v.lat, let vlon = v.lon { distance[id] = GeoDistance.km(lat, lon, vlat, vlon) }
        }
        return events.compactMap { e in
            guard let d = distance[e.venue], d <= radiusKm else { return nil }
            return NearbyMatch(event: e, distanceKm: d)
        }.sorted { ($0.event.startsAt, $0.event.event) < ($1.event.startsAt, $1.event.event) }
    }

    /// The items of every record of dataset `name` whose cell may meet the circle (a superset:
    /// the caller checks each item's place).
    private func circleItems<Item: Decodable>(_ name: String, lat: Double, lon: Double, radiusKm: Double, precision asked: Int?,
                                              plan: CellPlan?, as type: Item.Type) throws -> [Item] {
        let set = try dataset(name)
        let precision = try Self.cellLength(of: set, asked: asked)
        try Self.checkCircle(lat: lat, lon: lon, radiusKm: radiusKm, precision: precision, file: set.path)
        var out: [Item] = []
        switch plan ?? Self.cellPlan(lat: lat, lon: lon, radiusKm: radiusKm, precision: precision, records: set.count) {
        case .cells(let cells):
            for (cell, json) in zip(cells, try set.records(keys: cells)) {
                guard let json else { continue }
                out += try Self.decode(json, key: cell, file: set.path, as: ItemList<Item>.self).items
            }
        case .scan:
            try set.forEachRecord { json in
                out += try Self.decode(json, key: nil, file: set.path, as: ItemList<Item>.self).items
            }
        }
        return out
    }

    /// The cell length of a geohash-keyed dataset's lookups: `asked`, which must be the
    /// dataset's, or the dataset's when nil. The dataset's is the manifest's `keyForm`, or in
    /// older manifests the length of the first key (read once per dataset); an empty dataset
    /// of an older manifest takes `asked`, else 4 (the pipeline's default).
    static func cellLength(of set: SnapshotDataset, asked: Int?) throws -> Int {
        let name = SnapshotError.quoted(set.name)
        if let asked, !(1...12).contains(asked) {
            throw SnapshotError(file: set.path, "geohash precision \(asked) is not within 1...12", code: .invalidArgument)
        }
        let declared = try set.entry.keyForm?.geohashLength ?? set.firstKey().map { $0.prefix { $0 != "/" }.utf8.count }
        guard let declared else { return asked ?? 4 }
        if let asked, asked != declared {
            throw SnapshotError(file: set.path, "the cells of '\(name)' have \(declared) characters "
                + "(the pipeline's catalog.geohashPrecision), not \(asked): pass precision: \(declared), or nil for the dataset's",
                code: .invalidArgument)
        }
        return declared
    }

    /// Refuses a point, radius or precision that names no circle of cells.
    static func checkCircle(lat: Double, lon: Double, radiusKm: Double, precision: Int, file: String) throws {
        func refuse(_ message: String) -> SnapshotError { SnapshotError(file: file, message, code: .invalidArgument) }
        guard lat.isFinite, (-90...90).contains(lat) else { throw refuse("latitude \(lat) is not within -90...90") }
        guard lon.isFinite, (-180...180).contains(lon) else { throw refuse("longitude \(lon) is not within -180...180") }
        guard radiusKm.isFinite, radiusKm >= 0 else { throw refuse("radius \(radiusKm) km is not a distance (finite, at least 0)") }
        guard (1...12).contains(precision) else { throw refuse("geohash precision \(precision) is not within 1...12") }
    }

    private static func decode<T: Decodable>(_ json: [UInt8], key: String?, file: String, as type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(json))
        } catch {
            let record = key.map { "record '\(SnapshotError.quoted($0))'" } ?? "a record"
            throw SnapshotError(file: file, "\(record) does not decode as \(T.self): \(error)")
        }
    }
}
