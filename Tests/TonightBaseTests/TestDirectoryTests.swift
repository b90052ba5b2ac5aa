import Foundation
import Testing
import TonightTesting

/// The test helper keeps `/tmp` clean: a test process's directories are under one parent of
/// its own, and the parents of test processes that are gone are removed.
struct TestDirectoryTests {
    @Test func directoriesLiveUnderThisProcessesParent() {
        let dir = temporaryDirectory("probe")
        #expect(dir.deletingLastPathComponent().lastPathComponent == "tonight-tests-\(getpid())")
        #expect(FileManager.default.fileExists(atPath: dir.path))
    }

    @Test func leftOversOfDeadProcessesAreRemovedAndLiveOnesKept() throws {
        let parent = temporaryDirectory("leftovers")
        // A process that has ended: its pid names nobody (until reused, which a pid space of
        // millions makes unlikely within the test).
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        let names = ["tonight-tests-\(p.processIdentifier)", "tonight-tests-\(getpid())", "tonight-tests-1",
                     "tonight-tests-notapid", "something-else"]
        for n in names {
            try FileManager.default.createDirectory(at: parent.appendingPathComponent(n), withIntermediateDirectories: true)
        }
        removeLeftOverTestDirectories(in: parent)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: parent.path))
        #expect(left == Set(names.dropFirst()))
    }
}
