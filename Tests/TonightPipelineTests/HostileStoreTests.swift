import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// What an attacker or an accident can do to the snapshot root and the messages that follow:
/// paths from outside never leave the root, one bad dataset file spoils only its dataset, and
/// every message says what is wrong with text it may safely repeat.
@Suite struct HostileStoreTests {
    static func published() throws -> (work: URL, out: String, root: URL, id: String) {
        let work = temporaryDirectory()
        let out = work.path + "/out"
        let r = try runTonight(["run", "--work", work.path, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let root = URL(fileURLWithPath: out).appendingPathComponent("snapshots")
        return (work, out, root, try SnapshotDirectory(root: root).currentID())
    }

    @Test(arguments: ["../../etc", "..", "/etc", "20260115T060000Z-0000000g", "x/../../y"])
    func idsFromOutsideMustBeIds(_ id: String) throws {
        let s = try Self.published()
        let r = try runTonight(["snapshot", "get", "--id", id, "events", "x", "--out", s.out])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("is not a snapshot id"))
        #expect(throws: SnapshotError.self) { try Snapshot.open(id: id, in: s.root) }
    }

    /// A manifest naming a file outside its directory is refused, not opened.
    @Test(arguments: ["/etc/passwd", "../CURRENT", "sub/x.zst", ".."])
    func manifestFileNamesArePlainNames(_ name: String) throws {
        let s = try Self.published()
        let url = s.root.appendingPathComponent(s.id).appendingPathComponent("manifest.json")
        var m = try JSONDecoder().decode(SnapshotManifest.self, from: Data(contentsOf: url))
        m.datasets["venues"]!.file = name
        try JSONEncoder().encode(m).write(to: url)
        let e = #expect(throws: SnapshotError.self) { try Snapshot.open(id: s.id, in: s.root) }
        #expect(e?.code == .malformed && e?.message.contains("not a plain file name") == true)
    }

    /// Deleting one dataset file leaves every other dataset readable; the damage is reported
    /// for the dataset it concerns.
    @Test func oneMissingDatasetFileSpoilsOnlyItsDataset() throws {
        let s = try Self.published()
        try FileManager.default.removeItem(at: s.root.appendingPathComponent(s.id).appendingPathComponent("sessions.ndjson.zst"))
        let snapshot = try Snapshot.openCurrent(in: s.root)
        #expect(try snapshot.explore(user: "gsDYBAAAAA").count > 0)
        #expect(snapshot.unavailable["sessions"]?.code == .missing)
        #expect(throws: SnapshotError.self) { try snapshot.sessions(user: "x") }
        let get = try runTonight(["snapshot", "get", "explore", "gsDYBAAAAA", "--out", s.out])
        #expect(get.status == 0)
        let verify = try runTonight(["snapshot", "verify", "--out", s.out])
        #expect(verify.status == 65 && verify.stdout.contains("sessions.ndjson.zst"))
    }

    @Test func aDirectoryAsCurrentIsNotNothingPublished() throws {
        let s = try Self.published()
        let current = s.root.appendingPathComponent("CURRENT")
        try FileManager.default.removeItem(at: current)
        try FileManager.default.createDirectory(at: current, withIntermediateDirectories: false)
        let r = try runTonight(["snapshot", "get", "events", "x", "--out", s.out])
        #expect(r.status == 65 && r.stderr.contains("CURRENT cannot be read") && !r.stderr.contains("nothing has been published"),
                "\(r.stderr)")
    }

    @Test func aBinaryCurrentIsQuotedNotEchoed() throws {
        let s = try Self.published()
        var junk = Array("\u{1b}[2J".utf8) + [0xff, 0xfe, 0x00]
        junk += [UInt8](repeating: 0x41, count: 3000)
        try Data(junk).write(to: s.root.appendingPathComponent("CURRENT"))
        let r = try runTonight(["snapshot", "get", "events", "x", "--out", s.out])
        #expect(r.status == 65)
        #expect(!r.stderr.contains("\u{1b}") && !r.stderr.contains("\u{0}"), "control characters echoed")
        #expect(r.stderr.count < 600)
    }

    /// Messages that used to mislead.
    @Test func messagesSayWhatIsWrong() throws {
        let inputs = copyOfTinyInputs()
        let work = temporaryDirectory()
        try Data().write(to: inputs.appendingPathComponent("feed.xml"))
        let empty = try runTonight(["run", "--only", "parse-feed", "--inputs", inputs.path, "--work", work.path])
        #expect(empty.status == 65 && empty.stderr.contains("the feed is empty"), "\(empty.stderr)")
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("feed.xml"))
        try FileManager.default.copyItem(at: tinyInputs.appendingPathComponent("feed.xml"), to: inputs.appendingPathComponent("feed.xml"))
        var random = SystemRandomNumberGenerator()
        try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: inputs.appendingPathComponent("affinity.txt"))
        let affinity = try runTonight(["run", "--only", "parse-feed", "parse-affinity", "--inputs", inputs.path, "--work", work.path])
        #expect(affinity.status == 65 && affinity.stderr.contains("no 'Recommended artists for' block"), "\(affinity.stderr)")
        #expect(!affinity.stderr.contains(" of 0 "))
    }
}
