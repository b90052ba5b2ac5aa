import TonightBase
import TonightCore

extension RunOptions {
    /// The furthest west a time zone is (UTC−12, `Etc/GMT+12`): no venue's night ends later
    /// in UTC than its D+1 at `tonight.until` plus these seconds.
    static let westmostOffset: Int64 = 12 * 3600

    /// Refuses a run date D (`--date`) whose whole tonight window is before the run instant:
    /// a venue's tonight is D at `tonight.from` to D+1 at `tonight.until`, local time, and
    /// only events starting at or after asOf count, so every `tonight` list would be empty.
    /// That is what `--date` alone does when an earlier night is re-run (asOf defaults to
    /// now); the lists were published empty (or refused later by the shrink guard, with a
    /// hint about the inputs). A D after asOf's date is a preview and stays allowed.
    package func checkRunDate(config: TonightConfig) throws {
        let until = Int64(RankingConfig.clock(config[ConfigKeys.Recommendations.Tonight.until]))
        let latestEnd = Int64(date + 1) * 86_400 + until + Self.westmostOffset
        guard latestEnd <= asOf else { return }
        let d = CivilTime.formatDate(days: date)
        throw TonightError(
            .usage,
            "--date \(d) is before the run instant \(CivilTime.formatUTC(asOf)): every venue's tonight window for \(d) "
                + "(\(config[ConfigKeys.Recommendations.Tonight.from]) on \(d) to \(config[ConfigKeys.Recommendations.Tonight.until]) "
                + "the next day, local time) has ended by then, so every tonight list would be empty",
            hint: "to re-run an earlier night, give its run instant too (e.g. --as-of \(d)T06:00:00Z); "
                + "--date defaults to the UTC date of --as-of")
    }
}
