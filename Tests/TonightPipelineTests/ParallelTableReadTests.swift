import Foundation
import Testing
import TonightCore
import TonightExports
import TonightGenerator
import TonightTesting

/// `BinaryTable.readParallel` (the users table read on every core) against the one-core
/// read: the same rows in the same order, with and without a shard's filter, and the same
/// refusal of damaged tables.
@Suite struct ParallelTableReadTests {
    /// Users with every field set or not, variable lengths, non-ASCII ids.
    static func users(_ n: Int) -> [TicketsUser] {
        var rng = SplitMix64(seed: 5)
        return (0..<n).map { i in
            let r = rng.next()
            var u = TicketsUser(
                id: "u\(i)" + (r % 7 == 0 ? "é" : ""), homeZip: r % 3 == 0 ? nil : String(r % 99_999),
                lat: r % 5 == 0 ? nil : Double(r % 180) - 90, lon: r % 5 == 0 ? nil : Double(r % 360) - 180,
                location: r % 5 == 0 ? "none" : "coordinates", radiusKm: r % 4 == 0 ? nil : Double(r % 200),
                maxPrice: r % 6 == 0 ? Double(r % 300) : nil)
            u.favorites = (0..<Int(r % 9)).map { Int64($0) * 31 + Int64(i % 1000) }
            u.follows = (0..<Int((r >> 8) % 4)).map { UInt64($0) &* 0x9E37_79B9 &+ UInt64(i) }
            u.dismissed = (0..<Int((r >> 16) % 3)).map { UInt64($0) + 7 }
            return u
        }
    }

    static func table(_ rows: [TicketsUser]) throws -> URL {
        let url = temporaryDirectory("parallel-read").appendingPathComponent("users.bin")
        try BinaryTable.write(rows, table: "users", to: url)
        return url
    }

    static func parallel(_ url: URL, keep: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) throws -> [TicketsUser] {
        try BinaryTable.readParallel(TicketsUser.self, table: "users", from: url, skip: TicketsUser.skip,
                                     some: { r in try TicketsUser.read(&r, if: keep) })
    }

    static func serial(_ url: URL, keep: (UnsafeRawBufferPointer) -> Bool) throws -> [TicketsUser] {
        try BinaryTable.read(TicketsUser.self, table: "users", from: url, some: { r in try TicketsUser.read(&r, if: keep) })
    }

    /// Above and below the row count where the read splits into runs.
    @Test(arguments: [0, 1, 49_999, 120_001])
    func sameRowsAsTheOneCoreRead(count: Int) throws {
        let rows = Self.users(count)
        let url = try Self.table(rows)
        let all = try Self.parallel(url) { _ in true }
        #expect(all.count == rows.count)
        let same = all == rows
        #expect(same)
        // A shard's filter: every third id byte sum; kept rows move together, in order.
        let keep: @Sendable (UnsafeRawBufferPointer) -> Bool = { $0.reduce(0) { $0 + Int($1) } % 3 == 0 }
        let mine = try Self.parallel(url, keep: keep)
        let expected = try Self.serial(url, keep: keep)
        #expect(mine.count == expected.count && (rows.count < 2 || mine.count < rows.count))
        let sameFiltered = mine == expected
        #expect(sameFiltered)
    }

    /// Truncated or altered tables: the parallel read refuses what the one-core read refuses
    /// (a `TonightError`, never a trap), and accepts nothing it refuses.
    @Test func damagedTablesAreRefusedAlike() throws {
        let rows = Self.users(60_000)
        let url = try Self.table(rows)
        let good = try Data(contentsOf: url)
        var rng = SplitMix64(seed: 9)
        for trial in 0..<24 {
            var bad = good
            if trial % 2 == 0 {
                bad = bad.prefix(Int(rng.next() % UInt64(good.count)))
            } else {
                let at = 40 + Int(rng.next() % UInt64(good.count - 40))
                bad[at] ^= UInt8(1 + rng.next() % 255)
            }
            try bad.write(to: url)
            let serial = Result { try Self.serial(url) { _ in true } }
            let parallel = Result { try Self.parallel(url) { _ in true } }
            switch (serial, parallel) {
            case (.success(let a), .success(let b)):
                let same = a == b
                #expect(same, "trial \(trial): both read the altered table, differently")
            case (.failure, .failure(let e)):
                #expect(e is TonightError, "trial \(trial): \(e)")
            default:
                Issue.record("trial \(trial): one read accepted what the other refused")
            }
        }
    }
}
