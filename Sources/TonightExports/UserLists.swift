/// One list of values per user: user `u`'s list is `values[starts[u] ..< starts[u] + counts[u]]`
/// (lists are compacted in place after de-duplication, so they may leave gaps).
struct UserLists: Sendable {
    var values: [UInt64] = []
    var starts: [Int32] = []
    var counts: [Int32] = []

    @inline(__always)
    func withList<R>(_ u: Int, _ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        guard u < counts.count else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let lo = Int(starts[u]), n = Int(counts[u])
        return try values.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[lo..<lo + n])) }
    }

    func list(_ u: Int) -> [UInt64] { withList(u) { Array($0) } }

    /// The length of user `u`'s list.
    @inline(__always) func count(_ u: Int) -> Int { u < counts.count ? Int(counts[u]) : 0 }
}
