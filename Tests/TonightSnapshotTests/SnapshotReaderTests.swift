import TonightBase
import Foundation
import Testing
@testable import TonightSnapshot

/// Lookups, typed accessors, threads and hot reload of the reader library.
@Suite struct SnapshotReaderTests {
    /// Keys that stress byte order and escaping: prefixes of each other, quotes, backslashes,
    /// control characters, non-ASCII, and ids that sort differently as text and as numbers.
    static let awkwardKeys: [String] = {
        var keys = ["1", "10", "100", "2", "9", "a\"b", "back\\slash", "tab\there", "nl\nx", "é", "e\u{301}", "日本",
                    "z", "~", "A", "a b", "a", "ab"]
        keys += (0..<400).map { "u\(String($0 * 7919 % 10_007, radix: 36))" }
        return Array(Set(keys))
    }()

    static func snapshot(frameBytes: Int = 512) throws -> (Snapshot, [(String, [UInt8])]) {
        let root = temporaryDirectory("snap-reader")
        let recs = SnapshotFixture.records(awkwardKeys)
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001", datasets: ["explore": recs],
                                           frameBytes: frameBytes)
        try SnapshotFixture.setCurrent(root: root, id)
        return (try Snapshot.openCurrent(in: root), recs)
    }

    @Test(arguments: [64, 512, 64 << 10])
    func everyKeyIsFoundAndOthersAreNot(frameBytes: Int) throws {
        let (s, recs) = try Self.snapshot(frameBytes: frameBytes)
        let d = try s.dataset("explore")
        #expect(d.count == recs.count)
        for (k, j) in recs { #expect(try d.json(key: k) == j, "key \(k.debugDescription)") }
        for missing in ["", "0", "11", "a\"", "u", "zz", "~~", "\u{0}", "日", "e"] {
            #expect(try d.json(key: missing) == nil, "key \(missing.debugDescription)")
        }
    }

    @Test func typedAccessorsDecodeTheRecords() throws {
        let (s, _) = try Self.snapshot()
        let items = try s.explore(user: "a\"b")
        #expect(items == [ExploreItem(event: "E", score: 1.5, artist: nil, because: nil, reason: .affinity, distanceKm: nil)])
        #expect(try s.explore(user: "nobody").isEmpty)
        #expect(throws: SnapshotError.self) { try s.sessions(user: "1") }  // no such dataset here
    }

    @Test func concurrentLookupsAgree() async throws {
        let (s, recs) = try Self.snapshot(frameBytes: 256)
        let d = try s.dataset("explore")
        try await withThrowingTaskGroup(of: Int.self) { group in
            for t in 0..<8 {
                group.addTask {
                    var ok = 0
                    for i in 0..<2_000 {
                        let (k, j) = recs[(i * 31 + t * 7) % recs.count]
                        if try d.json(key: k) == j { ok += 1 }
                    }
                    return ok
                }
            }
            for try await ok in group { #expect(ok == 2_000) }
        }
    }

    @Test func hotReloadSwitchesWhileOldRequestsFinish() throws {
        let root = temporaryDirectory("snap-reload")
        let a = try SnapshotFixture.write(root: root, id: "20260115T060000Z-0000000a",
                                          datasets: ["explore": SnapshotFixture.records(["u1", "u2"], payload: { _ in "\"old\"" })])
        try SnapshotFixture.setCurrent(root: root, a)
        let reader = try SnapshotReader(root: root)
        let held = reader.current  // a request in flight on the old snapshot
        #expect(try reader.reload() == false)

        let b = try SnapshotFixture.write(root: root, id: "20260116T060000Z-0000000b",
                                          datasets: ["explore": SnapshotFixture.records(["u1", "u3"], payload: { _ in "\"new\"" })])
        try SnapshotFixture.setCurrent(root: root, b)
        // Retention removes the old directory while the request still holds it.
        try FileManager.default.removeItem(at: root.appendingPathComponent(a))
        #expect(try reader.reload() == true)
        #expect(reader.current.id == b)
        #expect(String(decoding: try held.json("explore", key: "u2")!, as: UTF8.self).contains("old"))
        #expect(String(decoding: try reader.current.json("explore", key: "u1")!, as: UTF8.self).contains("new"))
        #expect(try reader.current.json("explore", key: "u2") == nil)

        // A broken new CURRENT leaves the reader on the snapshot it has.
        try SnapshotFixture.setCurrent(root: root, "20260117T060000Z-0000000c")
        #expect(throws: SnapshotError.self) { try reader.reload() }
        #expect(reader.current.id == b)
    }

    /// Two reloads that overlap (a timer's and a signal's, while a publish and a rollback
    /// follow each other) end on the snapshot `CURRENT` names last: the one that read the
    /// earlier `CURRENT` never swaps its snapshot in after the later one. Until 2026-11-28 each
    /// reload read `CURRENT`, opened the snapshot and swapped it in on its own, so the slower
    /// open of an older `CURRENT` could win and leave a service on it until the next reload.
    @Test func overlappingReloadsEndOnTheLatestCurrent() async throws {
        let root = temporaryDirectory("snap-reload-race")
        let keys = (0..<3_000).map { "user-\($0)" }
        let ids = try (0..<3).map { n in
            try SnapshotFixture.write(root: root, id: "2026011\(5 + n)T060000Z-0000000\(n)",
                                      datasets: ["explore": SnapshotFixture.records(keys, payload: { _ in "\"\(n)\"" }),
                                                 "feed": SnapshotFixture.records(keys)], frameBytes: 256)
        }
        try SnapshotFixture.setCurrent(root: root, ids[0])
        let reader = try SnapshotReader(root: root)
        var stale = 0
        for round in 0..<60 {
            let next = ids[(2 * round + 1) % 3], last = ids[(2 * round + 2) % 3]
            try SnapshotFixture.setCurrent(root: root, next)
            let first = Task.detached { try reader.reload() }
            try SnapshotFixture.setCurrent(root: root, last)
            let second = Task.detached { try reader.reload() }
            _ = try await (first.value, second.value)
            if reader.current.id != last { stale += 1 }
            let n = ids.firstIndex(of: reader.current.id)!
            #expect(try reader.current.explore(user: "user-7").first.map { $0.event } == "E")
            #expect(String(decoding: try reader.current.json("explore", key: "user-7")!, as: UTF8.self).contains("\"\(n)\""))
        }
        #expect(stale == 0, "\(stale) of 60 overlapping reloads left the reader on an earlier CURRENT")
    }

    /// A new snapshot that cannot serve a dataset the one in use serves (its file damaged or
    /// gone after publish) is not swapped in: the reload throws, naming the dataset, and the
    /// service keeps answering from the night it has. A dataset that neither can serve does not
    /// hold a reload back. Until 2026-11-28 such a snapshot opened (its other datasets
    /// readable) and was swapped in, so every lookup of the dataset failed from then on.
    @Test func aReloadKeepsTheSnapshotInUseWhenTheNewOneLosesADataset() throws {
        let root = temporaryDirectory("snap-reload-damaged")
        func write(_ id: String, _ note: String) throws -> String {
            try SnapshotFixture.write(root: root, id: id, datasets: [
                "explore": SnapshotFixture.records(["u1", "u2"], payload: { _ in "\"\(note)\"" }),
                "feed": SnapshotFixture.records(["u1", "u2"], payload: { _ in "\"\(note)\"" }),
            ])
        }
        let a = try write("20260115T060000Z-0000000a", "a")
        try SnapshotFixture.setCurrent(root: root, a)
        let reader = try SnapshotReader(root: root)

        let b = try write("20260116T060000Z-0000000b", "b")
        let feed = root.appendingPathComponent(b).appendingPathComponent("feed.ndjson.zst")
        try Data(try Data(contentsOf: feed).prefix(10)).write(to: feed)  // cut after publish
        try SnapshotFixture.setCurrent(root: root, b)
        do {
            try reader.reload()
            Issue.record("a snapshot that lost feed was swapped in")
        } catch let e as SnapshotError {
            #expect("\(e)".contains("feed") && "\(e)".contains(b), "\(e)")
        }
        #expect(reader.current.id == a)
        #expect(String(decoding: try reader.current.json("feed", key: "u1")!, as: UTF8.self).contains("\"a\""))

        // Once feed is gone from the snapshot in use too, a snapshot without it is no loss.
        let c = try write("20260117T060000Z-0000000c", "c")
        try FileManager.default.removeItem(at: root.appendingPathComponent(c).appendingPathComponent("feed.ndjson.zst"))
        try SnapshotFixture.setCurrent(root: root, c)
        #expect(throws: SnapshotError.self) { try reader.reload() }
        let d = try write("20260118T060000Z-0000000d", "d")
        try SnapshotFixture.setCurrent(root: root, d)
        #expect(try reader.reload() == true)
        #expect(reader.current.id == d)
        #expect(String(decoding: try reader.current.json("explore", key: "u2")!, as: UTF8.self).contains("\"d\""))
    }

    /// A service reloads every night for months: the snapshots it let go close their files
    /// (layout 2: data, dictionary and key table per dataset), so 60 reloads end with as many
    /// descriptors open as one.
    @Test func reloadsCloseTheFilesOfSnapshotsLetGo() throws {
        let root = temporaryDirectory("snap-reload-fds")
        let ids = try (0..<2).map { n in
            try SnapshotFixture.write(root: root, id: "2026011\(5 + n)T060000Z-0000000\(n)",
                                      datasets: ["explore": SnapshotFixture.records((0..<2_000).map { "user-\($0)" }),
                                                 "feed": SnapshotFixture.records(["u1", "u2"])],
                                      frameBytes: 256, layout: 2, dictionaryBytes: 4_096)
        }
        // Descriptors open on this test's files only (other tests run beside it).
        func openFiles() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd))?.hasPrefix(root.path + "/") == true
            }.count
        }
        try SnapshotFixture.setCurrent(root: root, ids[0])
        let reader = try SnapshotReader(root: root)
        _ = try reader.current.json("explore", key: "user-7")
        let before = try openFiles()
        for round in 1...60 {
            try SnapshotFixture.setCurrent(root: root, ids[round % 2])
            #expect(try reader.reload())
            _ = try reader.current.json("explore", key: "user-\(round)")
        }
        let after = try openFiles()
        #expect(before > 0 && after <= before, "\(after) descriptors open on the snapshots after 60 reloads, \(before) before")
    }

    @Test func listingSkipsUnfinishedDirectories() throws {
        let root = temporaryDirectory("snap-list")
        try SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001", datasets: ["x": SnapshotFixture.records(["k"])])
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".tmp-run-1"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("20260116T060000Z-00000002"),
                                                withIntermediateDirectories: true)  // no manifest: unfinished
        #expect(SnapshotDirectory(root: root).snapshotIDs() == ["20260115T060000Z-00000001"])
        #expect(throws: SnapshotError.self) { try SnapshotDirectory(root: root).currentID() }
    }

    /// A dataset name or key from a caller is repeated in errors escaped and cut (a service
    /// logs them): until 2026-11-28 `dataset(_:)` and `value(key:)` repeated them raw.
    @Test func namesInErrorsAreQuoted() throws {
        let root = temporaryDirectory("snap-quoted")
        let hostile = "a\u{1b}[2J\nb" + String(repeating: "z", count: 300)
        var json = Array(#"{"key":"#.utf8)
        JSONKey.appendEncoded(hostile, to: &json)
        json += Array(#","items":"not a list"}"#.utf8)
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001", datasets: ["x": [(hostile, json)]])
        let s = try Snapshot.open(id: id, in: root)
        func expectQuoted(_ body: () throws -> Void) {
            do {
                try body()
                Issue.record("no error")
            } catch let e as SnapshotError {
                #expect(!e.message.contains("\u{1b}") && !e.message.contains("\n") && e.message.contains("a\\u{1B}[2J\\nb"), "\(e)")
                #expect(!e.message.contains(String(repeating: "z", count: 100)), "\(e)")
            } catch {
                Issue.record("\(error)")
            }
        }
        struct Items: Decodable { var items: [Int] }
        expectQuoted { _ = try s.dataset(hostile) }
        expectQuoted { _ = try s.dataset("x").value(key: hostile, as: Items.self) }
    }

    @Test func geohashMatchesKnownCells() {
        // Reference values from the geohash definition (e.g. geohash.org).
        #expect(Geohash.encode(lat: 57.64911, lon: 10.40744, length: 11) == "u4pruydqqvj")
        #expect(Geohash.encode(lat: 40.7505, lon: -73.9934, length: 4) == "dr5r")
        let cells = Geohash.cells(lat: 40.7505, lon: -73.9934, radiusKm: 30, length: 4)
        #expect(cells.contains("dr5r"))
        #expect(cells.count >= 4 && cells.count <= 16)
    }
}
