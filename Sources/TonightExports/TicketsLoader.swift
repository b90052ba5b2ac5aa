import Foundation
import TonightBase
import TonightCore
import TonightGeo

/// What load-tickets produces.
package struct TicketsExport: Sendable {
    package var users: TicketsUserTable
    package var rejects: [ExportReject]
    /// Counted, not rejected: `unknown-artist`, `unknown-event`, `unknown-user`, `duplicate-favorite`, …
    package var counts: [String: Int]
    /// Data rows read per file.
    package var rows: [String: Int]
    package var bytes: Int
    /// Wall seconds of the loader's phases (`open`, `users`, `intern`, `pairs`, `group`), for the
    /// stage's details.
    package var seconds: [String: Double] = [:]
    /// Up to five rows of a warning that names a fault of the export (`coordinates-swapped`,
    /// `zip-leading-zeros-lost`): the user id quoted and the values, for the report.
    package var examples: [String: [String]] = [:]
}

/// The feed's artist and event ids, which favourites and dismissals must name.
package struct KnownFeedIDs: Sendable {
    package var artists: IntegerSet
    package var events: IntegerSet

    package init(artists: IntegerSet, events: IntegerSet) {
        self.artists = artists
        self.events = events
    }
}

/// Reads the Tickets Tonight exports (user-data.md): users, favorites, follows, dismissed.
///
/// Both cores work throughout: users.csv is parsed in parts beside the reading of the feed's
/// ids; ids are interned in file order (hashes computed in the parts); the three pair files
/// are parsed in parts together; each file's pairs are grouped per user by a parallel
/// counting sort. Results are columns (`TicketsUserTable`), not a value per user.
package struct TicketsLoader {
    package var maxRejectShare = 0.01
    package var csvLimits = CSVLimits()
    /// Whether users.csv and favorites.csv may hold no rows (`exports.allowEmpty`; `EmptyExport`).
    package var allowEmpty = false
    private let zips: @Sendable () throws -> ZIPPoints
    private let known: @Sendable () throws -> KnownFeedIDs

    /// A loader that places home ZIPs with `zips` and checks favourites and dismissals
    /// against these ids.
    package init(knownArtists: Set<Int64>, knownEvents: Set<UInt64>, zips: ZIPPoints) {
        let ids = KnownFeedIDs(artists: IntegerSet(knownArtists), events: IntegerSet(knownEvents))
        self.init(zips: { zips }, known: { ids })
    }

    /// A loader whose ZIP points and known ids are made by `zips` and `known`, which run
    /// while users.csv is parsed (reading the feed's tables takes a tenth of a second).
    package init(zips: @escaping @Sendable () throws -> ZIPPoints, known: @escaping @Sendable () throws -> KnownFeedIDs) {
        self.zips = zips
        self.known = known
    }

    /// The pair files: name, value column, and whether the file may be absent.
    static let pairFiles: [(name: String, column: String, optional: Bool)] = [
        ("favorites.csv", "artist_id", false), ("follows.csv", "event_id", false), ("dismissed.csv", "event_id", true),
    ]

    package func load(directory dir: URL) throws -> TicketsExport {
        var clock = PhaseClock()
        var rejects: [ExportReject] = []
        var counts: [String: Int] = [:]
        var rows: [String: Int] = [:]

        let usersFile = try open(dir, "users.csv", optional: false)!
        let pairFiles = try Self.pairFiles.map { try open(dir, $0.name, optional: $0.optional) }
        let bytes = usersFile.byteCount + pairFiles.reduce(0) { $0 + ($1?.byteCount ?? 0) }
        clock.lap("open")  // the files read into memory, one after another

        // Every header first, so that a missing column is reported in file order.
        let header = try usersFile.header(required: ["user_id"])
        let absentColumns = usersFile.absentColumns().map { [$0] } ?? []
        let pairHeaders = try pairFiles.enumerated().map { i, file in
            try file?.header(required: ["user_id", Self.pairFiles[i].column])
        }

        // 1. users.csv in parts, beside the ZIP points, the feed's ids and the cutting of the
        //    pair files into parts (a pass over their 185 MB to count lines).
        let pieces = usersFile.parts(4, headerEnd: header.end, headerLines: header.lines)
        let makeZIPs = self.zips, known = self.known
        let splits = pairFiles.indices.filter { pairFiles[$0] != nil }
        let first = try Parallel.map(2 + splits.count + pieces.count) { i -> PhaseOne in
            // The long jobs first: the cores then share the parts of users.csv.
            switch i {
            case 0: return .zips(try makeZIPs())
            case 1: return .known(try known())
            case 2..<(2 + splits.count):
                let k = splits[i - 2], file = pairFiles[k]!, h = pairHeaders[k]!
                return .pairParts(k, file.parts(max(1, (file.byteCount + 19_999_999) / 20_000_000), headerEnd: h.end, headerLines: h.lines))
            default:
                return .users(try UserRows.read(usersFile, part: pieces[i - 2 - splits.count], columns: header.columns))
            }
        }
        var parsed: [UserRows] = []
        var found: KnownFeedIDs?
        var points: ZIPPoints?
        var pairParts = [[CSVFile.Part]](repeating: [], count: pairFiles.count)
        for r in first {
            switch r {
            case .users(let u): parsed.append(u)
            case .known(let k): found = k
            case .zips(let z): points = z
            case .pairParts(let k, let parts): pairParts[k] = parts
            }
        }
        guard let ids = found, let points else { preconditionFailure("phase one lost a result") }
        clock.lap("users")

        // 2. Ids interned on both cores (`IDIndex.build`): the first row of an id is kept.
        var userRows = 0
        var fileRejects: [ExportReject] = []
        for part in parsed {
            userRows += part.rows
            fileRejects += part.rejects
        }
        var all = parsed.first ?? UserRows(capacity: 0)
        for part in parsed.dropFirst() { all.append(contentsOf: part) }
        let (index, duplicates) = IDIndex.build(all.ids, hashes: all.hashes)
        for r in duplicates {
            let id = all.ids.withBytes(of: r) { String(decoding: $0, as: UTF8.self) }
            fileRejects.append(ExportReject(file: "users.csv", line: all.lines[r], reason: "duplicate-id",
                                            detail: "user_id \(id) appears earlier; the first row is kept"))
        }
        var users = TicketsUserTable(ids: index, rows: all, skipping: duplicates)
        let faults = users.geocode(with: points)
        if faults.unplacedZIPs > 0 { counts["ungeocoded-zip"] = faults.unplacedZIPs }
        if faults.decimalZIPs > 0 { counts["zip-as-decimal"] = faults.decimalZIPs }
        var examples: [String: [String]] = [:]
        if !faults.zerosLost.isEmpty {
            counts["zip-leading-zeros-lost"] = faults.zerosLost.count
            examples["zip-leading-zeros-lost"] = faults.zerosLost.prefix(5).map { users.example($0, showing: "home_zip " + users.homeZip($0)) }
        }
        if !faults.swapped.isEmpty {
            counts["coordinates-swapped"] = faults.swapped.count
            examples["coordinates-swapped"] = faults.swapped.prefix(5).map { users.example($0, showing: "lat \(users.lat[$0]), lon \(users.lon[$0])") }
        }
        fileRejects.sort { $0.line < $1.line }
        try EmptyExport.check(usersFile, rows: userRows, allowed: allowEmpty)
        try RejectShare.check(maxRejectShare, stage: "load-tickets", usersFile, rows: userRows, rejects: fileRejects, before: rejects)
        rows["users.csv"] = userRows
        rejects += fileRejects
        clock.lap("intern")

        // 3. The pair files, in parts of about 20 MB, all parsed together.
        let checks = [PairCheck(known: ids.artists, dropUnknown: true), PairCheck(known: ids.events, dropUnknown: false),
                      PairCheck(known: ids.events, dropUnknown: true)]
        var jobs: [(file: Int, part: CSVFile.Part, layout: PairFile.Layout)] = []
        for (i, h) in pairHeaders.enumerated() {
            guard let h else { continue }
            let column = Self.pairFiles[i].column
            let layout = PairFile.Layout(
                keyColumn: "user_id", valueColumn: column, columns: h.columns,
                value: column == "event_id" ? .eventID : .integerID, check: checks[i])
            for part in pairParts[i] { jobs.append((i, part, layout)) }
        }
        let userIndex = users.ids, work = jobs
        let read = try Parallel.map(work.count) { j in
            try PairFile.read(pairFiles[work[j].file]!, part: work[j].part, work[j].layout, index: userIndex)
        }

        clock.lap("pairs")

        // 4. Each file's pairs grouped per user, repeats dropped.
        let unknownNames = ["unknown-artist", "unknown-event-followed", "unknown-event-dismissed"]
        for (i, file) in pairFiles.enumerated() {
            guard let file else { continue }
            let parts = (0..<jobs.count).filter { jobs[$0].file == i }.map { read[$0] }
            let fileRows = parts.reduce(0) { $0 + $1.rows }, fileRejects = parts.flatMap(\.rejects)
            let emptyValues = parts.reduce(0) { $0 + $1.emptyValues }
            try EmptyExport.check(file, rows: fileRows, emptyValues: emptyValues, column: Self.pairFiles[i].column, allowed: allowEmpty)
            try RejectShare.check(maxRejectShare, stage: "load-tickets", file, rows: fileRows, rejects: fileRejects, before: rejects)
            rows[file.name] = fileRows
            rejects += fileRejects
            counts["unknown-user", default: 0] += parts.reduce(0) { $0 + $1.unknownUsers }
            counts["decimal-integer", default: 0] += parts.reduce(0) { $0 + $1.decimalValues }
            counts["empty-value", default: 0] += emptyValues
            counts[unknownNames[i], default: 0] += parts.reduce(0) { $0 + $1.unknownValues }
            let (lists, duplicates) = UserLists.grouping(parts, users: users.count)
            switch i {
            case 0:
                users.favorites = lists
                counts["duplicate-favorite", default: 0] += duplicates
            case 1: users.follows = lists
            default: users.dismissed = lists
            }
        }
        for (k, v) in counts where v == 0 { counts[k] = nil }
        all.nullMarkers.record(counts: &counts, examples: &examples)
        if all.nullIslands > 0 { counts[NullIsland.warning] = all.nullIslands }
        if all.moneyPrices > 0 { counts["money-format"] = all.moneyPrices }
        ExportDirectory.note(in: dir, known: Self.fileNames, counts: &counts, examples: &examples)
        ExportDirectory.note(absentColumns: absentColumns, counts: &counts, examples: &examples)
        clock.lap("group")
        return TicketsExport(users: users, rejects: rejects, counts: counts, rows: rows, bytes: bytes, seconds: clock.laps,
                             examples: examples)
    }

    /// What a job of the first phase gives.
    private enum PhaseOne: Sendable {
        case users(UserRows)
        case known(KnownFeedIDs)
        case zips(ZIPPoints)
        case pairParts(Int, [CSVFile.Part])
    }

    /// The files the loader reads (user-data.md); any other is `unread-file`.
    package static let fileNames = ["users.csv"] + pairFiles.map(\.name)

    private func open(_ dir: URL, _ name: String, optional: Bool) throws -> CSVFile? {
        let url = dir.appendingPathComponent(name)
        guard FileIO.exists(url) else {
            if optional { return nil }
            throw ExportDirectory.missing(name, in: dir, known: Self.fileNames, export: "Tickets Tonight")
        }
        return try CSVFile(url, limits: csvLimits)
    }
}

extension TicketsUserTable {
    /// The table of the parsed rows of users.csv but `skipping` (sorted row numbers), whose
    /// ids `ids` holds in order.
    init(ids: IDIndex, rows: UserRows, skipping: [Int]) {
        self.ids = ids
        guard !skipping.isEmpty else {
            (zips, lat, lon, radiusKm, maxPrice, location) = (rows.zips, rows.lat, rows.lon, rows.radiusKm, rows.maxPrice, rows.location)
            return
        }
        var next = 0
        for k in 0..<rows.location.count {
            if next < skipping.count, skipping[next] == k {
                next += 1
                continue
            }
            zips.append(row: k, of: rows.zips)
            lat.append(rows.lat[k])
            lon.append(rows.lon[k])
            radiusKm.append(rows.radiusKm[k])
            maxPrice.append(rows.maxPrice[k])
            location.append(rows.location[k])
        }
    }
}
