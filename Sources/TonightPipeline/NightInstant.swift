import Foundation
import Logging
import TonightBase
import TonightCore

/// The run instant every shard and the merge of a sharded night share when none was given.
///
/// Without `--as-of` a run takes the clock. A sharded night is N processes started by a batch
/// engine (seconds or, when capacity is short, hours apart) and a merge started after the
/// last: each took its own instant, so the shards ranked with different time decays and the
/// merge refused every night ("shard 0 of 4 is stale: it ranked as of …"), with the engine
/// files in `Pipelines/` as shipped (none passes `--as-of`: a Kubernetes Job cannot template
/// the time). Now the first shard of a night records its instant in
/// `WORK/shards/<N>/.night.json` (under `.night.lock`, waiting for it: shards start together),
/// and the other shards and the merge adopt it, while it is less than
/// `sharding.nightHours` old (12: a night is bounded at 4 h; a new night's first shard
/// writes a new one). An explicit `--as-of` (or a generated data set's) is never overridden.
package enum NightInstant {
    struct Record: Codable {
        var asOf: String
        var date: String
        var createdAt: String
    }

    static func url(work: URL, count: Int) -> URL {
        ShardRecord.directory(work: work, count: count).appendingPathComponent(".night.json")
    }

    /// For a shard (`shard` true: adopts or records) or a merge (adopts only) of `count`
    /// shards whose instant came from the clock: sets `options.asOf` and, unless `--date` was
    /// given, `options.date`, to the night's.
    package static func settle(_ options: inout RunOptions, count: Int, shard: Bool, dateGiven: Bool,
                               maxAgeHours: Int, logger: Logger, now: Int64 = Int64(Date().timeIntervalSince1970)) throws {
        let dir = ShardRecord.directory(work: options.work, count: count)
        let lock = try WorkLock(waitingFor: ".night.lock", in: dir, logger: logger, what: "the night record of \(count) shards")
        defer { withExtendedLifetime(lock) {} }
        let url = url(work: options.work, count: count)
        if let data = try? FileIO.read(url), let r = try? JSONDecoder().decode(Record.self, from: data),
           let asOf = CivilTime.parseInstant(r.asOf), let date = CivilTime.parseDate(Array(r.date.utf8)),
           // Either way round: the machines' clocks differ by seconds (a record "from the
           // future" must not make a shard start a night of its own).
           let created = CivilTime.parseInstant(r.createdAt), abs(now - created) < Int64(maxAgeHours) * 3600 {
            options.asOf = asOf
            if !dateGiven { options.date = date }
            logger.info("as-of \(r.asOf) (run date \(r.date)): the night of \(count) shards begun at \(r.createdAt) (\(url.path))")
            return
        }
        guard shard else {
            logger.warning("no night record of \(count) shards under \(maxAgeHours) h old (\(url.path)): the merge's as-of is the clock's")
            return
        }
        let record = Record(asOf: CivilTime.formatUTC(options.asOf), date: CivilTime.formatDate(days: options.date),
                            createdAt: CivilTime.formatUTC(now))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let tmp = dir.appendingPathComponent(".night.json.tmp")
        try FileIO.write(Array(try encoder.encode(record)) + [0x0A], to: tmp, sync: true)
        try FileIO.rename(tmp, to: url)
        try FileIO.syncDirectory(dir)
        logger.info("as-of \(record.asOf): this shard begins the night of \(count) shards (\(url.path))")
    }
}
