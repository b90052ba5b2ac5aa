import Foundation
import TonightBase
import TonightCore

/// Progress of the running stage on a terminal: done / total in the stage's own unit (bytes
/// for parsers and loaders, users or players for ranking, files for publish), rate and ETA,
/// refreshed twice a second once the stage has taken more than a second. Silent when stderr is
/// not a terminal. The runner starts and ends it around every stage; stages say their unit and
/// how far they are.
package final class ProgressReporter: @unchecked Sendable {
    /// What a stage counts.
    package enum Unit: String, Sendable {
        case bytes, users, players, events, files, datasets

        func format(_ n: Int64) -> String {
            switch self {
            case .bytes: return String(format: "%.1f MB", Double(n) / 1e6)
            default: return "\(n.formatted(.number.grouping(.automatic))) \(rawValue)"
            }
        }
    }

    private struct State {
        var stage = ""
        var unit: Unit?
        var done: Int64 = 0
        var total: Int64 = 0
        var started = Date()
        var running = false
        var printed = false
    }

    private let state = Locked(State())
    private let enabled: Bool
    /// Seconds before the first line (1: stages that finish sooner print nothing).
    private let after: Double
    private let output: FileHandle

    package init(enabled: Bool = isatty(2) == 1, after: Double? = nil, output: FileHandle = .standardError) {
        self.enabled = enabled
        self.output = output
        self.after = after ?? ProcessInfo.processInfo.environment["TONIGHT_PROGRESS_AFTER"].flatMap(Double.init) ?? 1
    }

    /// A stage starts (called by the runner; the stage then says its unit with `measure`).
    package func begin(stage: String) {
        state.withLock { $0 = State(stage: stage, started: Date(), running: true) }
        guard enabled else { return }
        Thread.detachNewThread { [self] in loop() }
    }

    /// The stage's unit and, when known, how much there is to do.
    package func measure(_ unit: Unit, total: Int64 = 0) {
        state.withLock {
            $0.unit = unit
            $0.total = total
            $0.done = 0
        }
    }

    /// How much is done, in the stage's unit.
    package func update(done: Int64) {
        state.withLock { $0.done = done }
    }

    package func end() {
        let printed = state.withLock { s -> Bool in
            s.running = false
            return s.printed
        }
        if enabled && printed { output.write(Data("\r\u{1b}[K".utf8)) }
    }

    private func loop() {
        let started = state.current.started
        let tick = min(0.5, max(after, 0.05))
        while true {
            Thread.sleep(forTimeInterval: tick)
            let line = state.withLock { s -> String? in
                guard s.running, s.started == started else { return nil }
                let elapsed = Date().timeIntervalSince(s.started)
                guard elapsed >= after else { return "" }
                s.printed = true
                return Self.render(s, elapsed: elapsed)
            }
            guard let line else { return }
            if !line.isEmpty { output.write(Data(("\r\u{1b}[K" + line).utf8)) }
        }
    }

    private static func render(_ s: State, elapsed: Double) -> String {
        var text = "\(s.stage): "
        if let unit = s.unit {
            text += unit.format(s.done)
            let rate = Double(s.done) / max(elapsed, 0.001)
            if s.total > 0 {
                text += " / " + unit.format(s.total) + String(format: " (%.0f %%)", 100 * Double(s.done) / Double(s.total))
            }
            text += unit == .bytes ? String(format: ", %.0f MB/s", rate / 1e6) : ", \(Int(rate)) \(unit.rawValue)/s"
            if s.total > 0 && rate > 0 { text += String(format: ", ETA %.0f s", max(0, Double(s.total - s.done) / rate)) }
            text += ", "
        }
        return text + String(format: "%.1f s", elapsed)
    }
}
