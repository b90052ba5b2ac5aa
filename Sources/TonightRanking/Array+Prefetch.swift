import CSystem

extension Array {
    /// Asks the CPU to bring element `i`'s cache line in: a hint, with no effect on results
    /// and no fault for any index. For loops whose loads miss the cache one after another:
    /// asking for the next loads' lines first lets their misses overlap.
    @inline(__always)
    func prefetch(_ i: Int) {
        withUnsafeBufferPointer { b in
            if UInt(bitPattern: i) < UInt(b.count) { tonight_prefetch(UnsafeRawPointer(b.baseAddress! + i)) }
        }
    }
}
