import Foundation
import Testing
import TonightBase
import TonightCore
import TonightExports
import TonightGenerator
@testable import TonightPipeline
@testable import TonightRanking
import TonightTesting

/// `TicketsUsers`, the columns the tickets stage ranks from: read straight from the `users`
/// table (`TicketsUsers.Scan`, then each row decoded once into its place), they hold what
/// `TicketsUser.init(from:)` reads (row by row, with and without a shard's filter), and put in
/// id order every user keeps their own values.
@Suite struct TicketsUsersTests {
    /// The fields the ranker reads, user by user.
    static func expectSame(_ users: TicketsUsers, _ rows: [TicketsUser], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(users.count == rows.count, sourceLocation: sourceLocation)
        guard users.count == rows.count else { return }
        var differ: [Int] = []
        for (k, u) in rows.enumerated() {
            let v = users[k]
            let same = users.id(k) == u.id && Array(users.idBytes(k)) == Array(u.id.utf8)
                && v.lat?.bitPattern == u.lat?.bitPattern && v.lon?.bitPattern == u.lon?.bitPattern
                && v.radiusKm?.bitPattern == u.radiusKm?.bitPattern && v.maxPrice?.bitPattern == u.maxPrice?.bitPattern
                && Array(v.favorites) == u.favorites && Array(v.follows) == u.follows && Array(v.dismissed) == u.dismissed
            if !same { differ.append(k) }
        }
        #expect(differ.count == 0, "users differ at rows \(differ.prefix(5))", sourceLocation: sourceLocation)
    }

    /// Above and below the row count where the read splits into runs, with every field set
    /// or not and lists of every length (`ParallelTableReadTests.users`).
    @Test(arguments: [0, 1, 49_999, 120_001])
    func columnsHoldWhatTheRowsHold(count: Int) throws {
        let rows = ParallelTableReadTests.users(count)
        let url = try ParallelTableReadTests.table(rows)
        Self.expectSame(try TicketsUsers.read(from: url, keep: { _ in true }), try BinaryTable.read(TicketsUser.self, table: "users", from: url))
        // A shard's filter: the kept rows, whole and in order; the others never read.
        let keep: @Sendable (UnsafeRawBufferPointer) -> Bool = { $0.reduce(0) { $0 + Int($1) } % 3 == 0 }
        let expected = try ParallelTableReadTests.serial(url, keep: keep)
        #expect(count < 2 || expected.count < rows.count)
        Self.expectSame(try TicketsUsers.read(from: url, keep: keep), expected)
    }

    /// The table in id order (what the stage ranks from: `Scan`, then each row decoded once
    /// into its place): ids in UTF-8 byte order, and each user with their own place, budget and
    /// lists; a random permutation too, and a shard's rows in id order. Above and below the
    /// row count where the decoding splits into pieces.
    @Test(arguments: [0, 1, 3_000, 60_000])
    func reorderedUsersKeepTheirValues(count: Int) throws {
        let rows = ParallelTableReadTests.users(count)
        let url = try ParallelTableReadTests.table(rows)
        let scan = try TicketsUsers.Scan(url, keep: { _ in true })
        let order = scan.orderByID()
        #expect(order.sorted() == Array(0..<count))
        let sorted = try TicketsUsers(scan, order: order)
        Self.expectSame(sorted, order.map { rows[$0] })
        let ids = (0..<sorted.count).map(sorted.id)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { UTF8Order.less($0, $1) })
        #expect(ids == UTF8Order.sortedIndices(rows.map(\.id)).map { rows[$0].id })
        var rng = SplitMix64(seed: 11)
        var shuffled = Array(0..<count)
        for i in shuffled.indices.reversed() where i > 0 { shuffled.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        Self.expectSame(try TicketsUsers(scan, order: shuffled), shuffled.map { rows[$0] })
        // A shard's rows: the kept ones only, in their own id order.
        let keep: @Sendable (UnsafeRawBufferPointer) -> Bool = { $0.reduce(0) { $0 + Int($1) } % 3 == 0 }
        let kept = try ParallelTableReadTests.serial(url, keep: keep)
        let shard = try TicketsUsers.Scan(url, keep: keep)
        let shardOrder = shard.orderByID()
        Self.expectSame(try TicketsUsers(shard, order: shardOrder), shardOrder.map { kept[$0] })
    }

