import Foundation
import TonightBase

/// SHA-256 (FIPS 180-4), used by `verify` to check every file against the manifest.
///
/// Written by hand because the reader library may depend on nothing beyond the toolchain and
/// libzstd (services embed it), and neither offers SHA-256 on Linux. The pipeline hashes with
/// swift-crypto; a test checks both agree on the same files.
package struct SHA256 {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var buffer = [UInt8](repeating: 0, count: 64)
    private var buffered = 0
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    package init() {}

    package mutating func update(_ data: UnsafeRawBufferPointer) {
        guard data.count > 0 else { return }
        length &+= UInt64(data.count)
        var offset = 0
        if buffered > 0 {
            let n = min(64 - buffered, data.count)
            for i in 0..<n { buffer[buffered + i] = data[i] }
            buffered += n
            offset = n
            guard buffered == 64 else { return }
            buffer.withUnsafeBytes { compress($0.baseAddress!) }
            buffered = 0
        }
        while data.count - offset >= 64 {
            compress(data.baseAddress! + offset)
            offset += 64
        }
        for i in offset..<data.count { buffer[buffered] = data[i]; buffered += 1 }
    }

    package mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The digest as 64 lowercase hex digits.
    package mutating func finalizeHex() -> String {
        let bits = length &* 8
        var pad: [UInt8] = [0x80]
        let rem = (buffered + 1) % 64
        pad += [UInt8](repeating: 0, count: rem <= 56 ? 56 - rem : 120 - rem)
        for i in (0..<8).reversed() { pad.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        let saved = length
        update(pad)
        length = saved
        let words = [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7]
        return words.map { w in
            let s = String(w, radix: 16)
            return String(repeating: "0", count: 8 - s.count) + s
        }.joined()
    }

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    private mutating func compress(_ p: UnsafeRawPointer) {
        h = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                w[i] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
            }
            for i in 16..<64 {
                let s0 = Self.rotr(w[i - 15], 7) ^ Self.rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = Self.rotr(w[i - 2], 17) ^ Self.rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = h
            Self.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let s1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    hh = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
            }
            return (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
        }
    }

    /// The SHA-256 of a whole file, read in 1 MiB pieces.
    package static func file(_ path: String) throws -> String {
        let (fd, _) = try SnapshotError.reading { try RegularFile.open(path) }
        defer { close(fd) }
        var hasher = SHA256()
        var buf = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw SnapshotError.system("read error", file: path, errno: errno) }
            if n == 0 { break }
            buf.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return hasher.finalizeHex()
    }
}
