import Foundation
import Testing
import TonightBase
@testable import TonightSnapshot

/// `verify`'s scan lends each frame and each record's key for one call instead of copying
/// them (`FrameStore.scanFrames`, `Snapshot.withKey`): the same frames and lines as the
/// copying pass, escaped keys decoded, and keys out of order or repeated inside a frame found.
@Suite struct VerifyScanTests {
    static func record(_ key: String, jsonKey: String? = nil) -> (String, [UInt8]) {
        var json = Array(#"{"key":"#.utf8)
        if let jsonKey {
            json += Array("\"\(jsonKey)\"".utf8)  // written as given (escapes and all)
        } else {
            JSONKey.appendEncoded(key, to: &json)
        }
        json += Array(#","items":[{"event":"E","score":1.5}]}"#.utf8)
        return (key, json)
    }

    static func snapshot(_ records: [(String, [UInt8])], layout: Int, frameBytes: Int = 4096) throws -> Snapshot {
        let root = temporaryDirectory("verify-scan")
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-0000000d", datasets: ["explore": records],
                                           frameBytes: frameBytes, layout: layout, dictionaryBytes: layout == 2 ? 2048 : 0)
        return try Snapshot.open(id: id, in: root)
    }

    /// The lent frames are the decoded frames: same indexes, bytes, lines and table keys.
    @Test(arguments: [1, 2])
    func lentFramesAreTheDecodedFrames(layout: Int) throws {
        let s = try Self.snapshot(SnapshotFixture.records(SnapshotReaderTests.awkwardKeys), layout: layout, frameBytes: 300)
        let store = s.datasets["explore"]!.store
        var decoded: [(Int, [UInt8], [[UInt8]], [UInt8]?)] = []
        try store.forEachFrame { i, f, first in decoded.append((i, f.bytes, (0..<f.lineCount).map { Array(f.line($0)) }, first)) }
        #expect(decoded.count > 10)
        for range in [0..<decoded.count, 2..<5, (decoded.count - 1)..<decoded.count] {
            var lent: [(Int, [UInt8], [[UInt8]], [UInt8]?)] = []
            try store.scanFrames(in: range) { i, f, first in
                lent.append((i, Array(f.bytes), (0..<f.lineCount).map { Array(f.line($0)) }, first.map { Array($0) }))
            }
            #expect(lent.map(\.0) == Array(range))
            #expect(lent.map(\.1) == decoded[range].map(\.1))
            #expect(lent.map(\.2) == decoded[range].map(\.2))
            #expect(lent.map(\.3) == decoded[range].map(\.3))
        }
    }

    /// Keys with quotes, backslashes, control characters and non-ASCII text, and a key whose
    /// JSON spells a plain character as an escape: all verify, every record counted.
    @Test(arguments: [1, 2])
    func escapedKeysVerify(layout: Int) throws {
        var records = SnapshotFixture.records(SnapshotReaderTests.awkwardKeys)
        let plain = try #require(records.firstIndex { $0.0 == "ab" })
        records[plain] = Self.record("ab", jsonKey: #"a\u0062"#)
        let s = try Self.snapshot(records, layout: layout, frameBytes: 300)
        let report = s.verify(references: false, sha256: nil)
        #expect(report.problems.map(\.message) == [])
        #expect(report.records == records.count)
    }

    /// A record whose JSON key breaks the order inside a frame (later than the next key, or
    /// repeating the one before) is reported, with the key that came out of order.
    @Test(arguments: [(1, "k5z", "k06"), (2, "k5z", "k06"), (1, "k04", "k04"), (2, "k04", "k04"), (2, #"k\u0030\u0034"#, "k04")])
    func keysOutOfOrderInsideAFrameAreFound(layout: Int, written: String, reported: String) throws {
        var records = (0..<10).map { Self.record(String(format: "k%02d", $0)) }
        records[5] = Self.record("k05", jsonKey: written)
        let s = try Self.snapshot(records, layout: layout)
        #expect(s.datasets["explore"]!.entry.frames == 1)
        let messages = s.verify(references: false, sha256: nil).problems.map(\.message)
        #expect(messages.contains("frame 0: key '\(reported)' out of order or repeated"), "\(messages)")
    }
}
