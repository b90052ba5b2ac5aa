import TonightBase
import TonightCore

/// How many loaded users list an artist among their favourites: a row of load-tickets'
/// `favorites` table, which the catalog reads for the `artists`, `artist_suggest` and
/// `category_artists` datasets (it used to decode the whole `users` table for these counts:
/// a quarter of its CPU).
package struct ArtistFavorites: Sendable, Equatable, BinaryRecord {
    /// The artist's feed id.
    package var artist: Int64
    /// Users favouring it (each user once: favourites lists have no repeats).
    package var users: Int

    package init(artist: Int64, users: Int) {
        self.artist = artist
        self.users = users
    }

    package static var schemaVersion: Int { 1 }

    package func encode(to e: inout RecordEncoder) {
        e.key(String(artist))
        e.field("artist", artist)
        e.field("users", users)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(artist: try r.readInt64(), users: Int(try r.readInt(in: 1...Int64.max)))
    }

    /// Ids below this are counted in a dense array (at most 64 MiB of counters).
    package static let denseLimit = 1 << 24

    /// The rows for the favourite ids `lists` yields (one list per user, `count` lists), by
    /// artist id: counted in a dense array when every id is a small non-negative number (the
    /// feed's are: a few million at most), one increment per favourite; else in a dictionary
    /// per core, merged.
    package static func counts(lists count: Int, _ list: @Sendable (Int, (UnsafeBufferPointer<Int64>) -> Void) -> Void) throws -> [ArtistFavorites] {
        var low = Int64.max, high = Int64.min
        for u in 0..<count {
            list(u) { ids in
                for a in ids {
                    low = min(low, a)
                    high = max(high, a)
                }
            }
        }
        guard low <= high else { return [] }
        if low >= 0 && high < Int64(denseLimit) {
            var dense = [Int32](repeating: 0, count: Int(high) + 1)
            dense.withUnsafeMutableBufferPointer { d in
                for u in 0..<count {
                    list(u) { ids in for a in ids { d[Int(a)] &+= 1 } }
                }
            }
            var rows: [ArtistFavorites] = []
            for (a, n) in dense.enumerated() where n != 0 { rows.append(ArtistFavorites(artist: Int64(a), users: Int(n))) }
            return rows
        }
        let width = Parallel.width
        let parts = try Parallel.map(width) { w -> [Int64: Int] in
            var counts: [Int64: Int] = [:]
            for u in Parallel.range(w, of: width, in: count) {
                list(u) { ids in for a in ids { counts[a, default: 0] += 1 } }
            }
            return counts
        }
        var counts: [Int64: Int] = [:]
        for part in parts { counts.merge(part, uniquingKeysWith: +) }
        return counts.map { ArtistFavorites(artist: $0.key, users: $0.value) }.sorted { $0.artist < $1.artist }
    }
}
