import Foundation
import Testing
@testable import TonightSnapshot

/// The reader's own SHA-256 against the FIPS 180-4 test vectors and `sha256sum`.
@Suite struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        var h = SHA256()
        h.update(bytes)
        return h.finalizeHex()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownVectors(input: String, expected: String) {
        #expect(Self.hex(Array(input.utf8)) == expected)
    }

    @Test func aMillionAsInUnevenPieces() {
        var h = SHA256()
        var left = 1_000_000
        var piece = 1
        while left > 0 {
            let n = min(piece, left)
            h.update([UInt8](repeating: UInt8(ascii: "a"), count: n))
            left -= n
            piece = piece * 3 % 1_021 + 1
        }
        #expect(h.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func filesAgreeWithSha256sum() throws {
        var rng = SystemRandomNumberGenerator()
        for size in [0, 55, 56, 63, 64, 65, 1_000, 3 << 20] {
            let url = temporaryDirectory("sha").appendingPathComponent("sha-\(size)")
            defer { try? FileManager.default.removeItem(at: url) }
            try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }).write(to: url)
            let (status, out) = try unpack(shell("sha256sum '\(url.path)'", mergingStandardError: true))
            #expect(status == 0)
            #expect(try SHA256.file(url.path) == String(out.prefix(64)), "size \(size)")
        }
    }
}