    /// The scan's points are the rows' (what `SharedPlaces` numbers before the users are put
    /// in id order): the same places shared, numbered alike.
    @Test func theScanNumbersThePlacesOfTheRows() throws {
        let rows = ParallelTableReadTests.users(20_000).enumerated().map { k, u in
            var u = u
            if k % 3 == 0, u.lat != nil { (u.lat, u.lon) = (40.5, -73.25) }  // shared by many
            return u
        }
        let scan = try TicketsUsers.Scan(try ParallelTableReadTests.table(rows), keep: { _ in true })
        let settings = try SharedPlacesTests.settings()
        let fromScan = SharedPlaces(scan, settings: settings), fromRows = SharedPlaces(rows, settings: settings)
        #expect(fromScan.count == fromRows.count && fromScan.count > 0)
        let differ = zip(fromScan.placeOf, fromRows.placeOf).filter { $0 != $1 }.count
        #expect(fromScan.placeOf.count == rows.count && differ == 0, "\(differ) users numbered differently")
    }

    /// Each user ranked from the columns in id order (as the stage reads them) gets the
    /// lists the same user gets ranked from a `TicketsUser` value, located or not, with a
    /// budget or not (`PerArtistCutTests`' world).
    @Test func usersFromTheColumnsGetTheListsOfTheValues() throws {
        let w = PerArtistCutTests.world, settings = try SharedPlacesTests.settings()
        let index = EventIndex(events: w.events, venues: w.venues, edges: w.edges.map { ($0.source, $0.target, $0.score) }, settings: settings)
        let rows = w.users.enumerated().map { k, u in
            var u = u
            if k % 5 == 0 { u.maxPrice = 40 }
            if k % 7 == 0 { (u.lat, u.lon) = (nil, nil) }
            return u
        }
        let scan = try TicketsUsers.Scan(try ParallelTableReadTests.table(rows), keep: { _ in true })
        let order = scan.orderByID()
        let users = try TicketsUsers(scan, order: order)
        var fromColumns = TicketsRanker(index: index, settings: settings), fromValues = TicketsRanker(index: index, settings: settings)
        var differ: [String] = [], listed = 0
        for k in 0..<users.count {
            fromColumns.rank(users[k])
            fromValues.rank(rows[order[k]])
            if fromColumns.lists != fromValues.lists { differ.append(users.id(k)) }
            listed += fromColumns.lists.explore.count + fromColumns.lists.feed.count
        }
        #expect(rows.count > 100 && listed > 1_000)
        #expect(differ.count == 0, "\(differ.prefix(5))")
    }

    /// Damaged tables are refused with the file named: cut short, a row count the bytes do not
    /// hold, a row with a NaN coordinate (load-tickets writes none: NaN means "absent" in the
    /// columns).
    @Test func damagedTablesAreRefused() throws {
        let rows = ParallelTableReadTests.users(60_000)
        let url = try ParallelTableReadTests.table(rows)
        let bytes = try Data(contentsOf: url)
        let short = url.deletingLastPathComponent().appendingPathComponent("short.bin")
        try bytes.prefix(bytes.count - 3).write(to: short)
        #expect {
            _ = try TicketsUsers.read(from: short, keep: { _ in true })
        } throws: { ($0 as? TonightError)?.file == short.path }
        // A header that claims a row for every byte after it: 200,000 ten-byte rows of zeros
        // (empty ids, nothing set) are there, the two million claimed are not.
        var header = BinaryWriter(capacity: 64)
        header.writeRaw(Array("TONIGHT-TABLE\n".utf8))
        header.write("users")
        header.write(UInt64(TicketsUser.schemaVersion))
        header.write(UInt64(2_000_000))
        let claims = url.deletingLastPathComponent().appendingPathComponent("claims.bin")
        try Data(header.bytes + [UInt8](repeating: 0, count: 2_000_000)).write(to: claims)
        #expect {
            _ = try TicketsUsers.read(from: claims, keep: { _ in true })
        } throws: { e in
            guard let e = e as? TonightError else { return false }
            return e.file == claims.path && e.message.contains("unexpected end")
        }
        var nan = rows[0]
        nan.lat = .nan
        let nanURL = try ParallelTableReadTests.table([nan] + rows.dropFirst())
        #expect {
            _ = try TicketsUsers.read(from: nanURL, keep: { _ in true })
        } throws: { e in
            guard let e = e as? TonightError else { return false }
            return e.file == nanURL.path && e.message.contains("NaN")
        }
    }
}
