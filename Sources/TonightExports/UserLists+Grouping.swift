import TonightBase
import TonightCore

extension UserLists {
    /// The pairs of a file's parts (in file order) as one list per user, each user's values in
    /// file order: taken as they are when every user's rows are one run (`inRuns`), else by a
    /// counting sort on both cores (a histogram per part, offsets per user and part, a scatter
    /// per part). Then repeats within a user are dropped (the first stays); `duplicates` is
    /// how many were dropped.
    static func grouping(_ parts: [PairFile], users: Int) -> (lists: UserLists, duplicates: Int) {
        let total = parts.reduce(0) { $0 + $1.keys.count }
        precondition(total < Int(Int32.max), "at most 2^31 - 1 pairs per export file")
        if var lists = inRuns(parts, users: users, total: total) {
            let dropped = lists.deduplicate()
            return (lists, dropped)
        }
        let partCount = parts.count
        // One counter per (part, user): the histogram, then the running offsets.
        let next = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, partCount * users))
        next.initialize(repeating: 0)
        defer { next.deallocate() }
        let offsets = SharedBuffer(next)
        // 1. How many values each part gives each user.
        try! Parallel.forEach(partCount) { p in
            let h = offsets.buffer.baseAddress! + p * users
            parts[p].keys.withUnsafeBufferPointer { keys in
                for k in keys { h[Int(k)] &+= 1 }
            }
        }
        // 2. Where each (user, part) run starts: users in order, parts in order within a
        //    user. Ranges of users are summed, then filled, on all cores.
        let ranges = max(1, min(Parallel.width, users))
        let totals = try! Parallel.map(ranges) { r -> Int in
            var total = 0
            for u in Parallel.range(r, of: ranges, in: users) {
                for p in 0..<partCount { total += Int(offsets.buffer[p * users + u]) }
            }
            return total
        }
        var bases: [Int32] = [0]
        for t in totals.dropLast() { bases.append(bases.last! + Int32(t)) }
        let rangeBases = bases
        var lists = UserLists()
        lists.starts = [Int32](repeating: 0, count: users)
        lists.counts = [Int32](repeating: 0, count: users)
        lists.counts.withUnsafeMutableBufferPointer { countsBuffer in
            let counts = SharedBuffer(countsBuffer)
            _ = try! Parallel.writing(into: &lists.starts, parts: ranges) { r, starts in
                var running = rangeBases[r]
                for u in Parallel.range(r, of: ranges, in: users) {
                    starts[u] = running
                    for p in 0..<partCount {
                        let n = offsets.buffer[p * users + u]
                        offsets.buffer[p * users + u] = running
                        running &+= n
                    }
                    counts.buffer[u] = running &- starts[u]
                }
            }
        }
        // 3. Every part scatters its values to its runs.
        lists.values = [UInt64](repeating: 0, count: total)
        _ = try! Parallel.writing(into: &lists.values, parts: partCount) { p, out in
            let at = offsets.buffer.baseAddress! + p * users
            parts[p].keys.withUnsafeBufferPointer { keys in
                parts[p].values.withUnsafeBufferPointer { values in
                    for k in 0..<keys.count {
                        let u = Int(keys[k])
                        out[Int(at[u])] = values[k]
                        at[u] &+= 1
                    }
                }
            }
        }
        // 4. Repeats dropped in place, on all cores over ranges of users.
        let dropped = lists.deduplicate()
        return (lists, dropped)
    }

    /// The lists when every user's pairs are one run of consecutive rows (exports list a
    /// user's rows together): the values stay in file order, copied once, and no counting sort
    /// is needed. Nil when some user's rows are split.
    private static func inRuns(_ parts: [PairFile], users: Int, total: Int) -> UserLists? {
        var lists = UserLists()
        lists.starts = [Int32](repeating: 0, count: users)
        lists.counts = [Int32](repeating: 0, count: users)
        var at: Int32 = 0
        var current: Int32 = -1
        for part in parts {
            let grouped = part.keys.withUnsafeBufferPointer { keys -> Bool in
                for k in keys {
                    if k == current {
                        lists.counts[Int(k)] &+= 1
                    } else {
                        guard lists.counts[Int(k)] == 0 else { return false }
                        current = k
                        lists.starts[Int(k)] = at
                        lists.counts[Int(k)] = 1
                    }
                    at &+= 1
                }
                return true
            }
            guard grouped else { return nil }
        }
        // The parts' values, concatenated on both cores (no zero fill first).
        var starts = [0]
        for part in parts { starts.append(starts.last! + part.values.count) }
        let offsets = starts
        lists.values = [UInt64](unsafeUninitializedCapacity: total) { buffer, count in
            let out = SharedBuffer(buffer)
            try! Parallel.forEach(parts.count) { p in
                parts[p].values.withUnsafeBufferPointer { values in
                    guard let base = values.baseAddress else { return }
                    (out.buffer.baseAddress! + offsets[p]).initialize(from: base, count: values.count)
                }
            }
            count = total
        }
        return lists
    }

    /// Drops repeated values within each list (the first stays, order kept); returns how many.
    /// Ranges of users on all cores (each writes only its users' values and counts).
    private mutating func deduplicate() -> Int {
        let users = counts.count
        let starts = self.starts
        let ranges = max(1, min(Parallel.width, users))
        let dropped = values.withUnsafeMutableBufferPointer { valuesBuffer -> [Int] in
            let values = SharedBuffer(valuesBuffer)
            return try! Parallel.writing(into: &counts, parts: ranges) { r, counts in
                var n = 0
                var seen = Set<UInt64>()
                for u in Parallel.range(r, of: ranges, in: users) where counts[u] > 1 {
                    let lo = Int(starts[u]), count = Int(counts[u])
                    let list = UnsafeMutableBufferPointer(rebasing: values.buffer[lo..<lo + count])
                    var kept = 1
                    if count <= 32 {
                        // Short lists (nearly all): a scan of the kept prefix.
                        for k in 1..<count {
                            let v = list[k]
                            var repeated = false
                            for j in 0..<kept where list[j] == v {
                                repeated = true
                                break
                            }
                            if !repeated {
                                list[kept] = v
                                kept += 1
                            }
                        }
                    } else {
                        // Long lists: a set, so a user with huge lists stays linear.
                        seen.removeAll(keepingCapacity: true)
                        seen.insert(list[0])
                        for k in 1..<count where seen.insert(list[k]).inserted {
                            list[kept] = list[k]
                            kept += 1
                        }
                    }
                    n += count - kept
                    counts[u] = Int32(kept)
                }
                return n
            }
        }
        return dropped.reduce(0, +)
    }
}
