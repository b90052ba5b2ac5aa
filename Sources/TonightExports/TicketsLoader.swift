import Foundation
import TonightCore
import TonightGeo

/// What load-tickets produces.
package struct TicketsExport: Sendable {
    package var users: [TicketsUser]
    package var rejects: [ExportReject]
    /// Counted, not rejected: `unknown-artist`, `unknown-event`, `unknown-user`, `duplicate-favorite`, …
    package var counts: [String: Int]
    /// Data rows read per file.
    package var rows: [String: Int]
    package var bytes: Int
}

/// Reads the Tickets Tonight exports (user-data.md): users, favorites, follows, dismissed.
package struct TicketsLoader {
    package var knownArtists: Set<Int64>
    package var knownEvents: Set<UInt64>
    package var maxRejectShare = 0.01
    package var geocoder: Geocoder

    package init(knownArtists: Set<Int64>, knownEvents: Set<UInt64>, geocoder: Geocoder) {
        self.knownArtists = knownArtists
        self.knownEvents = knownEvents
        self.geocoder = geocoder
    }

    package func load(directory dir: URL) throws -> TicketsExport {
        let t0 = Date()
        var rejects: [ExportReject] = []
        var counts: [String: Int] = [:]
        var rows: [String: Int] = [:]
        var bytes = 0

        // users.csv first: it defines who exists.
        let usersFile = try open(dir, "users.csv", optional: false)!
        bytes += usersFile.byteCount
        // Rows are parsed (and home ZIPs geocoded) in two parts on the two cores; ids are then
        // interned in file order, so "the first row is kept" holds for duplicates.
        let header = try usersFile.header(required: ["user_id"])
        let pieces = usersFile.parts(2, headerEnd: header.end, headerLines: header.lines)
        let geocoder = self.geocoder
        let parsed = try Parallel.map(pieces.count) { i in
            UserRows.read(usersFile, part: pieces[i], columns: header.columns, geocoder: geocoder)
        }
        var users: [TicketsUser] = []
        users.reserveCapacity(parsed.reduce(0) { $0 + $1.users.count })
        var index = IDIndex(capacity: usersFile.byteCount / 20)
        var fileRejects: [ExportReject] = []
        var userRows = 0
        for part in parsed {
            userRows += part.rows
            fileRejects += part.rejects
            if part.ungeocoded > 0 { counts["ungeocoded-zip", default: 0] += part.ungeocoded }
            for (k, user) in part.users.enumerated() {
                var id = user.id
                let fresh = id.withUTF8 { index.insert($0) != nil }
                guard fresh else {
                    fileRejects.append(ExportReject(file: "users.csv", line: part.lines[k], reason: "duplicate-id",
                                                    detail: "user_id \(user.id) appears earlier; the first row is kept"))
                    continue
                }
                users.append(user)
            }
        }
        fileRejects.sort { $0.line < $1.line }
        try RejectShare.check(maxRejectShare, stage: "load-tickets", usersFile, rows: userRows, rejects: fileRejects)
        rows["users.csv"] = userRows
        rejects += fileRejects

        let tUsers = Date()
        // favorites, follows, dismissed: pairs (user, value), read on both cores.
        let specs: [(name: String, column: String, optional: Bool)] = [
            ("favorites.csv", "artist_id", false), ("follows.csv", "event_id", false), ("dismissed.csv", "event_id", true),
        ]
        let files = try specs.map { try open(dir, $0.name, optional: $0.optional) }
        let frozenIndex = index
        // Each file is read in two parts on the two cores (favorites is most of the bytes).
        let loaded = try (0..<specs.count).map { i -> PairFile? in
            guard let f = files[i] else { return nil }
            return try PairFile.read(f, valueColumn: specs[i].column, isEvent: specs[i].column == "event_id",
                                     index: frozenIndex, parts: 2)
        }
        let tPairs = Date()
        defer {
            if ProcessInfo.processInfo.environment["TONIGHT_TRACE"] != nil {
                FileHandle.standardError.write(Data("load-tickets trace: users \(tUsers.timeIntervalSince(t0)) pairs \(tPairs.timeIntervalSince(tUsers)) merge \(Date().timeIntervalSince(tPairs))\n".utf8))
            }
        }
        for (i, pf) in loaded.enumerated() {
            guard let pf else { continue }
            bytes += files[i]!.byteCount
            try RejectShare.check(maxRejectShare, stage: "load-tickets", files[i]!, rows: pf.rows, rejects: pf.rejects)
            rows[specs[i].name] = pf.rows
            rejects += pf.rejects
            counts["unknown-user", default: 0] += pf.unknownUsers
            // Grouped by user with a counting sort, then each user's list built at its size.
            var order = [Int32](repeating: 0, count: users.count + 1)
            for (u, _) in pf.pairs { order[Int(u) + 1] += 1 }
            for k in 1..<order.count { order[k] += order[k - 1] }
            var fill = order
            var grouped = [UInt64](repeating: 0, count: pf.pairs.count)
            for (u, v) in pf.pairs {
                grouped[Int(fill[Int(u)])] = v
                fill[Int(u)] += 1
            }
            // Each user's list, built on both cores over halves of the user range.
            let groupStart = order, values = grouped
            let kind = specs[i].name
            let knownArtists = self.knownArtists, knownEvents = self.knownEvents
            let halves = 2
            let partCounts = users.withUnsafeMutableBufferPointer { buf -> [[String: Int]] in
                let base = UnsafeSendable(buf)
                var results = [[String: Int]](repeating: [:], count: halves)
                results.withUnsafeMutableBufferPointer { resultsBuf in
                let box = UnsafeSendable(resultsBuf)
                DispatchQueue.concurrentPerform(iterations: halves) { h in
                    let users = base.value
                    var local: [String: Int] = [:]
                    let from = users.count * h / halves, to = users.count * (h + 1) / halves
                    for u in from..<to {
                        let lo = Int(groupStart[u]), hi = Int(groupStart[u + 1])
                        guard lo < hi else { continue }
                        switch kind {
                        case "favorites.csv":
                            var list: [Int64] = []
                            list.reserveCapacity(hi - lo)
                            for k in lo..<hi {
                                let artist = Int64(bitPattern: values[k])
                                guard knownArtists.contains(artist) else { local["unknown-artist", default: 0] += 1; continue }
                                if list.contains(artist) { local["duplicate-favorite", default: 0] += 1; continue }
                                list.append(artist)
                            }
                            users[u].favorites = list
                        case "follows.csv":
                            var list: [UInt64] = []
                            for k in lo..<hi {
                                let e = values[k]
                                if !knownEvents.contains(e) { local["unknown-event-followed", default: 0] += 1 }
                                if !list.contains(e) { list.append(e) }
                            }
                            users[u].follows = list
                        default:
                            var list: [UInt64] = []
                            for k in lo..<hi {
                                let e = values[k]
                                guard knownEvents.contains(e) else { local["unknown-event-dismissed", default: 0] += 1; continue }
                                if !list.contains(e) { list.append(e) }
                            }
                            users[u].dismissed = list
                        }
                    }
                    box.value[h] = local
                }
                }
                return results
            }
            for local in partCounts {
                for (k, v) in local { counts[k, default: 0] += v }
            }
        }
        for (k, v) in counts where v == 0 { counts[k] = nil }
        return TicketsExport(users: users, rejects: rejects, counts: counts, rows: rows, bytes: bytes)
    }

    private func open(_ dir: URL, _ name: String, optional: Bool) throws -> CSVFile? {
        let url = dir.appendingPathComponent(name)
        guard FileIO.exists(url) else {
            if optional { return nil }
            throw TonightError(.invalidInput, "export file \(name) is missing", file: url.path,
                               hint: "the Tickets Tonight export must hold users.csv, favorites.csv and follows.csv")
        }
        return try CSVFile(url)
    }

}
