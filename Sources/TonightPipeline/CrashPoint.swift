import Foundation

/// Named points of the publish protocol where tests kill the process with SIGKILL
/// (`TONIGHT_CRASH_AT=<point>`), to prove that a crash at any of them leaves `CURRENT`
/// naming a complete snapshot. Without the variable this is a single string comparison.
package enum CrashPoint {
    /// Every point, in the order a publish passes them.
    package static let publishPoints = [
        "publish-start", "dataset-copied", "datasets-copied", "manifest-written", "validated",
        "before-snapshot-rename", "after-snapshot-rename", "current-temp-written", "after-current-rename",
        "retention-deleting", "after-retention",
    ]

    private static let target = ProcessInfo.processInfo.environment["TONIGHT_CRASH_AT"]

    /// Kills the process here if the test asked for it.
    package static func hit(_ point: String) {
        guard let target, target == point else { return }
        kill(getpid(), SIGKILL)
    }
}
