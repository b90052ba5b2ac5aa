import Foundation
import TonightBase
import TonightCore
import TonightPipeline

/// What a command prints beside its logs (the outcome line, the final error), as the logs
/// are: plain text, or with `--log-format json` one JSON object per line, so that a log
/// pipeline reading the merged stdout and stderr of cron or systemd parses every line and an
/// alert on `level: error` sees the failure.
enum CommandOutput {
    /// Whether the command line asks for JSON logs. Read from the arguments themselves, so
    /// that an error thrown while they are parsed is written as JSON too.
    static let json: Bool = {
        let args = Array(CommandLine.arguments.dropFirst().prefix { $0 != "--" })
        for (i, a) in args.enumerated() {
            if a == "--log-format=json" || (a == "--log-format" && i + 1 < args.count && args[i + 1] == "json") { return true }
        }
        return false
    }()

    /// The outcome of a command on stdout: `text` as is, or a JSON `info` line with `fields`.
    static func result(_ text: String, fields: [String: String] = [:]) {
        if json {
            FileHandle.standardOutput.write(Data(TonightLogHandler.jsonLine(level: "info", message: text, fields: fields).utf8))
        } else {
            print(text)
        }
    }

    /// The final error on stderr: "tonight: error: FILE:LINE:COLUMN: [stage] message (hint)",
    /// or a JSON `error` line with the same parts as fields and the exit code.
    static func error(_ e: TonightError, exitCode: Int32) {
        guard json else {
            FileHandle.standardError.write(Data("tonight: error: \(Quoted.line(e.description))\n".utf8))
            return
        }
        var fields: [String: any Sendable] = ["exitCode": Int(exitCode), "kind": e.kind.rawValue]
        if let file = e.file { fields["file"] = file }
        if let line = e.line { fields["line"] = line }
        if let column = e.column { fields["column"] = column }
        if let stage = e.stage { fields["stage"] = stage }
        if let hint = e.hint { fields["hint"] = hint }
        FileHandle.standardError.write(Data(TonightLogHandler.jsonLine(level: "error", message: e.message, fields: fields).utf8))
    }

    /// An error without a `TonightError` (argument parsing, an unexpected failure).
    static func error(message: String, exitCode: Int32) {
        if json {
            let line = TonightLogHandler.jsonLine(level: "error", message: message, fields: ["exitCode": Int(exitCode)])
            FileHandle.standardError.write(Data(line.utf8))
        } else {
            // Usage errors repeat the argument as typed, other errors their own text: each
            // line escaped, the usage's line breaks kept.
            FileHandle.standardError.write(Data((Quoted.lines(message) + "\n").utf8))
        }
    }
}
