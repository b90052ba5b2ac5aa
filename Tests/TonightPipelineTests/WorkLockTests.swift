import Foundation
import Testing
import TonightBase
import TonightCore
import TonightTesting
@testable import TonightPipeline

/// A refused lock must leave every other descriptor of the process alone. An earlier
/// `WorkLock` closed its descriptor in the failing initialiser and then again in `deinit`
/// (which also truncated it): between the two, another thread's `open` could get the same
/// number, and that thread's file was truncated to 0 bytes and closed under it (a publish
/// once found a copied key table empty, in a test run beside `secondConcurrentRunIsRefused`).
@Suite struct WorkLockTests {
    @Test func aRefusedLockIsRefusedWithItsHolder() throws {
        let work = temporaryDirectory()
        do {
            let held = try WorkLock(work: work)
            #expect {
                _ = try WorkLock(work: work)
            } throws: { error in
                (error as? TonightError)?.exitCode == 75 && (error as? TonightError)?.message.contains("pid \(getpid())") == true
            }
            withExtendedLifetime(held) {}
        }
        // Released: taken again, and the holder's pid is still in the file while held.
        let again = try WorkLock(work: work)
        #expect((try? String(contentsOf: work.appendingPathComponent("lock"), encoding: .utf8)) == "\(getpid())\n")
        withExtendedLifetime(again) {}
    }

    /// Refused locks on one thread, files written and checked on another: every file keeps
    /// its bytes and every write and close succeeds.
    @Test func refusedLocksTouchNoOtherDescriptor() throws {
        let work = temporaryDirectory()
        let files = temporaryDirectory()
        let held = try WorkLock(work: work)
        let stop = Locked(false)
        let damaged = Locked<[String]>([])
        let payload = [UInt8](repeating: 0x61, count: 4096)
        let writer = Thread {
            var k = 0
            while !stop.withLock({ $0 }) {
                let path = files.appendingPathComponent("f\(k % 8)").path
                k += 1
                let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard fd >= 0 else { damaged.withLock { $0.append("open failed") }; continue }
                let wrote = payload.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                var st = stat()
                let statted = fstat(fd, &st) == 0
                let closed = close(fd) == 0
                if wrote != payload.count || !statted || st.st_size != payload.count || !closed
                    || FileIO.size(URL(fileURLWithPath: path)) != Int64(payload.count) {
                    damaged.withLock { $0.append("\(path): wrote \(wrote), size \(st.st_size), closed \(closed)") }
                }
            }
        }
        writer.start()
        for _ in 0..<60_000 {
            _ = try? WorkLock(work: work)
        }
        stop.withLock { $0 = true }
        while !writer.isFinished { usleep(1000) }
        withExtendedLifetime(held) {}
        #expect(damaged.withLock { $0 }.isEmpty, "\(damaged.withLock { $0.prefix(3) })")
    }
}
