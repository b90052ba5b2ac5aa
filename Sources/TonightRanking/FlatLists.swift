/// A list of lists in two flat arrays (compressed sparse rows): list `i` is
/// `values[starts[i] ..< starts[i + 1]]`.
///
/// The ranking loops read millions of short lists per run; a nested `[[T]]` retains and
/// releases every inner array it hands out, which perf showed as the largest single cost of
/// the `tickets` stage. Reading a range of a flat array costs no reference counting.
package struct FlatLists<Element: Sendable>: Sendable {
    package private(set) var starts: [Int32]
    package private(set) var values: [Element]

    package init() {
        starts = [0]
        values = []
    }

    package init(_ lists: [[Element]]) {
        self.init()
        starts.reserveCapacity(lists.count + 1)
        values.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        for l in lists { append(l) }
    }

    /// The lists `0..<count` of where each value occurs in `lists`: list `v` holds, in
    /// increasing order, every `i` whose `lists[i]` holds `v` (once per occurrence), as
    /// appending `i` to list `v` for each value of each list in turn would give. A counting
    /// sort in two passes: no array per list.
    package init(inverting lists: [[Int32]], count: Int) where Element == Int32 {
        var starts = [Int32](repeating: 0, count: count + 1)
        for l in lists {
            for v in l { starts[Int(v) + 1] += 1 }
        }
        for k in 0..<count { starts[k + 1] += starts[k] }
        var next = Array(starts.dropLast())
        var values = [Int32](repeating: 0, count: Int(starts[count]))
        for (i, l) in lists.enumerated() {
            for v in l {
                values[Int(next[Int(v)])] = Int32(i)
                next[Int(v)] += 1
            }
        }
        self.starts = starts
        self.values = values
    }

    /// Appends one list.
    package mutating func append(_ list: some Collection<Element>) {
        values.append(contentsOf: list)
        precondition(values.count <= Int(Int32.max), "FlatLists holds at most 2^31 values")
        starts.append(Int32(values.count))
    }

    /// How many lists.
    package var count: Int { starts.count - 1 }

    /// The positions in `values` of list `i`.
    @inline(__always)
    package func range(_ i: Int) -> Range<Int> { Int(starts[i])..<Int(starts[i + 1]) }

    /// Asks for the cache lines of lists `ids`' starts, then of their first values: the two
    /// misses that begin a walk of each list, overlapped across the lists instead of met one
    /// after another (a hint: nothing read changes; `Array.prefetch`).
    @inline(__always)
    func prefetchHeads(_ ids: [Int32]) {
        for i in ids { starts.prefetch(Int(i)) }
        for i in ids { values.prefetch(Int(starts[Int(i)])) }
    }

    /// List `i` (a slice of `values`; for code outside the hot loops).
    package subscript(_ i: Int) -> ArraySlice<Element> { values[range(i)] }
}
