import CSystem
import Foundation
import TonightBase
import TonightCore

extension TicketsUsers {
    /// The rows of the `users` table at `url` whose ids (UTF-8 bytes) `keep` accepts, in
    /// table order (tests, and any reader that wants the rows as written).
    package static func read(from url: URL, keep: (UnsafeRawBufferPointer) -> Bool) throws -> TicketsUsers {
        let scan = try Scan(url, keep: keep)
        return try TicketsUsers(scan, order: Array(0..<scan.count))
    }

    /// One pass over the `users` table: the kept rows' ids back to back (for the id order),
    /// their places (for `SharedPlaces`, numbered in table order) and where each row's lists
    /// start, with their lengths. `TicketsUsers(scan, order:)` then decodes each row's lists
    /// once, straight into its place in the order asked for.
    ///
    /// The tickets stage used to decode the table on every core into runs, join the runs into
    /// one table and gather that in id order: every user's lists were written three times,
    /// ~360 MB of fresh memory on realistic `full` (ranking-log.md, "The users decoded once").
    /// The pass runs on one core, as the search for the runs' first rows did.
    package final class Scan: @unchecked Sendable {
        /// The table's bytes, kept until the users are decoded.
        let bytes: Data
        /// The file's path, for errors.
        let name: String
        /// How many rows were kept.
        package let count: Int
        /// Kept row `k`'s id is `idBytes[idStarts[k] ..< idStarts[k + 1]]` (back to back for the sort).
        let idBytes: [UInt8]
        let idStarts: [Int]
        /// Per kept row, in table order.
        let rows: [Row]

        /// A kept row: its place, where its id and its lists lie in `bytes`, and the lists'
        /// lengths. 64 bytes: the decoding reads the rows in id order, a cache miss each, and
        /// asks for them ahead.
        struct Row {
            var place: Place
            /// Where the id's bytes start.
            var idAt: Int
            /// Where the favourites start (the follows and dismissed events come after them).
            var listAt: Int
            var idCount: Int32
            var favorites: Int32
            var follows: Int32
            var dismissed: Int32
        }

        /// Reads the table at `url` and checks its header and every row to the file's end.
        package init(_ url: URL, keep: (UnsafeRawBufferPointer) -> Bool) throws {
            bytes = try FileIO.read(url)
            let path = url.path  // `URL.path` is computed on every use: once here, not per row
            name = path
            var idBytes: [UInt8] = [], idStarts = [0], kept: [Row] = []
            try bytes.withUnsafeBytes { raw in
                var r = BinaryReader(raw, name: path)
                let rows = try BinaryTable.readHeader(&r, TicketsUser.self, table: "users", url: url)
                // A row takes 10 bytes at least (an empty id, six absent or empty fields, three
                // empty lists): a corrupt count reserves no more than the file can hold.
                let expected = min(rows, raw.count / 10)
                idBytes.reserveCapacity(expected * 12)
                idStarts.reserveCapacity(expected + 1)
                kept.reserveCapacity(expected)
                for _ in 0..<rows {
                    let id = try r.readStringBytes()
                    guard keep(id) else {
                        try TicketsUser.skipRest(&r)
                        continue
                    }
                    idBytes.append(contentsOf: id)
                    idStarts.append(idBytes.count)
                    let idAt = r.offset - id.count
                    let place = try Self.place(&r, file: path)
                    let listAt = r.offset
                    let favorites = try r.skipInt64Array()
                    let follows = try r.skipFixedArray()
                    let dismissed = try r.skipFixedArray()
                    // Each length is bounded by the file's size (a byte or more per value).
                    kept.append(Row(place: place, idAt: idAt, listAt: listAt, idCount: Int32(truncatingIfNeeded: id.count),
                                    favorites: Int32(truncatingIfNeeded: favorites), follows: Int32(truncatingIfNeeded: follows),
                                    dismissed: Int32(truncatingIfNeeded: dismissed)))
                }
                guard r.isAtEnd else {
                    throw TonightError(.invalidInput, "trailing bytes after \(rows) rows", file: path)
                }
            }
            count = kept.count
            self.idBytes = idBytes
            self.idStarts = idStarts
            self.rows = kept
        }

        /// A row's place fields (the home ZIP and the location text skipped: the point is in
        /// lat/lon already).
        private static func place(_ r: inout BinaryReader, file: String) throws -> Place {
            try r.skipOptionalString()
            let lat = try r.readOptionalDouble(), lon = try r.readOptionalDouble()
            try r.skipString()
            let radius = try r.readOptionalDouble(), maxPrice = try r.readOptionalDouble()
            // NaN stands for "none" in the columns; load-tickets never writes one as a value.
            if lat?.isNaN == true || lon?.isNaN == true || radius?.isNaN == true || maxPrice?.isNaN == true {
                throw TonightError(.invalidInput, "corrupt users table (a NaN coordinate, radius or price at byte \(r.offset))",
                                   file: file, hint: "re-run load-tickets with --force")
            }
            return Place(lat: lat ?? .nan, lon: lon ?? .nan, radiusKm: radius ?? .nan, maxPrice: maxPrice ?? .nan)
        }

        /// The permutation that orders the kept rows by id bytes (the datasets' key order).
        package func orderByID() -> [Int] {
            idBytes.withUnsafeBufferPointer { b in
                idStarts.withUnsafeBufferPointer { s in UTF8Order.sortedIndices(bytes: b, starts: s) }
            }
        }

        /// Kept row `k`'s point and radius, nil when unplaced (what `SharedPlaces` numbers).
        @inline(__always)
        package func point(_ k: Int) -> (lat: Double, lon: Double, radiusKm: Double?)? { rows[k].place.point }
    }

