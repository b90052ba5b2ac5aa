/// XXH64 (Yann Collet's xxHash, 64-bit), the checksum zstd puts in its frames (their last 4
/// bytes are its low 32 bits). The key table's blocks carry it: libzstd uses it internally but
/// does not export it, and a lookup verifies one small block at a time, so the hash must cost
/// well under a microsecond per kilobyte (SHA-256 here runs at ~0.3 GB/s; this at several).
package enum XXH64 {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        var a = acc &+ input &* p2
        a = (a << 31) | (a >> 33)
        return a &* p1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        (acc ^ round(0, v)) &* p1 &+ p4
    }

    @inline(__always) private static func load64(_ p: UnsafeRawPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: p.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    @inline(__always) private static func load32(_ p: UnsafeRawPointer, _ at: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }

    /// The hash of `bytes` with `seed`.
    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let n = bytes.count
        guard let p = bytes.baseAddress, n > 0 else { return avalanche(seed &+ p5) }
        var i = 0
        var h: UInt64
        if n >= 32 {
            var v1 = seed &+ p1 &+ p2, v2 = seed &+ p2, v3 = seed, v4 = seed &- p1
            while i + 32 <= n {
                v1 = round(v1, load64(p, i))
                v2 = round(v2, load64(p, i + 8))
                v3 = round(v3, load64(p, i + 16))
                v4 = round(v4, load64(p, i + 24))
                i += 32
            }
            h = ((v1 << 1) | (v1 >> 63)) &+ ((v2 << 7) | (v2 >> 57)) &+ ((v3 << 12) | (v3 >> 52)) &+ ((v4 << 18) | (v4 >> 46))
            h = merge(h, v1)
            h = merge(h, v2)
            h = merge(h, v3)
            h = merge(h, v4)
        } else {
            h = seed &+ p5
        }
        h = h &+ UInt64(n)
        while i + 8 <= n {
            h ^= round(0, load64(p, i))
            h = ((h << 27) | (h >> 37)) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            h ^= load32(p, i) &* p1
            h = ((h << 23) | (h >> 41)) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h ^= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) &* p5
            h = ((h << 11) | (h >> 53)) &* p1
            i += 1
        }
        return avalanche(h)
    }

    /// `hash` of an array.
    package static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    @inline(__always) private static func avalanche(_ x: UInt64) -> UInt64 {
        var h = x
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}
