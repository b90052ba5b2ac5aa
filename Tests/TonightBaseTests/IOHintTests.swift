import Foundation
import Testing
import TonightBase

/// `IOHint`: the hint follows the error number (a full disk was told to check permissions),
/// and the directory it names for `df` is one that outlives the failed write.
struct IOHintTests {
    @Test(arguments: [
        (ENOSPC, "the file system is full"), (EDQUOT, "quota"), (EFBIG, "ulimit -f"), (EROFS, "read-only"),
        (EACCES, "permission denied"), (EPERM, "permission denied"), (ENOENT, "check that the path exists"),
        (EMFILE, "ulimit -n"), (ENFILE, "ulimit -n"), (EIO, "I/O error"), (EINVAL, "readable/writable"),
    ])
    func theHintFollowsTheErrorNumber(_ code: Int32, _ expected: String) {
        let hint = IOHint.text(errno: code, path: "/srv/tonight/work/runs/1/tickets/explore.keys")
        #expect(hint.contains(expected), "\(code): \(hint)")
        // Only the hints about where it is written name a place.
        if code == ENOSPC { #expect(hint.contains("df -h /srv/tonight/work/runs/1/tickets)")) }
    }

    @Test(arguments: [
        ("/srv/w/runs/20261128T0000Z-1/.tickets.tmp/explore.keys", "/srv/w/runs/20261128T0000Z-1"),
        ("/srv/out/snapshots/.tmp-20261128T0000Z-1-99/feed.ndjson.zst", "/srv/out/snapshots"),
        ("/srv/out/snapshots/CURRENT.tmp", "/srv/out/snapshots"),
        ("/file", "/"), ("file", "."), ("./file", "."), ("../w/.x/file", "../w"),
        ("/srv/with space/f", "'/srv/with space'"), ("/srv/it's/f", #"'/srv/it'\''s'"#),
    ])
    func theDirectoryOutlivesTheFailedWrite(_ path: String, _ expected: String) {
        #expect(IOHint.text(errno: ENOSPC, path: path).contains("(df -h \(expected))"), "\(path)")
    }
}
