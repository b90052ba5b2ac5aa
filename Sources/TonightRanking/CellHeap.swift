/// The cells of a k-way merge by their next event's bound: a max-heap of (bound, position),
/// ties to the lower position. The exact backfill walks a user's cells in decreasing
/// popularity bound with it, O(log cells) per event instead of a scan of every cell (a
/// radius of thousands of kilometres spans hundreds of cells).
struct CellHeap {
    private(set) var items: [(bound: Double, cell: Int)] = []

    var top: (bound: Double, cell: Int)? { items.first }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    @inline(__always)
    private static func before(_ a: (bound: Double, cell: Int), _ b: (bound: Double, cell: Int)) -> Bool {
        a.bound > b.bound || (a.bound == b.bound && a.cell < b.cell)
    }

    mutating func push(bound: Double, cell: Int) {
        items.append((bound, cell))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.before(items[i], items[parent]) else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    /// Replaces the top with a new entry (the cell's next event), or removes it (nil).
    mutating func replaceTop(_ entry: (bound: Double, cell: Int)?) {
        guard !items.isEmpty else { return }
        if let entry {
            items[0] = entry
        } else {
            let last = items.removeLast()
            guard !items.isEmpty else { return }
            items[0] = last
        }
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < items.count && Self.before(items[l], items[best]) { best = l }
            if r < items.count && Self.before(items[r], items[best]) { best = r }
            if best == i { return }
            items.swapAt(i, best)
            i = best
        }
    }
}
