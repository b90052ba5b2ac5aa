import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightSnapshot

/// Inputs are regular files that stay put while they are read: two candidates for one input,
/// a FIFO, a device, a file truncated or grown under the reader are clear errors, never a
/// guess, a hang or a signal.
@Suite struct InputFileTests {
    @Test func twoFeedCandidatesAreAnError() throws {
        let inputs = copyOfTinyInputs()
        try FileManager.default.copyItem(at: inputs.appendingPathComponent("feed.xml"), to: inputs.appendingPathComponent("feed.xml.zst"))
        let work = temporaryDirectory()
        let r = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("feed.xml and feed.xml.zst"))
    }

    /// A missing input names the files that are probably it (a dated or differently cased
    /// name the job does not read); with none, it says where it looked.
    @Test func aMissingInputNamesWhatIsThereInstead() throws {
        let inputs = copyOfTinyInputs()
        try FileManager.default.moveItem(at: inputs.appendingPathComponent("feed.xml"), to: inputs.appendingPathComponent("feed-20261128.xml"))
        try FileManager.default.moveItem(at: inputs.appendingPathComponent("affinity.txt"), to: inputs.appendingPathComponent("Affinity.TXT"))
        let feed = #expect(throws: TonightError.self) { try runner(inputs: inputs, work: temporaryDirectory()).plan() }
        #expect(feed?.message == "input 'feed' not found (looked for feed.xml, feed.xml.gz, feed.xml.zst); found instead: 'feed-20261128.xml'",
                "\(String(describing: feed))")
        #expect(feed?.hint == "give the file one of the names looked for (the job reads no other)")
        try FileManager.default.moveItem(at: inputs.appendingPathComponent("feed-20261128.xml"), to: inputs.appendingPathComponent("feed.xml"))
        let affinity = #expect(throws: TonightError.self) { try runner(inputs: inputs, work: temporaryDirectory()).plan() }
        #expect(affinity?.message.hasSuffix("found instead: 'Affinity.TXT'") == true, "\(String(describing: affinity))")
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("Affinity.TXT"))
        let none = #expect(throws: TonightError.self) { try runner(inputs: inputs, work: temporaryDirectory()).plan() }
        #expect(none?.message == "input 'affinity' not found (looked for affinity.txt)" && none?.hint == "check --inputs or paths.inputs",
                "\(String(describing: none))")
    }

    @Test(arguments: ["fifo", "device", "directory"])
    func aFeedThatIsNotARegularFileIsRefused(_ kind: String) throws {
        let inputs = copyOfTinyInputs()
        let feed = inputs.appendingPathComponent("feed.xml")
        try FileManager.default.removeItem(at: feed)
        switch kind {
        case "fifo": #expect(mkfifo(feed.path, 0o644) == 0)
        case "device": try FileManager.default.createSymbolicLink(atPath: feed.path, withDestinationPath: "/dev/zero")
        default: try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: false)
        }
        let work = temporaryDirectory()
        let r = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", work.path + "/out"])
        #expect(r.status == 74, "\(kind): \(r.stderr)")
        #expect(r.stderr.contains("not a regular file"), "\(r.stderr)")
    }

    /// A file that shrinks or grows under the reader is an error at its end.
    @Test(arguments: [-1000, 1000])
    func aFileChangingUnderTheReaderIsAnError(_ change: Int) throws {
        let dir = temporaryDirectory()
        let url = dir.appendingPathComponent("feed.xml")
        try Data(repeating: 0x41, count: 1 << 20).write(to: url)
        let source = try FileSource(url)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        _ = try source.read(into: buffer)
        let h = try FileHandle(forWritingTo: url)
        if change < 0 { try h.truncate(atOffset: UInt64((1 << 20) + change)) } else { try h.seekToEnd(); try h.write(contentsOf: Data(count: change)) }
        try h.close()
        let e = #expect(throws: TonightError.self) { while try source.read(into: buffer) > 0 {} }
        #expect(e?.message.contains("changed size while it was read") == true, "\(String(describing: e))")
        #expect(e?.exitCode == 74)
    }

    /// A FIFO in place of a dataset file: `snapshot get` and `verify` answer with an error.
    @Test func aFIFOAsADatasetFileIsAnError() throws {
        let work = temporaryDirectory()
        #expect(try runTonight(["run", "--work", work.path, "--out", work.path + "/out"]).status == 0)
        let root = work.appendingPathComponent("out/snapshots")
        let id = try SnapshotDirectory(root: root).currentID()
        let file = root.appendingPathComponent(id).appendingPathComponent("sessions.ndjson.zst")
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o644) == 0)
        let verify = try runTonight(["snapshot", "verify", "--out", work.path + "/out"])
        #expect(verify.status == 65 && verify.stdout.contains("not a regular file"), "\(verify.stdout)\(verify.stderr)")
        let get = try runTonight(["snapshot", "get", "sessions", "x", "--out", work.path + "/out"])
        #expect(get.status == 65 && get.stderr.contains("not a regular file"), "\(get.stderr)")
    }
}