    /// `scan`'s rows in the order of `order` (a permutation of them), each row's lists
    /// decoded once, straight into its place, on every core.
    package convenience init(_ scan: Scan, order: [Int]) throws {
        precondition(order.count == scan.count, "the order must be a permutation of the rows")
        let count = order.count
        let starts = (0..<4).map { _ in UnsafeMutableBufferPointer<Int>.allocate(capacity: count + 1) }
        var idAt = 0, favoritesAt = 0, followsAt = 0, dismissedAt = 0
        for s in starts { s[0] = 0 }
        for (k, row) in order.enumerated() {
            let r = scan.rows[row]
            idAt += Int(r.idCount)
            favoritesAt += Int(r.favorites)
            followsAt += Int(r.follows)
            dismissedAt += Int(r.dismissed)
            starts[0][k + 1] = idAt
            starts[1][k + 1] = favoritesAt
            starts[2][k + 1] = followsAt
            starts[3][k + 1] = dismissedAt
        }
        let columns = Columns(
            idBytes: .allocate(capacity: max(1, idAt)), idStarts: starts[0],
            places: .allocate(capacity: max(1, count)),
            favorites: .allocate(capacity: max(1, favoritesAt)), favoriteStarts: starts[1],
            follows: .allocate(capacity: max(1, followsAt)), followStarts: starts[2],
            dismissed: .allocate(capacity: max(1, dismissedAt)), dismissedStarts: starts[3])
        var ids = [String](repeating: "", count: count)
        do {
            try Self.decode(scan, order: order, into: columns, ids: &ids)
        } catch {
            columns.deallocate()  // trivial values: nothing to deinitialise
            throw error
        }
        self.init(count: count, ids: ids, columns: columns)
    }

    /// Fills `columns` and `ids` with the rows of `order`, in pieces on every core; the first
    /// error in row order is thrown.
    private static func decode(_ scan: Scan, order: [Int], into columns: Columns, ids: inout [String]) throws {
        let count = order.count
        let parts = count < 50_000 ? 1 : Parallel.width * 4
        try ids.withUnsafeMutableBufferPointer { idsBuffer in
            let target = Target(columns: columns, ids: idsBuffer)
            try scan.bytes.withUnsafeBytes { raw in
                let source = Source(bytes: raw)
                let failures = try Parallel.map(parts) { p -> TonightError? in
                    let to = target.columns
                    let range = Parallel.range(p, of: parts, in: count)
                    return scan.rows.withUnsafeBufferPointer { rows in
                        order.withUnsafeBufferPointer { order in
                            for k in range {
                                // Rows are read in id order, a miss each: their lines are asked
                                // for 16 users ahead, and the file's bytes for them 8 ahead.
                                if k + 16 < range.upperBound { tonight_prefetch(rows.baseAddress! + order[k + 16]) }
                                if k + 8 < range.upperBound {
                                    let ahead = rows[order[k + 8]]
                                    tonight_prefetch(source.bytes.baseAddress! + ahead.idAt)
                                    tonight_prefetch(source.bytes.baseAddress! + ahead.listAt)
                                }
                                let row = rows[order[k]]
                                let id = UnsafeRawBufferPointer(rebasing: source.bytes[row.idAt..<(row.idAt + Int(row.idCount))])
                                if !id.isEmpty { UnsafeMutableRawPointer(to.idBytes.baseAddress! + to.idStarts[k]).copyMemory(from: id.baseAddress!, byteCount: id.count) }
                                target.ids[k] = String(decoding: id, as: UTF8.self)
                                (to.places.baseAddress! + k).initialize(to: row.place)
                                var r = BinaryReader(source.bytes, name: scan.name, offset: row.listAt)
                                do {
                                    try Self.list(&r, Int(row.favorites), file: scan.name, into: to.favorites.baseAddress! + to.favoriteStarts[k]) { try $0.readInt64() }
                                    try Self.list(&r, Int(row.follows), bytesPerElement: 8, file: scan.name, into: to.follows.baseAddress! + to.followStarts[k]) { try $0.readFixed() }
                                    try Self.list(&r, Int(row.dismissed), bytesPerElement: 8, file: scan.name, into: to.dismissed.baseAddress! + to.dismissedStarts[k]) { try $0.readFixed() }
                                } catch let e as TonightError {
                                    return e
                                } catch {
                                    return TonightError(.invalidInput, "\(error)", file: scan.name)
                                }
                            }
                            return nil
                        }
                    }
                }
                if let first = failures.lazy.compactMap({ $0 }).first { throw first }
            }
        }
    }

    /// Reads a list of `n` values (the count the scan found) into `to`.
    @inline(__always)
    private static func list<T>(
        _ r: inout BinaryReader, _ n: Int, bytesPerElement: Int = 1, file: String, into to: UnsafeMutablePointer<T>,
        _ element: (inout BinaryReader) throws -> T
    ) throws {
        guard try r.readCount(bytesPerElement: bytesPerElement) == n else {
            throw TonightError(.internal, "the users table's list lengths changed between two reads", file: file)
        }
        for i in 0..<n { (to + i).initialize(to: try element(&r)) }
    }

    /// The columns and ids handed to the decoding workers (each writes its own rows).
    private struct Target: @unchecked Sendable {
        let columns: Columns
        let ids: UnsafeMutableBufferPointer<String>
    }

    /// The table's bytes handed to the decoding workers (read only; they outlive them).
    private struct Source: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
    }
}
