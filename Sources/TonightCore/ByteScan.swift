import Foundation

/// Byte scans shared by the text readers.
package enum ByteScan {
    /// Whether `a` and `b` hold the same bytes (`memcmp`: `elementsEqual` between a buffer
    /// and an array stepped through both a byte at a time, 2.8 % of parse-feed's
    /// instructions when the feed's image URLs were compared with the one before).
    @inline(__always)
    package static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// Whether every byte of `b` is ASCII (below 0x80): the bytes OR-ed together, a loop the
    /// compiler vectorises.
    @inline(__always)
    package static func isASCII(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for c in b { any |= c }
        return any < 0x80
    }

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
