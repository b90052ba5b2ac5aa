import Foundation
import Testing
@testable import TonightCore

/// `EventID.parse` (eight digits at a time) against a digit-by-digit parse, the one it
/// replaced, and against `UInt64(_:radix:)`: the same value or the same refusal, through
/// every overload.
@Suite struct EventIDParseTests {
    static func fast(_ bytes: [UInt8]) -> UInt64? {
        let v = bytes.withUnsafeBufferPointer { EventID.parse($0) }
        // The other overloads take the same path: a slice, a non-contiguous collection, a string.
        #expect(EventID.parse(bytes[...]) == v)
        #expect(EventID.parse(bytes.lazy.map { $0 }) == v)
        if let text = String(validating: bytes, as: UTF8.self) { #expect(EventID.parse(text) == v) }
        return v
    }

    /// One digit at a time, a `switch` per byte.
    static func slow(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count == 16 else { return nil }
        var v: UInt64 = 0
        for c in bytes {
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt64(d)
        }
        return v
    }

    /// Every byte value at every position of a valid id: accepted exactly when it is a hex
    /// digit, with the value of the text.
    @Test func everyByteAtEveryPosition() {
        let valid = Array("0123456789ABCDEF".utf8)
        var wrong: [String] = []
        for position in 0..<16 {
            for b in 0...255 {
                var id = valid
                id[position] = UInt8(b)
                let expected = UInt64(String(decoding: id, as: UTF8.self), radix: 16)
                let isHex = (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
                if Self.fast(id) != Self.slow(id) || Self.fast(id) != (isHex ? expected : nil) {
                    wrong.append("byte \(b) at \(position)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// Random ids in either case and random bytes near the hex ranges.
    @Test func randomTexts() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABCDEF".utf8) + [0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x20, 0x00, 0x7F, 0x80, 0xC1, 0xFF]
        var wrong = 0
        for n in 0..<200_000 {
            let value = UInt64.random(in: .min ... .max, using: &rng)
            var text = Array((n % 2 == 0 ? String(value, radix: 16, uppercase: true) : String(value, radix: 16)).utf8)
            text = Array(repeating: UInt8(ascii: "0"), count: 16 - text.count) + text
            if n % 5 == 0 { text[Int.random(in: 0..<16, using: &rng)] = alphabet.randomElement(using: &rng)! }
            let fast = Self.fast(text)
            if fast != Self.slow(text) || (n % 5 != 0 && fast != value) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test(arguments: [0, 1, 15, 17, 32])
    func otherLengthsAreRefused(_ length: Int) {
        #expect(Self.fast(Array(repeating: UInt8(ascii: "A"), count: length)) == nil)
    }

    @Test func extremes() {
        #expect(Self.fast(Array("0000000000000000".utf8)) == 0)
        #expect(Self.fast(Array("ffffffffffffffff".utf8)) == .max)
        #expect(Self.fast(Array("FFFFFFFF00000000".utf8)) == 0xFFFF_FFFF_0000_0000)
        #expect(Self.fast(Array("0123456789abcdef".utf8)) == 0x0123_4567_89AB_CDEF)
    }
}
