/// Items per artist in a list of at most a few dozen: a linear scan beats hashing.
struct ArtistCounts {
    private var artists: [Int64] = []
    private var counts: [Int] = []

    subscript(_ a: Int64) -> Int {
        guard let i = artists.firstIndex(of: a) else { return 0 }
        return counts[i]
    }

    mutating func add(_ a: Int64) {
        if let i = artists.firstIndex(of: a) {
            counts[i] += 1
        } else {
            artists.append(a)
            counts.append(1)
        }
    }

    mutating func removeAll() {
        artists.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
    }

    /// Becomes a copy of `other`, in its own storage (a plain copy shares the arrays until
    /// the first `add`, which then allocates both anew: per user, per backfill step).
    mutating func copy(from other: ArtistCounts) {
        artists.removeAll(keepingCapacity: true)
        artists.append(contentsOf: other.artists)
        counts.removeAll(keepingCapacity: true)
        counts.append(contentsOf: other.counts)
    }
}
