import Dispatch
import Foundation

/// Wall time of successive phases of a job (for a stage's `seconds.*` details).
package struct PhaseClock: Sendable {
    private var last = DispatchTime.now().uptimeNanoseconds
    /// Seconds of each phase, by name.
    package private(set) var laps: [String: Double] = [:]

    package init() {}

    /// Ends the current phase under `name` and starts the next.
    package mutating func lap(_ name: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        laps[name, default: 0] += Double(now - last) / 1e9
        last = now
    }
}
