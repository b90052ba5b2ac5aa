import Foundation
import Testing
@testable import TonightPipeline

/// The band rule on synthetic histories, and what a night is compared on.
@Suite struct AnomalyRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var history: [Double]
        var value: Double
        /// nil: no band yet.
        var flagged: Bool?
        var testDescription: String { "\(rule) \(history) → \(value): \(flagged.map { "\($0)" } ?? "no band")" }
    }

    static let cases: [Case] = [
        // A perfectly steady history: the floor (1 % × 3 for records) is the band.
        .init(rule: "records", history: Array(repeating: 1000, count: 10), value: 1029, flagged: false),
        .init(rule: "records", history: Array(repeating: 1000, count: 10), value: 1031, flagged: true),
        .init(rule: "records", history: Array(repeating: 1000, count: 10), value: 969, flagged: true),
        // A noisy one: 3 MADs (median 10.5, MAD 1 → floor 10 % of 10.5 = 1.05 → ±3.15).
        .init(rule: "duration", history: [10, 12, 9, 11, 10, 13, 9, 11], value: 13.6, flagged: false),
        .init(rule: "duration", history: [10, 12, 9, 11, 10, 13, 9, 11], value: 13.7, flagged: true),
        .init(rule: "duration", history: [10, 12, 9, 11, 10, 13, 9, 11], value: 7.3, flagged: true),
        // Tiny stages: half a second is noise, not news.
        .init(rule: "duration", history: [0.01, 0.02, 0.01, 0.01, 0.02], value: 1.4, flagged: false),
        .init(rule: "duration", history: [0.01, 0.02, 0.01, 0.01, 0.02], value: 1.6, flagged: true),
        // Rejects from none to a few.
        .init(rule: "rejects", history: [0, 0, 0, 0, 0, 0], value: 3, flagged: false),
        .init(rule: "rejects", history: [0, 0, 0, 0, 0, 0], value: 4, flagged: true),
        // Too little history: no band.
        .init(rule: "records", history: [1, 1, 1, 1], value: 500, flagged: nil),
        // Only the last 14 nights count: after 8 nights at a new level, the old one is unusual.
        .init(rule: "records", history: Array(repeating: 1000, count: 14) + Array(repeating: 2000, count: 8), value: 1000, flagged: true),
        .init(rule: "records", history: Array(repeating: 1000, count: 14) + Array(repeating: 2000, count: 6), value: 1000, flagged: false),
    ]

    @Test(arguments: cases) func band(_ c: Case) {
        let rule: AnomalyRule = c.rule == "records" ? .records : c.rule == "duration" ? .duration : .rejects
        #expect(rule.isAnomalous(c.value, history: c.history) == c.flagged)
    }

    @Test func medianOfOddAndEven() {
        #expect(AnomalyRule.median([3, 1, 2]) == 2)
        #expect(AnomalyRule.median([4, 1, 3, 2]) == 2.5)
        #expect(AnomalyRule.median([]) == 0)
    }

    static func night(_ id: Int, tickets: Double, explore: Int, rejects: Int = 0) -> RunHistory.Night {
        RunHistory.Night(runId: "r\(id)", date: "2026-01-\(10 + id)", status: "completed", durations: ["tickets": tickets, "parse-feed": 1],
                         records: ["explore": explore, "tonight": 40], rejects: ["load-tickets": rejects])
    }

    /// A slow stage, a dataset past its band, one past its shrink guard, a jump in rejects;
    /// a dataset whose guard is off (1) is compared on its band only.
    @Test func aNightAgainstItsHistory() {
        let history = RunHistory(nights: (0..<14).map { Self.night($0, tickets: 40 + Double($0 % 3), explore: 1_000_000 + $0 * 100) })
        let normal = Self.night(20, tickets: 41, explore: 1_000_500)
        #expect(history.anomalies(tonight: normal, maxShrink: { _ in 0.5 }).isEmpty)
        var bad = Self.night(21, tickets: 90, explore: 400_000, rejects: 50)
        bad.records["tonight"] = 2
        let found = history.anomalies(tonight: bad, maxShrink: { $0 == "tonight" ? 1 : 0.5 })
        #expect(Set(found.map { "\($0.kind.rawValue) \($0.subject)" })
            == ["duration tickets", "records explore", "shrink explore", "rejects load-tickets", "records tonight"])
        let shrink = found.first { $0.kind == .shrink }!
        #expect(shrink.message.contains("60 % fewer than the last run's 1001300 (its shrink guard is 50 %)"), "\(shrink.message)")
        #expect(shrink.label == "dataset")
        // Too few nights: only the shrink guard speaks.
        let short = RunHistory(nights: Array(history.nights.suffix(3)))
        #expect(short.anomalies(tonight: bad, maxShrink: { _ in 0.5 }).map(\.kind) == [.shrink, .shrink])
    }
}
