import Foundation
import Testing
@testable import TonightSnapshot

/// The reference check's key table agrees with `Set` for short keys (held in the slot), long
/// ones (compared against the flat bytes), the empty key, prefixes and keys padded with zeros.
@Suite struct KeySetTests {
    @Test func agreesWithSet() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
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
