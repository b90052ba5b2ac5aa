import Foundation
import Logging
import TonightBase

/// swift-log handler: human-readable lines, or JSON lines with `--log-format json`, on stderr.
package struct TonightLogHandler: LogHandler {
    package enum Format: String, Sendable { case human, json }

    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    let label: String
    let format: Format

    package init(label: String, format: Format) {
        self.label = label
        self.format = format
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        let now = Date()
        let line: String
        switch format {
        case .human:
            line = Self.humanLine(at: now, level: event.level, message: "\(event.message)", metadata: all)
        case .json:
            line = Self.jsonLine(level: event.level.rawValue, message: "\(event.message)", logger: label,
                                 fields: all.mapValues { "\($0)" })
        }
        ProgressReporter.writeAboveProgress(Data(line.utf8))
    }

    /// One human log line (with its newline): time, level, message, `key=value` metadata.
    /// Control characters are escaped (`Quoted.line`): a message or a value that carries
    /// text from an input cannot move the terminal's cursor, set its title or start a line
    /// of its own that would pass for another log line.
    static func humanLine(at date: Date, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        let ts = ISO8601DateFormatter().string(from: date)
        let meta = metadata.isEmpty ? "" : " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(ts) \(level.rawValue.uppercased()) \(Quoted.line(message + meta))\n"
    }

    /// One JSON log line (with its newline): `ts`, `level`, `msg`, `logger` and `fields`
    /// (strings, or integers where a field is a number, such as a line or an exit code).
    /// Every control character is escaped: C0 by the encoder, DEL and C1 by
    /// `Quoted.jsonControls` (JSON allows those raw, a terminal that shows the log does not).
    package static func jsonLine(level: String, message: String, logger: String = "tonight", fields: [String: any Sendable] = [:]) -> String {
        var obj: [String: Any] = fields
        obj["ts"] = ISO8601DateFormatter().string(from: Date())
        obj["level"] = level
        obj["msg"] = message
        obj["logger"] = logger
        let data = (try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])) ?? Data()
        return Quoted.jsonControls(String(decoding: data, as: UTF8.self)) + "\n"
    }
}
