/// Integer ids (artist ids) → their positions 0..<n in a list: a table indexed by id when
/// every id is non-negative and below `tableLimit`, and the ids are not too sparse for it
/// (`tableSlotsPerID`; Ticketmaster's are dense enough: a lookup is one load instead of a
/// hash), a dictionary otherwise. With a repeated id the later position wins, as a
/// dictionary filled in order would have it.
///
/// The density rule keeps a hostile feed from buying memory with one large id: two artists,
/// one with id 16,777,215, would otherwise take a 64 MB table. The table takes at most
/// `tableSlotsPerID` slots per id (4 bytes each) beyond `tableFloor`; realistic `full`'s
/// 202,000 artists with ids below 1,000,000 take ~5 slots each.
///
/// The lookup is `@inlinable` and the type `@usableFromInline` (another module inlines it
/// only with both): the tickets stage and parse-affinity call it from other modules once per
/// favourite and per affinity line, as they did their own in-module copies before this type.
@usableFromInline
package struct IDPositions: Sendable {
    /// Ids at or above this go to the dictionary (the table takes at most 64 MB).
    package static let tableLimit: Int64 = 1 << 24
    /// Slots of the table per id, at most (beyond `tableFloor`, which any list may take).
    package static let tableSlotsPerID: Int64 = 64
    /// Slots any list may take, however few its ids (256 KB).
    package static let tableFloor: Int64 = 1 << 16

    @usableFromInline let table: [Int32]
    @usableFromInline let dictionary: [Int64: Int32]

    package init(_ ids: [Int64]) {
        let largest = ids.max() ?? -1
        if ids.allSatisfy({ $0 >= 0 }) && largest < Self.tableLimit
            && largest < Self.tableFloor + Self.tableSlotsPerID * Int64(ids.count)
        {
            var t = [Int32](repeating: -1, count: Int(largest) + 1)
            for (i, id) in ids.enumerated() { t[Int(id)] = Int32(i) }
            table = t
            dictionary = [:]
        } else {
            var d: [Int64: Int32] = [:]
            d.reserveCapacity(ids.count)
            for (i, id) in ids.enumerated() { d[id] = Int32(i) }
            table = []
            dictionary = d
        }
    }

    /// Whether lookups go through the table (for the tests).
    package var usesTable: Bool { !table.isEmpty }

    /// The position of `id`, if it is in the list.
    @inlinable @inline(__always)
    package subscript(id: Int64) -> Int32? {
        if !table.isEmpty {
            guard id >= 0, id < table.count else { return nil }
            let p = table[Int(id)]
            return p >= 0 ? p : nil
        }
        return dictionary[id]
    }
}
