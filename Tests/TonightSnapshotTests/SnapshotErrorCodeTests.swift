import Foundation
import Testing
@testable import TonightSnapshot

/// The reader's error codes say what happened, so that a service can tell a typo from a
/// damaged file and a failing disk: a dataset the snapshot lacks is `.missing` (it was
/// `.corrupt`, the default), a read the kernel failed is `.io` with its error number (it was
/// a "short read" of corrupt data), a file that ends early is `.corrupt`.
struct SnapshotErrorCodeTests {
    @Test func aDatasetTheSnapshotLacksIsMissing() throws {
        let root = temporaryDirectory("snap-error-codes")
        let id = try SnapshotFixture.write(root: root, id: "20260115T060000Z-00000001",
                                           datasets: ["explore": SnapshotFixture.records(["a", "b"])])
        let snapshot = try Snapshot.open(id: id, in: root, cacheBytes: 0)
        let e = try #require(throws: SnapshotError.self) { _ = try snapshot.dataset("explroe") }
        #expect(e.code == .missing, "\(e)")
        #expect(e.message.contains("it has: explore"))
    }

    @Test func aFailedReadIsAnIOErrorAndAnEarlyEndIsCorrupt() throws {
        let dir = temporaryDirectory("snap-error-codes-read")
        let file = dir.appendingPathComponent("short")
        try Data([1, 2, 3]).write(to: file)
        let fd = open(file.path, O_RDONLY)
        defer { close(fd) }
        let short = try #require(throws: SnapshotError.self) { _ = try SeekableZstdFile.pread(fd, 8, at: 0, path: file.path) }
        #expect(short.code == .corrupt && short.message.contains("short read at byte 3"), "\(short)")
        // pread(2) of a directory fails with EISDIR.
        let dirFD = open(dir.path, O_RDONLY | O_DIRECTORY)
        defer { close(dirFD) }
        let failed = try #require(throws: SnapshotError.self) { _ = try SeekableZstdFile.pread(dirFD, 8, at: 0, path: dir.path) }
        #expect(failed.code == .io, "\(failed)")
        #expect(failed.errorNumber == EISDIR)
        #expect(failed.message.contains(String(cString: strerror(EISDIR))), "\(failed)")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)
        defer { buffer.deallocate() }
        let intoBuffer = try #require(throws: SnapshotError.self) {
            try SeekableZstdFile.pread(dirFD, into: buffer, at: 0, path: dir.path)
        }
        #expect(intoBuffer.code == .io && intoBuffer.errorNumber == EISDIR, "\(intoBuffer)")
    }
}
