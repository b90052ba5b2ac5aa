import Crypto
import Foundation

/// SHA-256 helpers for fingerprints and manifests (swift-crypto).
package enum ContentHash {
    /// Hex SHA-256 of bytes.
    package static func hex(_ bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).hexString
    }

    package static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    /// Hex SHA-256 of a file, streamed in 1 MiB blocks.
    package static func file(_ url: URL) throws -> String {
        let (fd, _) = try FileIO.openRegular(url)
        defer { close(fd) }
        var hasher = SHA256()
        let buf = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buf.deallocate() }
        while true {
            let n = read(fd, buf.baseAddress, buf.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw TonightError.io("read", path: url.path)
            }
            if n == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buf[0..<n]))
        }
        return hasher.finalize().hexString
    }
}

extension Digest {
    package var hexString: String {
        var s = ""
        s.reserveCapacity(64)
        for b in self {
            s += String(b >> 4, radix: 16) + String(b & 0xf, radix: 16)
        }
        return s
    }
}
