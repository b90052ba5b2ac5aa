import Foundation
import Testing
import TonightGenerator
@testable import TonightExports

/// The interning index: built on two cores, it must number ids and find repeats exactly as
/// one core inserting in order does, whatever half of the table the hashes favour.
@Suite struct IDIndexTests {
    static func rows(_ ids: [String]) -> (ByteStrings, [UInt64]) {
        var strings = ByteStrings()
        var hashes: [UInt64] = []
        for id in ids {
            strings.append(id)
            hashes.append(strings.withBytes(of: strings.count - 1) { IDIndex.hash($0) })
        }
        return (strings, hashes)
    }

    static func serial(_ ids: [String]) -> (IDIndex, [Int]) {
        var index = IDIndex(capacity: 4)
        var repeats: [Int] = []
        for (r, id) in ids.enumerated() {
            var s = id
            if s.withUTF8({ index.insert($0) }) == nil { repeats.append(r) }
        }
        return (index, repeats)
    }

    static func find(_ index: IDIndex, _ id: String) -> Int32? {
        var s = id
        return s.withUTF8 { index.find($0) }
    }

    @Test(arguments: [0, 1, 1000, 50_000])
    func buildAgreesWithSerialInserts(_ count: Int) {
        var rng = SplitMix64(seed: UInt64(count) + 1)
        // Random ids, about 5 % of them repeats of earlier ones, a few empty or non-ASCII.
        var ids: [String] = []
        for i in 0..<count {
            if i > 0, rng.next() % 20 == 0 {
                ids.append(ids[Int(rng.next() % UInt64(i))])
            } else {
                ids.append(i % 997 == 5 ? "é\(rng.next())" : String(rng.next(), radix: 36))
            }
        }
        let (strings, hashes) = Self.rows(ids)
        let (built, repeats) = IDIndex.build(strings, hashes: hashes)
        let (reference, referenceRepeats) = Self.serial(ids)
        #expect(repeats == referenceRepeats)
        #expect(built.count == reference.count)
        for id in ids { #expect(Self.find(built, id) == Self.find(reference, id)) }
        #expect(Self.find(built, "absent") == nil)
        for i in 0..<built.count {
            #expect(built.withBytes(of: i) { Array($0) } == reference.withBytes(of: i) { Array($0) })
        }
    }

    /// Ids whose probes all start in one half of the table (found by search): the build must
    /// neither loop nor lose one, and inserts after it must grow the table in time.
    @Test func everyIdInOneHalf() {
        var ids: [String] = []
        var k = 0
        // For 300 rows the table has 1,024 slots: a probe starts in the low half when bit 9 of
        // the hash is 0. Larger tables after growth split on higher bits, also covered below.
        while ids.count < 300 {
            let id = "id\(k)"
            k += 1
            var s = id
            if s.withUTF8({ IDIndex.hash($0) }) & 0x200 == 0 { ids.append(id) }
        }
        let (strings, hashes) = Self.rows(ids + ids.prefix(10))
        var (index, repeats) = IDIndex.build(strings, hashes: hashes)
        #expect(repeats == Array(300..<310))
        for (i, id) in ids.enumerated() { #expect(Self.find(index, id) == Int32(i)) }
        for j in 0..<5_000 {
            var s = "more\(j)"
            #expect(s.withUTF8 { index.insert($0) } == Int32(300 + j))
        }
        for (i, id) in ids.enumerated() { #expect(Self.find(index, id) == Int32(i)) }
        #expect(Self.find(index, "more4999") == 5_299)
    }
}
