import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import TonightGenerator
import TonightSnapshot
import TonightSnapshotWriter

/// A write that fails (a full disk, a file size limit) is an I/O error, exit 74, naming the
/// file; nothing is published and the current snapshot stays.
@Suite(.serialized) struct DiskFullTests {
    static let small: URL = {
        let dir = temporaryDirectory("tonight-small-diskfull")
        _ = try! DatasetGenerator(scale: .small, seed: 5).generate(into: dir)
        return dir
    }()

    static func sh(_ script: String) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    /// Whether this process may mount a small tmpfs (root in a container usually may).
    static let canMount: Bool = {
        let dir = temporaryDirectory("tonight-mount-probe")
        guard let (status, _) = try? sh("mount -t tmpfs -o size=1m tmpfs '\(dir.path)' && umount '\(dir.path)'") else { return false }
        return status == 0
    }()

    @Test func fileSizeLimitIsAnIOError() throws {
        let work = temporaryDirectory()
        let exe = try tonightExecutable().path
        let (status, stderr) = try Self.sh(
            "trap '' XFSZ; ulimit -f 256; exec '\(exe)' run --inputs '\(Self.small.path)' --work '\(work.path)' --out '\(work.path)/out'")
        #expect(status == 74, "\(stderr)")
        #expect(stderr.contains("File too large"))
        #expect(stderr.contains("ulimit -f"), "the hint names the limit: \(stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/out/snapshots/CURRENT"))
    }

    /// A real full disk while `tickets` writes its datasets: exit 74, and the snapshot that was
    /// current before stays current.
    @Test(.enabled(if: canMount)) func fullDiskWhileADatasetIsWritten() throws {
        let out = temporaryDirectory()
        let first = try runTonight(["run", "--inputs", Self.small.path, "--work", out.path + "/work", "--out", out.path + "/out"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try SnapshotDirectory(root: out.appendingPathComponent("out/snapshots")).currentID()
        // Room for every stage before tickets and half of tickets' output, measured on the
        // first run: the disk fills while tickets writes its datasets, whatever the data.
        let id = try #require(RunStore(work: out.appendingPathComponent("work")).runIDs().first)
        let runDir = out.appendingPathComponent("work/runs/\(id)")
        func kilobytes(_ stage: String) throws -> Int {
            Int(try shell("du -sk '\(runDir.appendingPathComponent(stage).path)' | cut -f1").output
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        var size = try kilobytes("tickets") / 2 + 64
        for stage in ["parse-feed", "parse-affinity", "geocode", "load-tickets", "load-playmate", "catalog"] { size += try kilobytes(stage) }
        let mount = temporaryDirectory("tonight-tmpfs")
        #expect(try Self.sh("mount -t tmpfs -o size=\(size)k tmpfs '\(mount.path)'").0 == 0)
        defer { _ = try? Self.sh("umount '\(mount.path)'") }
        // Stages one after another, so that the stages counted above are the ones before
        // tickets (side by side, playmate or alerts could take the last bytes first).
        let oneAtATime = out.appendingPathComponent("one-at-a-time.yaml")
        try "runs:\n  stagesAtOnce: 1\n".write(to: oneAtATime, atomically: true, encoding: .utf8)
        let r = try runTonight(["run", "--config", oneAtATime.path, "--inputs", Self.small.path, "--work", mount.path + "/work",
                                "--out", out.path + "/out", "--as-of", "2026-01-16T06:00:00Z"])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("No space left on device") && r.stderr.contains("[tickets]"), "\(r.stderr)")
        // The hint says what to do about a full disk (it said "check that the path exists and
        // is readable/writable"), and the directory it names for `df` is still there.
        #expect(r.stderr.contains("the file system is full"), "\(r.stderr)")
        let df = try #require(r.stderr.range(of: "(df -h ").map { r.stderr[$0.upperBound...].prefix { $0 != ")" } })
        #expect(FileManager.default.fileExists(atPath: String(df)), "\(df)")
        #expect(try SnapshotDirectory(root: out.appendingPathComponent("out/snapshots")).currentID() == before)
    }

    /// Every writer of the pipeline says what a full disk calls for: the run store's files
    /// (`FileIO`) and the dataset writer's (`SnapshotError`, turned into the stage's error).
    /// `/dev/full` fails every write with ENOSPC.
    @Test func aFullDiskIsSaidAsSuchByEveryWriter() throws {
        let dir = temporaryDirectory("tonight-dev-full")
        let storeError = try #require(throws: TonightError.self) {
            try FileIO.write(Array("{}".utf8), to: URL(fileURLWithPath: "/dev/full"))
        }
        #expect(storeError.kind == .io)
        #expect(storeError.hint?.contains("the file system is full") == true, "\(storeError)")
        // The dataset writer writes its key table's placeholder when it opens.
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("explore.keys").path,
                                                   withDestinationPath: "/dev/full")
        let writerError = try #require(throws: SnapshotError.self) {
            _ = try DatasetWriter(name: "explore", directory: dir, frameBytes: 2048, layout: 2)
        }
        #expect(writerError.code == .io)
        let e = TonightError(writerError, stage: "tickets")
        #expect(e.kind == .io && e.exitCode == 74)
        #expect(e.hint?.contains("the file system is full") == true, "\(e)")
        #expect(e.hint?.contains("df -h \(dir.path))") == true, "the directory, not the file: \(e)")
    }
}
