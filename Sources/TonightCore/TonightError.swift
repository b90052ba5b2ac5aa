import Foundation
import TonightBase

/// An error with the context an on-call engineer needs: where (file, line, column),
/// which stage, what went wrong and what to do about it. Its kind decides the exit code.
package struct TonightError: Error, CustomStringConvertible, Sendable {
    /// The class of failure; each maps to one of the documented exit codes.
    package enum Kind: String, Sendable {
        case usage
        case invalidInput
        case io
        case lockHeld
        case `internal`
        /// Stopped by SIGTERM or SIGINT (`signal`).
        case interrupted
    }

    package var kind: Kind
    package var message: String
    package var file: String?
    package var line: Int?
    package var column: Int?
    package var stage: String?
    package var hint: String?
    /// The signal of an `interrupted` error.
    package var signal: Int32?

    package init(
        _ kind: Kind, _ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil,
        stage: String? = nil, hint: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.stage = stage
        self.hint = hint
    }

    /// The process exit code for this error (pipeline.md: 1, 2, 65, 74, 75).
    package var exitCode: Int32 {
        switch kind {
        case .usage: return 2
        case .invalidInput: return 65
        case .io: return 74
        case .lockHeld: return 75
        case .internal: return 1
        case .interrupted: return 128 + (signal ?? SIGTERM)
        }
    }

    /// `FILE:LINE:COLUMN: message` when a position is known.
    package var location: String? {
        guard let file else { return nil }
        var s = file
        if let line {
            s += ":\(line)"
            if let column { s += ":\(column)" }
        }
        return s
    }

    package var description: String {
        var s = ""
        if let location { s += location + ": " }
        if let stage { s += "[\(stage)] " }
        s += message
        if let hint { s += " (\(hint))" }
        return s
    }

    /// Returns a copy with the stage filled in if it was not set.
    package func inStage(_ name: String) -> TonightError {
        var copy = self
        if copy.stage == nil { copy.stage = name }
        return copy
    }
}

extension TonightError {
    /// Text from an input (an id, a name, a file's bytes) made safe to repeat in a message or
    /// report: control characters escaped, invalid UTF-8 replaced, at most `limit` characters.
    package static func quoted(_ bytes: some Collection<UInt8>, limit: Int = 80) -> String { Quoted.text(bytes, limit: limit) }

    /// `quoted` of a string.
    package static func quoted(_ text: String, limit: Int = 80) -> String { Quoted.text(text, limit: limit) }

    /// The job stopped on a signal (exit 128 + the signal: 143 for SIGTERM, 130 for SIGINT).
    package static func interrupted(signal: Int32) -> TonightError {
        var e = TonightError(.interrupted, "interrupted by \(signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)")",
                             hint: "the run is marked interrupted and its partial output removed; run again to finish")
        e.signal = signal
        return e
    }

    /// Wraps a POSIX error number from a file operation, with the hint that error number
    /// calls for (`IOHint`: a full disk, a read-only mount, permissions, …).
    package static func io(_ operation: String, path: String, errno code: Int32 = errno) -> TonightError {
        TonightError(
            .io, "\(operation) failed: \(String(cString: strerror(code)))", file: path,
            hint: IOHint.text(errno: code, path: path))
    }
}
