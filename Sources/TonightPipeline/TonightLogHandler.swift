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
            var obj: [String: String] = ["ts": ISO8601DateFormatter().string(from: now), "level": event.level.rawValue,
                                         "msg": "\(event.message)", "logger": label]
            for (k, v) in all { obj[k] = "\(v)" }
            let data = (try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])) ?? Data()
            line = String(decoding: data, as: UTF8.self) + "\n"
        }
        ProgressReporter.writeAboveProgress(Data(line.utf8))
    }
}
