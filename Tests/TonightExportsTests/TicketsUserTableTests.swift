import Foundation
import Testing
import TonightTesting
import TonightCore
import TonightGenerator
import TonightGeo
@testable import TonightExports

/// The column table load-tickets builds, checked against plain values and a naive reference
/// on generated exports.
@Suite struct TicketsUserTableTests {
    static let zips = try! ZIPPoints.bundled()

    /// The `small` generated Tickets Tonight export (10,000 users), made once.
    static let small: URL = {
        let dir = temporaryDirectory("tonight-small")
        _ = try! DatasetGenerator(scale: .small, seed: 3).generate(into: dir)
        return dir.appendingPathComponent("tickets")
    }()

    static func lines(_ url: URL) -> [[String]] {
        let text = try! String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The table writes exactly the bytes `TicketsUser.encode` writes for the same users: the
    /// `users` table keeps its format for the stages that read it.
    @Test func writesWhatTicketsUserWrites() throws {
        let dir = temporaryDirectory("tonight-table")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Hostile ids and ZIPs beside the generated rows: non-ASCII, invalid UTF-8 (rejected: an
        // id is never repaired), quoted, a ZIP+4, a Canadian code, coordinates, a budget of zero.
        var users = try Data(contentsOf: Self.small.appendingPathComponent("users.csv"))
        users.append(Data("é-ü,10001-1234,,,,0\n\"q,\"\"uote\",M5V 1J1,,,5,\nx\u{301},,40.5,-73.9,,\n".utf8))
        users.append(contentsOf: [0x62, 0x61, 0x64, 0xFF] + Array(",,,,,\n".utf8))  // "bad\u{FF}" : invalid UTF-8
        try users.write(to: dir.appendingPathComponent("users.csv"))
        for f in ["favorites.csv", "follows.csv", "dismissed.csv"] {
            try FileManager.default.copyItem(at: Self.small.appendingPathComponent(f), to: dir.appendingPathComponent(f))
        }
        let artists = Set(Self.lines(Self.small.appendingPathComponent("favorites.csv")).compactMap { Int64($0[1]) })
        var loader = TicketsLoader(knownArtists: artists, knownEvents: [], zips: Self.zips)
        loader.maxRejectShare = 1
        let export = try loader.load(directory: dir)
        let records = export.users.records
        #expect(records.count == export.users.count && records.count > 10_000)
        #expect(!records.contains { $0.id.hasPrefix("bad") })
        #expect(export.rejects.contains { $0.reason == "bad-id" && $0.detail.contains("bad\u{FFFD}") })
        #expect(records.contains { $0.id == "q,\"uote" && $0.homeZip == "M5V 1J1" && $0.location == "none" })
        #expect(records.contains { $0.id == "é-ü" && $0.location == "postal" && $0.maxPrice == 0 })

        let ours = dir.appendingPathComponent("ours.bin"), values = dir.appendingPathComponent("values.bin")
        try export.users.write(to: ours)
        try BinaryTable.write(records, table: "users", to: values)
        #expect(try Data(contentsOf: ours) == Data(contentsOf: values))
        // And the file reads back as the same users.
        #expect(try BinaryTable.read(TicketsUser.self, table: "users", from: ours) == records)
    }

    /// Lists against a naive reference: a dictionary from id to row, each pair file in order,
    /// unknown users and artists left out, repeats dropped (the first stays), followed events
    /// kept even when unknown, dismissed ones only when known.
    @Test func listsMatchANaiveReference() throws {
        let favoriteRows = Self.lines(Self.small.appendingPathComponent("favorites.csv"))
        var artists = Set(favoriteRows.compactMap { Int64($0[1]) })
        for a in artists.sorted().prefix(50) { artists.remove(a) }  // some favourites become unknown
        let followRows = Self.lines(Self.small.appendingPathComponent("follows.csv"))
        let dismissedRows = Self.lines(Self.small.appendingPathComponent("dismissed.csv"))
        let events = Set((followRows + dismissedRows).compactMap { EventID.parse($0[1]) }.enumerated().filter { $0.offset % 3 != 0 }.map(\.element))
        let export = try TicketsLoader(knownArtists: artists, knownEvents: events, zips: Self.zips).load(directory: Self.small)

        var row: [String: Int] = [:]
        for (i, u) in export.users.records.enumerated() { row[u.id] = i }
        var favorites = [[Int64]](repeating: [], count: row.count)
        var follows = [[UInt64]](repeating: [], count: row.count)
        var dismissed = [[UInt64]](repeating: [], count: row.count)
        var unknownArtists = 0, duplicates = 0
        for r in favoriteRows {
            guard let u = row[r[0]], let a = Int64(r[1]) else { continue }
            guard artists.contains(a) else { unknownArtists += 1; continue }
            if favorites[u].contains(a) { duplicates += 1 } else { favorites[u].append(a) }
        }
        for r in followRows {
            guard let u = row[r[0]], let e = EventID.parse(r[1]) else { continue }
            if !follows[u].contains(e) { follows[u].append(e) }
        }
        for r in dismissedRows {
            guard let u = row[r[0]], let e = EventID.parse(r[1]), events.contains(e) else { continue }
            if !dismissed[u].contains(e) { dismissed[u].append(e) }
        }
        let records = export.users.records
        #expect(records.map(\.favorites) == favorites)
        #expect(records.map(\.follows) == follows)
        #expect(records.map(\.dismissed) == dismissed)
        #expect(export.counts["unknown-artist"] == unknownArtists && unknownArtists > 0)
        #expect(export.counts["duplicate-favorite", default: 0] == duplicates)
        #expect(favorites.reduce(0) { $0 + $1.count } > 50_000)
    }

    /// Users whose rows are not together (shuffled files) take the counting sort; the lists
    /// are the same as for the grouped files, in file order per user.
    @Test(arguments: [1, 2, 7])
    func groupedAndScatteredPairsGiveTheSameLists(_ partCount: Int) {
        var rng = SplitMix64(seed: UInt64(partCount))
        let users = 500
        var pairs: [(Int32, UInt64)] = []
        for u in 0..<users {
            for _ in 0..<Int(rng.next() % 40) { pairs.append((Int32(u), rng.next() % 30)) }  // repeats, lists past 32
        }
        func parts(_ pairs: [(Int32, UInt64)]) -> [PairFile] {
            (0..<partCount).map { p in
                var f = PairFile()
                for (k, v) in pairs[(pairs.count * p / partCount)..<(pairs.count * (p + 1) / partCount)] {
                    f.keys.append(k)
                    f.values.append(v)
                }
                return f
            }
        }
        // The same pairs interleaved: each user's order kept, users mixed.
        var scattered: [(Int32, UInt64)] = []
        var queues = (0..<users).map { u in pairs.filter { $0.0 == Int32(u) } }
        while queues.contains(where: { !$0.isEmpty }) {
            let u = Int(rng.next() % UInt64(users))
            if !queues[u].isEmpty { scattered.append(queues[u].removeFirst()) }
        }
        let grouped = UserLists.grouping(parts(pairs), users: users)
        let sorted = UserLists.grouping(parts(scattered), users: users)
        var expected: [[UInt64]] = []
        var repeats = 0
        for u in 0..<users {
            var list: [UInt64] = []
            for (k, v) in pairs where k == Int32(u) {
                if list.contains(v) { repeats += 1 } else { list.append(v) }
            }
            expected.append(list)
        }
        #expect((0..<users).map { grouped.lists.list($0) } == expected)
        #expect((0..<users).map { sorted.lists.list($0) } == expected)
        #expect(grouped.duplicates == repeats && sorted.duplicates == repeats && repeats > 0)
    }
}
