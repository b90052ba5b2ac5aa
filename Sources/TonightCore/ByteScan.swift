/// Byte scans shared by the text readers.
package enum ByteScan {
    /// How many LF bytes `b` holds, eight bytes at a time: in `x ^ 0x0A…`, the high bit of
    /// `~(((y & 0x7F…) + 0x7F…) | y | 0x7F…)` is set exactly for the zero bytes (no carries
    /// cross bytes), so a popcount counts them. (Swift's generic SIMD mask operations ran
    /// unspecialised here, 40 times slower than this.)
    package static func lineFeeds(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = b.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, lf: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        var n = 0
        var i = 0
        while i + 8 <= b.count {
            let y = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ lf
            n &+= (~(((y & low7) &+ low7) | y | low7)).nonzeroBitCount
            i += 8
        }
        while i < b.count {
            if b[i] == 0x0A { n += 1 }
            i += 1
        }
        return n
    }
}
