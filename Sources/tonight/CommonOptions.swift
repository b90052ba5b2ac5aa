import ArgumentParser
import Foundation
import Logging
import TonightCore
import TonightPipeline
import TonightBase

/// Options shared by the commands that touch the run store.
struct StoreOptions: ParsableArguments {
    @Option(help: "Config file (YAML); see Pipelines/nightly.yaml.")
    var config: String?

    @Option(help: "Run store directory (overrides paths.work).")
    var work: String?

    @Option(name: .customLong("log-format"), help: "Log format: human or json.")
    var logFormat: String = "human"

    func loadConfig() throws -> TonightConfig {
        guard let config else { return TonightConfig() }
        return try TonightConfig.load(URL(fileURLWithPath: config))
    }

    func workURL(_ config: TonightConfig) -> URL {
        URL(fileURLWithPath: work ?? config[ConfigKeys.Paths.work])
    }

    func makeLogger() throws -> Logger {
        guard let format = TonightLogHandler.Format(rawValue: logFormat) else {
            throw TonightError(.usage, "unknown --log-format '\(logFormat)'", hint: "use human or json")
        }
        LoggingSystem.bootstrap { TonightLogHandler(label: $0, format: format) }
        return Logger(label: "tonight")
    }
}

enum TimeArgument {
    /// `2026-01-15T06:00:00Z` or `2026-01-15` (midnight UTC); also what `date -Iseconds` and
    /// `date --iso-8601=ns` print (an offset, `+00:00` on a UTC host, and a fraction of a
    /// second), so that a scheduler can pass the shell's clock as it comes: the offset is
    /// taken off, and a fraction rounds up to the next second (an event at the whole second
    /// before has started: `startsAt ≥ asOf` must not admit it).
    static func instant(_ s: String) throws -> Int64 {
        if let d = CivilTime.parseDate(Array(s.utf8)) { return Int64(d) * 86_400 }
        if let t = CivilTime.parseInstantRoundingUp(s) { return t }
        throw TonightError(.usage, "cannot read time '\(TonightError.quoted(s))'",
                           hint: "use ISO 8601, e.g. 2026-01-15T06:00:00Z (an offset such as +01:00 is converted to UTC)")
    }

    static func date(_ s: String) throws -> Int {
        guard let d = CivilTime.parseDate(Array(s.utf8)) else {
            throw TonightError(.usage, "cannot read date '\(s)'", hint: "use YYYY-MM-DD")
        }
        return d
    }
}
