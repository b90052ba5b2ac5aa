import Foundation
import Testing
import TonightCore
import TonightExports
import TonightFeed
import TonightRanking
@testable import TonightPipeline

/// Every intermediate table type, on the tables a run over `tiny` writes: its one field
/// declaration reads back to the same rows, and a truncated or corrupt file gives a
/// `TonightError`, never a trap, a hang or a huge allocation.
@Suite struct RecordSchemaTests {
    /// A finished run over the tiny inputs: stage name → output directory.
    static let stages: [String: URL] = {
        let work = temporaryDirectory("tonight-schema")
        try! runner(inputs: tinyInputs, work: work).run()
        let store = RunStore(work: work)
        let run = store.runDirectory(store.runIDs().first!)
        return Dictionary(uniqueKeysWithValues: ["parse-feed", "parse-affinity", "geocode", "load-tickets", "load-playmate"].map {
            ($0, run.appendingPathComponent($0))
        })
    }()

    /// One table: its file, and checks that take the row type.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var roundTrip: @Sendable (URL) throws -> Int
        var read: @Sendable (URL) throws -> Void
        var testDescription: String { name }

        init<R: BinaryRecord & Equatable>(_ table: StageTable<R>) {
            name = "\(table.stage) \(table.name)"
            let file = table.file
            roundTrip = { dir in
                let rows = try table.read(in: dir)
                for row in rows {
                    let bytes = RecordEncoder.binaryBytes(row)
                    let back = try bytes.withUnsafeBytes { raw -> R in
                        var r = BinaryReader(raw, name: file)
                        let row = try R(from: &r)
                        #expect(r.isAtEnd, "\(file): bytes left after one row")
                        return row
                    }
                    #expect(back == row, "\(file): a row does not read back as written")
                }
                return rows.count
            }
            read = { dir in _ = try table.read(in: dir) }
        }
    }

    static let cases: [Case] = [
        Case(.feedArtists), Case(.feedCategories), Case(.feedVenues), Case(.feedEvents), Case(.affinityEdges),
        Case(.placedVenues), Case(.locatedEvents), Case(.ticketsUsers), Case(.artistFavorites), Case(.players), Case(.sessions),
    ]

    static func file(of c: Case) -> (dir: URL, file: URL) {
        let parts = c.name.split(separator: " ")
        let dir = stages[String(parts[0])]!
        return (dir, dir.appendingPathComponent(parts[1] + ".bin"))
    }

    @Test(arguments: cases)
    func rowsReadBackAsWritten(_ c: Case) throws {
        let n = try c.roundTrip(Self.file(of: c).dir)
        #expect(n > 0, "\(c.name): the tiny run wrote no rows, so nothing was checked")
    }

    /// Cut at every byte (at most 1,500 cut points per file): always an error naming the file.
    @Test(arguments: cases)
    func truncatedTablesAreRefused(_ c: Case) throws {
        let (_, url) = Self.file(of: c)
        let bytes = try Data(contentsOf: url)
        let dir = temporaryDirectory("tonight-truncated")
        let copy = dir.appendingPathComponent(url.lastPathComponent)
        let step = max(1, bytes.count / 1_500)
        for cut in stride(from: 0, to: bytes.count, by: step) {
            try bytes.prefix(cut).write(to: copy)
            do {
                try c.read(dir)
                Issue.record("\(c.name): a table cut at byte \(cut) of \(bytes.count) was read")
            } catch let e as TonightError {
                #expect(e.file == copy.path || e.description.contains(copy.lastPathComponent), "\(e)")
            }
        }
    }

    /// Flip bits of every byte (at most 1,500 positions per file, three patterns each): the
    /// reader returns rows or a `TonightError`; any trap would end the test process.
    @Test(arguments: cases)
    func corruptTablesNeverTrap(_ c: Case) throws {
        let (_, url) = Self.file(of: c)
        let bytes = try Data(contentsOf: url)
        let dir = temporaryDirectory("tonight-flipped")
        let copy = dir.appendingPathComponent(url.lastPathComponent)
        let step = max(1, bytes.count / 1_500)
        var refused = 0
        for at in stride(from: 0, to: bytes.count, by: step) {
            for mask: UInt8 in [0xFF, 0x80, 0x01] {
                var damaged = bytes
                damaged[at] ^= mask
                try damaged.write(to: copy)
                do { try c.read(dir) } catch is TonightError { refused += 1 }
            }
        }
        // The header (magic, name, version) alone is 20+ bytes: flips there must be refused.
        #expect(refused > 0, "\(c.name): no corruption was noticed")
    }

    /// The partial reader alerts use agrees with the whole row on every user.
    @Test func idAndFollowsAgreeWithTheWholeRow() throws {
        let dir = Self.stages["load-tickets"]!
        let whole = try StageTable.ticketsUsers.read(in: dir)
        let partial = try BinaryTable.read(TicketsUser.self, table: "users", from: dir.appendingPathComponent("users.bin"),
                                           row: TicketsUser.readIDAndFollows)
        #expect(whole.map(\.id) == partial.map(\.id))
        #expect(whole.map(\.follows) == partial.map(\.follows))
        #expect(whole.contains { !$0.favorites.isEmpty })
        #expect(whole.contains { !$0.follows.isEmpty })
    }

    /// load-tickets' `favorites` table counts exactly the favourites of its `users` table.
    @Test func favoriteCountsAgreeWithTheUsersTable() throws {
        let dir = Self.stages["load-tickets"]!
        var counts: [Int64: Int] = [:]
        for a in try StageTable.ticketsUsers.read(in: dir).flatMap(\.favorites) { counts[a, default: 0] += 1 }
        let rows = try StageTable.artistFavorites.read(in: dir)
        #expect(rows.map(\.artist) == counts.keys.sorted())
        #expect(rows.allSatisfy { counts[$0.artist] == $0.users })
        #expect(rows.contains { $0.users > 1 })
    }

    /// The partial reader parse-affinity uses agrees with the whole row on every artist.
    @Test func artistIDAndNameAgreeWithTheWholeRow() throws {
        let url = Self.stages["parse-feed"]!.appendingPathComponent("artists.bin")
        let whole = try BinaryTable.read(FeedArtist.self, table: "artists", from: url)
        // The name's bytes are valid only while the reader's buffer lives: copied at once.
        let partial = try BinaryTable.read(FeedArtist.self, table: "artists", from: url) { r in
            let (id, name) = try FeedArtist.readIDAndNameBytes(&r)
            return (id, String(decoding: name, as: UTF8.self))
        }
        #expect(whole.count > 1)
        #expect(whole.map(\.id) == partial.map(\.0))
        #expect(whole.map(\.name) == partial.map(\.1))
        #expect(whole.contains { $0.url != nil || $0.imageUrl != nil })
    }

    /// A shard's readers skip the rows it does not own and decode the others whole: every
    /// third row kept gives exactly those rows (a skip that read one byte too few or too many
    /// would misread the next row or fail).
    @Test func ownedRowsAreTheWholeRowsOfTheKeptIDs() throws {
        let url = Self.stages["load-tickets"]!.appendingPathComponent("users.bin")
        let whole = try BinaryTable.read(TicketsUser.self, table: "users", from: url)
        let kept = Set(whole.indices.filter { $0 % 3 == 1 }.map { whole[$0].id })
        #expect(kept.count > 1 && kept.count < whole.count)
        let keep: (UnsafeRawBufferPointer) -> Bool = { kept.contains(String(decoding: $0, as: UTF8.self)) }
        let users = try BinaryTable.read(TicketsUser.self, table: "users", from: url, some: { r in try TicketsUser.read(&r, if: keep) })
        #expect(users == whole.filter { kept.contains($0.id) })
        let follows = try BinaryTable.read(TicketsUser.self, table: "users", from: url,
                                           some: { r in try TicketsUser.readIDAndFollows(&r, if: keep) })
        #expect(follows.map(\.id) == users.map(\.id))
        #expect(follows.map(\.follows) == users.map(\.follows))
        let none = try BinaryTable.read(TicketsUser.self, table: "users", from: url, some: { r in try TicketsUser.read(&r, if: { _ in false }) })
        #expect(none.isEmpty)
    }

    static func readBack<R: BinaryRecord>(_ row: R) throws -> R {
        let bytes = RecordEncoder.binaryBytes(row)
        return try bytes.withUnsafeBytes { raw in
            var r = BinaryReader(raw, name: "row")
            let back = try R(from: &r)
            #expect(r.isAtEnd)
            return back
        }
    }

    /// Hand-made rows with every optional absent and every list empty, then extremes.
    @Test func extremeRowsReadBack() throws {
        let events = [
            FeedEvent(id: 0, name: "", venue: 0, startsAt: Int64.min),
            FeedEvent(id: UInt64.max, name: "ü\u{0}\"", artists: [Int64.min, Int64.max], headliner: -1, category: 0,
                      venue: Int64.max, startsAt: Int64.max, timeTBA: true, status: 9, onsale: .now,
                      presale: TypedDate(kind: .date, at: -1), priceMinCents: 0, priceMaxCents: Int64.max, promoter: 1,
                      stars: 5, starReviews: 0, url: "", line: Int.max),
        ]
        for e in events {
            #expect(try Self.readBack(e) == e)
            let located = LocatedEvent(event: e, localStart: e.startsAt, timeZone: "", lat: -90, lon: 180)
            #expect(try Self.readBack(located) == located)
            #expect(try Self.readBack(LocatedEvent(event: e, localStart: nil, timeZone: nil)) == LocatedEvent(event: e, localStart: nil, timeZone: nil))
        }
        var user = TicketsUser(id: "", homeZip: nil, lat: nil, lon: nil, location: "none", radiusKm: nil, maxPrice: nil)
        #expect(try Self.readBack(user) == user)
        user.favorites = [1, -1]
        user.follows = [UInt64.max, 0]
        user.dismissed = [7]
        #expect(try Self.readBack(user) == user)
    }

    /// A count or length larger than the bytes left is refused before anything is allocated.
    @Test(arguments: [UInt64(Int.max), UInt64.max, 1 << 40])
    func hugeCountsAreRefused(_ count: UInt64) throws {
        var w = BinaryWriter(capacity: 16)
        w.write(count)
        let bytes = w.bytes + [0, 0, 0]
        for read in [{ (r: inout BinaryReader) in _ = try r.readString() }, { _ = try $0.readInt64Array() },
                     { _ = try $0.readFixedArray() }, { _ = try $0.readStringArray() }, { _ = try $0.readInt32Array() }] {
            #expect(throws: TonightError.self) {
                try bytes.withUnsafeBytes { raw in
                    var r = BinaryReader(raw, name: "row")
                    try read(&r)
                }
            }
        }
    }
}
