import Foundation
import TonightBase
import TonightCore

/// The N success records a merge reads, checked to agree with each other and with the merge:
/// none missing, none duplicated, none stale (another build, instant, setting, input or
/// fingerprint than the merge's own plan). Part files are checked later, when they are read.
package struct ShardSet: Sendable {
    /// The records by shard index.
    package let records: [ShardRecord]
    let work: URL
    let count: Int

    /// Every shard of `count` must have exactly one record that matches `expected` (the merge's
    /// planned, unsharded records of the per-user stages, and of every stage for the inputs).
    package static func load(
        work: URL, count: Int, expected: [StageRecord], perUser: Set<String>, codeVersion: String, config: TonightConfig
    ) throws -> ShardSet {
        let dir = ShardRecord.directory(work: work, count: count)
        var byIndex: [Int: (file: String, record: ShardRecord)] = [:]
        for file in FileIO.list(dir).filter({ $0.hasSuffix(".json") && !$0.hasPrefix(".") }).sorted() {
            let url = dir.appendingPathComponent(file)
            let record: ShardRecord
            do {
                record = try ShardRecord.read(url)
            } catch let e as TonightError {
                throw refusal("the success record \(file) cannot be read (\(e.message))", file: url, hint: "remove it and re-run the shard it belonged to")
            }
            guard record.count == count, (0..<count).contains(record.shard) else {
                throw refusal("the success record \(file) is for shard \(record.shard) of \(record.count), not one of \(count)", file: url,
                              hint: "remove it: the shards and the merge must use the same count")
            }
            if let other = byIndex[record.shard] {
                throw refusal("shard \(record.shard) of \(count) has two success records: \(other.file) and \(file)", file: url,
                              hint: "remove the one that is not from tonight's run of shard \(record.shard), or re-run it with --force")
            }
            byIndex[record.shard] = (file, record)
        }
        let missing = (0..<count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            let shown = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw refusal("\(missing.count == 1 ? "shard" : "shards") \(shown) of \(count) \(missing.count == 1 ? "has" : "have") no success record (not finished, or failed)",
                          file: dir, hint: "run \(missing.count == 1 ? "it" : "them") first: tonight run --shard \(missing[0])/\(count) (same --inputs, --as-of and config), then merge again")
        }
        let config = ShardRecord.comparableConfig(config)
        let inputs = ShardRecord.inputs(of: expected)
        let asOf = expected.compactMap(\.asOf).first
        let records = (0..<count).map { byIndex[$0]!.record }
        for r in records {
            let url = ShardRecord.url(work: work, shard: try Shard(index: r.shard, count: count))
            let which = "shard \(r.shard) of \(count)"
            let hint = "re-run it: tonight run --shard \(r.shard)/\(count) with the merge's build, --inputs, --as-of and config"
            if r.codeVersion != codeVersion {
                throw refusal("\(which) is stale: it was computed by \(r.codeVersion), this merge is \(codeVersion)", file: url, hint: hint)
            }
            if let asOf, asOf != "\(r.asOf)/\(r.date)" {
                throw refusal("\(which) is stale: it ranked as of \(r.asOf) (run date \(r.date)), this merge is for \(asOf.replacingOccurrences(of: "/", with: " (run date ") + ")")",
                              file: url, hint: hint)
            }
            if let key = Set(config.keys).union(r.config.keys).sorted().first(where: { config[$0] != r.config[$0] }) {
                throw refusal("\(which) ran with other settings: \(key) is \(r.config[key] ?? "unset") there, \(config[key] ?? "unset") here",
                              file: url, hint: hint)
            }
            if let role = Set(inputs.keys).union(r.inputs.keys).sorted().first(where: { inputs[$0] != r.inputs[$0] }) {
                throw refusal("\(which) is stale: its input \(role) was \(r.inputs[role].map { String($0.prefix(16)) } ?? "absent"), the merge's is \(inputs[role].map { String($0.prefix(16)) } ?? "absent")",
                              file: url, hint: hint)
            }
            let shard = try Shard(index: r.shard, count: count)
            for planned in expected where perUser.contains(planned.stage) {
                var mine = planned
                mine.shard = shard.description
                let want = StageRunner.fingerprint(of: mine)
                guard let part = r.parts.first(where: { $0.stage == planned.stage }) else {
                    throw refusal("\(which) has no part of stage \(planned.stage)", file: url, hint: hint)
                }
                if part.fingerprint != want {
                    throw refusal("\(which) is stale: its \(planned.stage) fingerprint \(part.fingerprint.prefix(12)) is not the merge's \(want.prefix(12))",
                                  file: url, hint: hint)
                }
            }
        }
        return ShardSet(records: records, work: work, count: count)
    }

    static func refusal(_ message: String, file: URL, hint: String) -> TonightError {
        TonightError(.invalidInput, "merge refused: " + message, file: file.path, hint: hint)
    }

    /// Shard `i`'s part of `stage`, after checking every file against its record (size and
    /// SHA-256, on all cores).
    func checkedPart(_ i: Int, stage: String) throws -> (part: ShardRecord.Part, directory: URL) {
        let url = ShardRecord.url(work: work, shard: try Shard(index: i, count: count))
        guard let part = records[i].parts.first(where: { $0.stage == stage }) else {
            throw Self.refusal("shard \(i) of \(count) has no part of stage \(stage)", file: url, hint: "re-run it: tonight run --shard \(i)/\(count) --force")
        }
        let dir = work.appendingPathComponent(part.directory)
        let outputs = part.outputs
        let problems = try Parallel.map(outputs.count) { k -> String? in
            let file = dir.appendingPathComponent(outputs[k].file)
            guard FileIO.exists(file) else { return "\(outputs[k].file) is missing from \(dir.path)" }
            guard FileIO.size(file) == outputs[k].bytes else {
                return "\(outputs[k].file) has \(FileIO.size(file)) bytes, its success record says \(outputs[k].bytes)"
            }
            let actual = (try? ContentHash.file(file)) ?? "unreadable"
            return actual == outputs[k].sha256 ? nil
                : "\(outputs[k].file) has SHA-256 \(actual.prefix(12))…, its success record says \(outputs[k].sha256.prefix(12))…"
        }
        if let problem = problems.compactMap({ $0 }).first {
            throw Self.refusal("the \(stage) part of shard \(i) of \(count) is corrupt or gone: \(problem)", file: url,
                               hint: "re-run the shard: tonight run --shard \(i)/\(count) --force, then merge again")
        }
        return (part, dir)
    }
}
