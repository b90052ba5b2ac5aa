import Foundation
import Logging

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
            let ts = ISO8601DateFormatter().string(from: now)
            let meta = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line = "\(ts) \(event.level.rawValue.uppercased()) \(event.message)\(meta)\n"
        case .json:
            line = Self.jsonLine(level: event.level.rawValue, message: "\(event.message)", logger: label,
                                 fields: all.mapValues { "\($0)" })
        }
        ProgressReporter.writeAboveProgress(Data(line.utf8))
    }

    /// One JSON log line (with its newline): `ts`, `level`, `msg`, `logger` and `fields`
    /// (strings, or integers where a field is a number, such as a line or an exit code).
    package static func jsonLine(level: String, message: String, logger: String = "tonight", fields: [String: any Sendable] = [:]) -> String {
        var obj: [String: Any] = fields
        obj["ts"] = ISO8601DateFormatter().string(from: Date())
        obj["level"] = level
        obj["msg"] = message
        obj["logger"] = logger
        let data = (try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
