import Foundation

/// Whether tonight's figure is outside its usual band: more than `factor` median absolute
/// deviations from the median of the last nights (at most `window`, at least `minimumHistory`),
/// the deviation floored so that a perfectly steady history does not flag noise.
package struct AnomalyRule: Sendable {
    /// Nights a band is computed from.
    package static let window = 14
    /// Fewer earlier nights than this: no band yet, nothing is flagged.
    package static let minimumHistory = 5
    package var factor = 3.0
    /// The smallest deviation that counts, as a share of the median…
    package var relativeFloor: Double
    /// …and in the figure's unit.
    package var absoluteFloor: Double

    package init(relativeFloor: Double, absoluteFloor: Double, factor: Double = 3) {
        self.relativeFloor = relativeFloor
        self.absoluteFloor = absoluteFloor
        self.factor = factor
    }

    /// Stage durations: 10 % or half a second.
    package static let duration = AnomalyRule(relativeFloor: 0.10, absoluteFloor: 0.5)
    /// Records of a dataset: 1 % or one record.
    package static let records = AnomalyRule(relativeFloor: 0.01, absoluteFloor: 1)
    /// Rejected rows: 10 % or one row.
    package static let rejects = AnomalyRule(relativeFloor: 0.10, absoluteFloor: 1)

    /// The band of `history` (oldest first; the last `window` count).
    package struct Band: Sendable, Equatable {
        package var median: Double
        /// The deviation the band allows on either side (`factor` × floored MAD).
        package var halfWidth: Double
        package var low: Double { median - halfWidth }
        package var high: Double { median + halfWidth }
        package func contains(_ x: Double) -> Bool { abs(x - median) <= halfWidth }
    }

    package func band(_ history: [Double]) -> Band? {
        let recent = Array(history.suffix(Self.window))
        guard recent.count >= Self.minimumHistory else { return nil }
        let m = Self.median(recent)
        let mad = Self.median(recent.map { abs($0 - m) })
        return Band(median: m, halfWidth: factor * max(mad, relativeFloor * abs(m), absoluteFloor))
    }

    /// nil: no band yet; true: outside it.
    package func isAnomalous(_ value: Double, history: [Double]) -> Bool? {
        band(history).map { !$0.contains(value) }
    }

    package static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

/// A figure of tonight's run outside its band, or a dataset that shrank past its guard.
package struct Anomaly: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case duration, records, rejects, shrink
    }

    package var kind: Kind
    /// The stage (durations, rejects) or dataset (records, shrink).
    package var subject: String
    package var value: Double
    /// What was usual: the band's median, or the previous night's records for a shrink.
    package var usual: Double
    package var message: String

    /// The Prometheus label that names the subject.
    package var label: String { kind == .records || kind == .shrink ? "dataset" : "stage" }
}
