import Foundation
import Testing
import TonightGenerator
@testable import TonightSnapshot

/// The reference check's key table agrees with `Set` for short keys (held in the slot), long
/// ones (compared against the flat bytes), the empty key, prefixes and keys padded with zeros.
@Suite struct KeySetTests {
    @Test func agreesWithSet() {
        var rng = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt64 { rng.next() }
        let keys = KeySet(capacity: 4)  // grows many times
        var reference = Set<[UInt8]>()
        var probes: [[UInt8]] = [[], [0], [0, 0], Array(repeating: 0, count: 16), Array(repeating: 0, count: 17)]
        for n in 0..<40_000 {
            let length = Int(next() % 41)
            let key = (0..<length).map { _ in UInt8(truncatingIfNeeded: next() % 7) }  // few symbols: many near-collisions
            if n % 3 != 0 {
                key.withUnsafeBufferPointer { keys.insert($0) }
                reference.insert(key)
            }
            probes.append(key)
            if !key.isEmpty { probes.append(Array(key.dropLast())); probes.append(key + [0]) }
        }
        #expect(keys.count == reference.count)
        for p in probes {
            #expect(p.withUnsafeBufferPointer { keys.contains($0) } == reference.contains(p), "\(p)")
        }
    }
}

/// Keys of the compact shapes (canonical decimals in the bitset, 16-digit upper-case hex in
/// 8-byte slots) and their near misses (leading zeros, signs, lower case, one digit more or
/// less, the largest values) are found exactly when the same bytes were inserted.
@Suite struct KeySetCompactTests {
    static let shapes: [[String]] = [
        ["0", "7", "10", "123456", "999999999", "134217727", "134217728", "1000000000"],
        ["00", "01", "007", "-1", "+1", "1e3", "1.0", " 1", "12345678901234567890"],
        ["0123456789ABCDEF", "FFFFFFFFFFFFFFFF", "0000000000000000", "FFFFFFFFFFFFFFFE", "0123456789abcdef"],
        ["0123456789ABCDE", "0123456789ABCDEF0", "G123456789ABCDEF", "0123456789ABCDE\u{0}", ""],
    ]

    @Test(arguments: 0..<4)
    func compactShapesAgreeWithSet(_ held: Int) {
        let keys = KeySet(capacity: 2)
        var reference = Set<[UInt8]>()
        // The shapes of one row held; every row probed (with its neighbours one apart).
        for s in Self.shapes[held] {
            let b = Array(s.utf8)
            b.withUnsafeBufferPointer { keys.insert($0) }
            reference.insert(b)
        }
        for k in 0..<3_000 {  // many decimals and hex ids: the bitset and hex table grow
            let d = Array(String(k * 7_919 % 2_000_000).utf8), h = Array(String(format: "%016llX", UInt64(k) &* 0x9E37_79B9_7F4A_7C15).utf8)
            if k % 2 == held % 2 {
                for b in [d, h] {
                    b.withUnsafeBufferPointer { keys.insert($0) }
                    reference.insert(b)
                }
            }
        }
        #expect(keys.count == reference.count)
        var probes = Self.shapes.joined().map { Array($0.utf8) }
        for k in 0..<3_000 {
            probes.append(Array(String(k * 7_919 % 2_000_000).utf8))
            probes.append(Array(String(k * 7_919 % 2_000_000 + 1).utf8))
            probes.append(Array(String(format: "%016llX", UInt64(k) &* 0x9E37_79B9_7F4A_7C15).utf8))
            probes.append(Array(String(format: "%016llX", (UInt64(k) &* 0x9E37_79B9_7F4A_7C15) &+ 1).utf8))
        }
        for p in probes {
            #expect(p.withUnsafeBufferPointer { keys.contains($0) } == reference.contains(p), "\(String(decoding: p, as: UTF8.self))")
        }
    }
}

/// The event ids' parse, eight digits a word (`KeySet.Compact.hex16`), against a digit at a
/// time: every byte value at every place of an id (the others valid), and random ids, upper
/// and lower case, one byte short or long.
@Suite struct KeySetHexTests {
    /// A digit at a time: 0–9 and A–F only.
    static func reference(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count == 16 else { return nil }
        var v: UInt64 = 0
        for c in bytes {
            switch c {
            case 0x30...0x39: v = v << 4 | UInt64(c - 0x30)
            case 0x41...0x46: v = v << 4 | UInt64(c - 0x41 + 10)
            default: return nil
            }
        }
        return v
    }

    static func parsed(_ bytes: [UInt8]) -> UInt64? { bytes.withUnsafeBufferPointer { KeySet.Compact.hex16($0) } }

    @Test func everyByteAtEveryPlace() {
        let valid = Array("0123456789ABCDEF".utf8), other = Array("FEDCBA9876543210".utf8)
        for base in [valid, other] {
            for place in 0..<16 {
                for c in 0...255 {
                    var id = base
                    id[place] = UInt8(c)
                    guard Self.parsed(id) == Self.reference(id) else {
                        Issue.record("byte \(c) at \(place) of \(String(decoding: base, as: UTF8.self)): \(String(describing: Self.parsed(id)))")
                        return
                    }
                }
            }
        }
    }

    @Test func randomIdsAndNearMisses() {
        var rng = SplitMix64(seed: 16)
        for _ in 0..<20_000 {
            let v = rng.next()
            let upper = Array(String(format: "%016llX", v).utf8), lower = Array(String(format: "%016llx", v).utf8)
            #expect(Self.parsed(upper) == v)
            #expect(Self.parsed(lower) == Self.reference(lower))
            #expect(Self.parsed(Array(upper.dropLast())) == nil)
            #expect(Self.parsed(upper + [0x30]) == nil)
        }
    }
}
