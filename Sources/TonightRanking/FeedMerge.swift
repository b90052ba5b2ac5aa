/// The favourites feed's k-way merge: one cursor per favourite's date list
/// (`EventIndex.feedOfArtist`), a min-heap on the event index each cursor is at. A user
/// takes at most `feed.size` items, so the merge pops that many times (O(log favourites)
/// each) instead of collecting and sorting every date of every favourite.
struct FeedMerge {
    /// A favourite's list being read: the event at `at`, the list's end, the favourite.
    struct Cursor {
        var event: Int32
        var at: Int32
        var end: Int32
        var artist: Int32
    }

    private var items: [Cursor] = []

    /// The cursor at the earliest event (ties: any; the feed skips repeats of an event).
    var top: Cursor? { items.first }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    mutating func push(_ c: Cursor) {
        items.append(c)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].event < items[parent].event else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    /// Replaces the top with the same list moved on.
    mutating func replaceTop(_ c: Cursor) {
        items[0] = c
        siftDown()
    }

    /// Removes the top (its list is read to the end).
    mutating func popTop() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        siftDown()
    }

    @inline(__always)
    private mutating func siftDown() {
        let n = items.count
        var i = 0
        let moving = items[0]
        while true {
            let l = 2 * i + 1, r = l + 1
            guard l < n else { break }
            let child = r < n && items[r].event < items[l].event ? r : l
            guard items[child].event < moving.event else { break }
            items[i] = items[child]
            i = child
        }
        items[i] = moving
    }
}
