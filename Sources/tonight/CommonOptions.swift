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
        if let t = CivilTime.parseInstant(s) { return t }
        if let d = CivilTime.parseDate(Array(s.utf8)) { return Int64(d) * 86_400 }
        if let t = withOffsetOrFraction(s) { return t }
        throw TonightError(.usage, "cannot read time '\(TonightError.quoted(s))'",
                           hint: "use ISO 8601, e.g. 2026-01-15T06:00:00Z (an offset such as +01:00 is converted to UTC)")
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM|±HH)`.
    static func withOffsetOrFraction(_ s: String) -> Int64? {
        let b = Array(s.utf8)
        func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }
        guard b.count >= 20, let base = CivilTime.parseInstant(String(decoding: b[0..<19], as: UTF8.self) + "Z") else { return nil }
        var i = 19
        var roundUp: Int64 = 0
        if b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            let digits = b[(i + 1)...].prefix(while: isDigit)
            guard !digits.isEmpty else { return nil }
            if digits.contains(where: { $0 != UInt8(ascii: "0") }) { roundUp = 1 }
            i += 1 + digits.count
        }
        let zone = Array(b[i...])
        if zone == Array("Z".utf8) { return base + roundUp }
        guard let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let rest = Array(zone.dropFirst())
        let hhmm: [UInt8]
        switch rest.count {
        case 2: hhmm = rest + Array("00".utf8)
        case 4: hhmm = rest
        case 5 where rest[2] == UInt8(ascii: ":"): hhmm = Array(rest[0..<2] + rest[3..<5])
        default: return nil
        }
        guard hhmm.allSatisfy(isDigit) else { return nil }
        let n = hhmm.map { Int64($0 - UInt8(ascii: "0")) }
        let (hours, minutes) = (n[0] * 10 + n[1], n[2] * 10 + n[3])
        guard hours <= 14, minutes < 60 else { return nil }
        return base - (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1) + roundUp
    }

    static func date(_ s: String) throws -> Int {
        guard let d = CivilTime.parseDate(Array(s.utf8)) else {
            throw TonightError(.usage, "cannot read date '\(s)'", hint: "use YYYY-MM-DD")
        }
        return d
    }
}
