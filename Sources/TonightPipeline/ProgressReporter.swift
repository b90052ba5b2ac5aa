import Foundation
import TonightBase
import TonightCore

/// Progress of the running stages on a terminal: done / total in each stage's own unit (bytes
/// for parsers and loaders, users or players for ranking, files for publish), rate and ETA,
/// refreshed twice a second once a stage has taken more than a second. Stages that run side by
/// side share the line (`tickets: … | alerts: …`). Silent when stderr is not a terminal.
///
/// The runner owns the root reporter and calls `begin(stage:)` for every stage it starts; the
/// stage gets the handle that returns and says its unit (`measure`) and how far it is
/// (`update`) through it.
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
        var unit: Unit?
        var done: Int64 = 0
        var total: Int64 = 0
        var started = Date()
    }

    /// What every handle of one root shares: the running stages in start order, and whether a
    /// line is on the terminal.
    private final class Board: @unchecked Sendable {
        struct Content {
            var stages: [(name: String, state: State)] = []
            var printing = false
            var printed = false
        }
        let content = Locked(Content())
        let enabled: Bool
        /// Seconds before a stage shows (1: stages that finish sooner print nothing).
        let after: Double
        let output: FileHandle
        let onMeasure: (@Sendable (String) -> Void)?

        init(enabled: Bool, after: Double, output: FileHandle, onMeasure: (@Sendable (String) -> Void)?) {
            self.enabled = enabled
            self.after = after
            self.output = output
            self.onMeasure = onMeasure
        }
    }

    private let board: Board
    /// Whether a progress line is on the terminal now (any reporter's): a log line clears it
    /// first (`writeAboveProgress`), and the next tick draws it again below.
    private static let lineShown = Locked(false)

    /// Writes a log line on stderr, clearing the progress line first when one is shown (the
    /// stages beside the one that logs keep drawing theirs).
    package static func writeAboveProgress(_ data: Data) {
        lineShown.withLock { shown in
            if shown { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
            shown = false
            FileHandle.standardError.write(data)
        }
    }
    /// The stage this handle reports for (nil: the root, which reports nothing itself).
    private let stage: String?

    /// `onMeasure` is called with the stage's name when a stage measures its work, which it
    /// does once it has started (tests: something that happens while a stage runs).
    package init(
        enabled: Bool = isatty(2) == 1, after: Double? = nil, output: FileHandle = .standardError,
        onMeasure: (@Sendable (String) -> Void)? = nil
    ) {
        board = Board(enabled: enabled,
                      after: after ?? ProcessInfo.processInfo.environment["TONIGHT_PROGRESS_AFTER"].flatMap(Double.init) ?? 1,
                      output: output, onMeasure: onMeasure)
        stage = nil
    }

    private init(board: Board, stage: String) {
        self.board = board
        self.stage = stage
    }

    /// A stage starts (called by the runner): the handle the stage reports through.
    package func begin(stage name: String) -> ProgressReporter {
        let startLoop = board.content.withLock { c -> Bool in
            c.stages.removeAll { $0.name == name }
            c.stages.append((name, State()))
            defer { c.printing = true }
            return !c.printing
        }
        if board.enabled && startLoop { Thread.detachNewThread { [board] in Self.loop(board) } }
        return ProgressReporter(board: board, stage: name)
    }

    /// The stage's unit and, when known, how much there is to do.
    package func measure(_ unit: Unit, total: Int64 = 0) {
        if let stage { board.onMeasure?(stage) }
        change {
            $0.unit = unit
            $0.total = total
            $0.done = 0
        }
    }

    /// How much is done, in the stage's unit.
    package func update(done: Int64) {
        change { $0.done = done }
    }

    /// The stage ended: it leaves the line (the line is cleared when it was the last).
    package func end() {
        guard let stage else { return }
        let clear = board.content.withLock { c -> Bool in
            c.stages.removeAll { $0.name == stage }
            guard c.stages.isEmpty, c.printed else { return false }
            c.printed = false
            return true
        }
        if board.enabled && clear {
            Self.lineShown.withLock { shown in
                board.output.write(Data("\r\u{1b}[K".utf8))
                shown = false
            }
        }
    }

    private func change(_ body: (inout State) -> Void) {
        guard let stage else { return }
        board.content.withLock { c in
            if let i = c.stages.firstIndex(where: { $0.name == stage }) { body(&c.stages[i].state) }
        }
    }

    /// Redraws the line while any stage runs; the next `begin` after the last `end` starts a
    /// new loop.
    private static func loop(_ board: Board) {
        let tick = min(0.5, max(board.after, 0.05))
        while true {
            Thread.sleep(forTimeInterval: tick)
            let line = board.content.withLock { c -> String? in
                guard !c.stages.isEmpty else {
                    c.printing = false
                    return nil
                }
                let now = Date()
                let shown = c.stages.filter { now.timeIntervalSince($0.state.started) >= board.after }
                guard !shown.isEmpty else { return "" }
                c.printed = true
                return shown.map { render($0.name, $0.state, elapsed: now.timeIntervalSince($0.state.started)) }
                    .joined(separator: " | ")
            }
            guard let line else { return }
            if !line.isEmpty {
                lineShown.withLock { shown in
                    board.output.write(Data(("\r\u{1b}[K" + line).utf8))
                    shown = true
                }
            }
        }
    }

    private static func render(_ stage: String, _ s: State, elapsed: Double) -> String {
        var text = "\(stage): "
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
