import Foundation
import Logging
import TonightBase
import TonightCore
import TonightGeo
import TonightSnapshot

/// Plans and runs the stage graph: fingerprints, reuse of earlier outputs, run directories
/// written through temporary names and renames, `stage.json`, the lock, report and metrics.
///
/// Stages run on threads of their own (`StageSchedule`). What they read of the runner is
/// constant once the plan is made (`buildIdentity`, `timeZoneDatabase` and `shardSet` are set
/// while planning, before any stage starts) or locked (`stagesRunning`, the progress line,
/// the logger); hence `@unchecked Sendable`.
package final class StageRunner: @unchecked Sendable {
    let graph: StageGraph
    let config: TonightConfig
    let options: RunOptions
    let logger: Logger
    let progress: ProgressReporter
    let store: RunStore
    let hashes: FileHashCache
    /// What code this run is (tests set a fake one to see what a rebuild recomputes).
    package var buildIdentity: BuildIdentity
    /// The time zone database (nil: the system's, located on first use; tests set their own).
    package var timeZoneDatabase: TimeZoneDatabase?
    /// A merge's checked success records (set when the merge's run starts).
    var shardSet: ShardSet?
    /// `timeZoneFingerprint`'s answer (set while planning; read on the scheduling thread).
    private var timeZoneHash: (directory: URL, hash: String)?
    /// Stages running now (their peak-memory window; `enterMemoryWindow`).
    let stagesRunning = Locked(0)
    /// Hashes the stages computed of their inputs while they ran, for the hash cache
    /// (`rememberHashedWhileRunning`).
    let hashedWhileRunning = Locked<[HashedWhileRunning]>([])

    package init(graph: StageGraph = .standard, config: TonightConfig, options: RunOptions, logger: Logger,
                 progress: ProgressReporter = ProgressReporter()) {
        self.graph = graph
        self.config = config
        self.options = options
        self.logger = logger
        self.progress = progress
        store = RunStore(work: options.work)
        hashes = FileHashCache(work: options.work)
        buildIdentity = BuildIdentity.of(cache: hashes)
    }

    /// The fingerprint of the time zone database's files for the bundled table's zones,
    /// computed once for the run (~15 ms: the table's zone names are read from it): a stage
    /// described again when it starts (`settled`) takes the plan's.
    func timeZoneFingerprint(_ db: TimeZoneDatabase) throws -> String {
        if let known = timeZoneHash, known.directory == db.directory { return known.hash }
        guard let table = GeoTable.bundledURL else {
            throw TonightError(.internal, "bundled geotable.tsv.zst is missing from the package resources")
        }
        let hash = try db.fingerprint(zones: try GeoTable.zoneNames(table))
        timeZoneHash = (db.directory, hash)
        return hash
    }

    /// The system's time zone database, located once (exit 74 naming the package when missing).
    func timeZones() throws -> TimeZoneDatabase {
        if let db = timeZoneDatabase { return db }
        let db = try TimeZoneDatabase.system()
        timeZoneDatabase = db
        return db
    }

    /// The previous night's snapshot: the newest published one whose run date is before this
    /// run's and whose `events` dataset verifies. A damaged candidate is skipped with a
    /// warning (the next older valid one is used); nil when there is none.
    ///
    /// A snapshot an operator rolled back from (`RollbackLog`) was withdrawn: its services
    /// were switched back to an earlier one, so it is not what the users last saw, and alerts
    /// against it would announce as changes the very data that was withdrawn. It is skipped,
    /// and so is any snapshot published after `CURRENT` (withdrawn, or never made current by a
    /// publish that died before the switch).
    func previousNight(for stage: String) throws -> (id: String, contentHash: String, url: URL)? {
        let root = options.out.appendingPathComponent("snapshots")
        let directory = SnapshotDirectory(root: root)
        let runDate = CivilTime.formatDate(days: options.date)
        let current = (try? directory.checkedCurrentID()) ?? nil
        let withdrawn = RollbackLog(root: root).withdrawn(current: current)
        var candidates: [(manifest: SnapshotManifest, id: String)] = []
        for id in directory.snapshotIDs() {
            if withdrawn[id] != nil || current.map({ id > $0 }) == true {
                logger.info("\(stage): snapshot \(id) was \(withdrawn[id] != nil ? "rolled back from" : "never made current") (CURRENT is \(current ?? "-")); not an alerts baseline")
                continue
            }
            guard let m = try? directory.manifest(id) else {
                logger.warning("\(stage): snapshot \(id) has an unreadable manifest; not an alerts baseline")
                continue
            }
            if m.date < runDate { candidates.append((m, id)) }
        }
        candidates.sort { ($0.manifest.asOf, $0.id) > ($1.manifest.asOf, $1.id) }
        for (m, id) in candidates {
            let report = (try? Snapshot.open(id: id, in: root, cacheBytes: 0).verify(dataset: "events"))
                ?? VerificationReport(problems: [SnapshotError(file: root.appendingPathComponent(id).path, "cannot be opened")])
            if report.isValid { return (id, m.contentHash, root.appendingPathComponent(id)) }
            logger.warning("\(stage): snapshot \(id) is damaged (\(report.problems.first?.message ?? "?")); the next older one is the alerts baseline")
        }
        return nil
    }

    // MARK: planning

    /// The selected stages: all, `--only`, or `--from` and everything downstream.
    func selection() throws -> Set<String> {
        if options.shard != nil {
            // A shard runs the per-user stages and what they read; catalog and publish are
            // the merge's.
            guard options.only.isEmpty, options.from == nil else {
                throw TonightError(.usage, "--shard runs the per-user stages and what they read; it takes no --only or --from",
                                   hint: "re-run the shard as a whole (its shared stages are reused)")
            }
            var selected = Set(graph.stages.filter(\.isPerUser).map(\.name))
            for stage in graph.stages.reversed() where selected.contains(stage.name) { selected.formUnion(stage.upstreamStages) }
            return selected
        }
        if !options.only.isEmpty {
            for n in options.only { _ = try graph.stage(n) }
            return Set(options.only)
        }
        if let from = options.from {
            _ = try graph.stage(from)
            return graph.downstream(of: from)
        }
        return Set(graph.stages.map(\.name))
    }

    /// The files among a stage's inputs that `describe` hashes (those present).
    func inputFiles(_ stage: any Stage) -> [URL] {
        stage.inputs.flatMap { input -> [URL] in
            switch input {
            case .file(_, let candidates, _):
                return candidates.map { options.inputs.appendingPathComponent($0) }.filter(FileIO.exists)
            case .directory(_, let path):
                let dir = options.inputs.appendingPathComponent(path)
                return FileIO.list(dir).filter { $0.hasSuffix(".csv") }.map { dir.appendingPathComponent($0) }
            case .stage, .previousNight, .timeZoneDatabase:
                return []
            }
        }
    }

    /// Resolves a stage's inputs and computes its fingerprint record (nothing is run).
    /// The file inputs whose roles are in `deferring` are not hashed: their hash is
    /// `pendingHash` until the stage has run (`StageRunner+HashWhileRunning`).
    func describe(_ stage: any Stage, upstream: [String: String], deferring: Set<String> = []) throws -> StageRecord {
        var inputs: [StageRecord.Input] = []
        for input in stage.inputs {
            switch input {
            case .file(let role, let candidates, let optional):
                let present = candidates.map { options.inputs.appendingPathComponent($0) }.filter(FileIO.exists)
                if present.count > 1 {
                    // Yesterday's plain feed beside today's compressed one: never guess.
                    throw TonightError(
                        .invalidInput, "input '\(role)' has \(present.count) candidates: \(present.map(\.lastPathComponent).joined(separator: " and "))",
                        file: options.inputs.path, stage: stage.name, hint: "keep exactly one of them in the inputs directory")
                }
                if let url = present.first, deferring.contains(role) {
                    let bytes = try hashes.identify(url)
                    inputs.append(.init(role: role, kind: "file", path: url.path, bytes: bytes, hash: Self.pendingHash))
                } else if let url = present.first {
                    let (h, bytes) = try hashes.hash(url)
                    inputs.append(.init(role: role, kind: "file", path: url.path, bytes: bytes, hash: h))
                } else if optional {
                    inputs.append(.init(role: role, kind: "file", path: nil, bytes: nil, hash: "absent"))
                } else {
                    // Files that are probably it (`Feed.xml`, `feed-20261128.xml`, `feed.xml.bz2`).
                    let near = FileIO.lookalikes(of: candidates[0], in: options.inputs)
                    throw TonightError(
                        .usage, "input '\(role)' not found (looked for \(candidates.joined(separator: ", ")))"
                            + (near.isEmpty ? "" : "; found instead: " + near.prefix(5).map { "'\(TonightError.quoted($0))'" }.joined(separator: ", ")),
                        file: options.inputs.path, stage: stage.name,
                        hint: near.isEmpty ? "check --inputs or paths.inputs" : "give the file one of the names looked for (the job reads no other)")
                }
            case .directory(let role, let path):
                let dir = options.inputs.appendingPathComponent(path)
                let files = FileIO.list(dir).filter { $0.hasSuffix(".csv") }
                var combined: [String] = []
                var total: Int64 = 0
                var each: [StageRecord.Input] = []
                for f in files {
                    let (h, bytes) = try hashes.hash(dir.appendingPathComponent(f))
                    combined.append("\(f)=\(h)")
                    total += bytes
                    each.append(.init(role: "\(role)/\(f)", kind: "file", path: dir.appendingPathComponent(f).path,
                                      bytes: bytes, hash: h))
                }
                inputs.append(.init(role: role, kind: "directory", path: dir.path, bytes: total,
                                    hash: ContentHash.hex(combined.joined(separator: "\n")), files: each))
            case .stage(let name):
                inputs.append(.init(role: name, kind: "stage", path: nil, bytes: nil, hash: upstream[name] ?? "?"))
            case .previousNight:
                let baseline = try previousNight(for: stage.name)
                inputs.append(.init(role: "baseline", kind: "snapshot", path: baseline?.url.path, bytes: nil,
                                    hash: baseline.map { "\($0.id) \($0.contentHash)" } ?? "none"))
            case .timeZoneDatabase:
                let db = try timeZones()
                let hash = try timeZoneFingerprint(db)
                inputs.append(.init(role: "tzdata", kind: "tzdata", path: db.directory.path, bytes: nil, hash: hash,
                                    version: db.version))
            }
        }
        let code = buildIdentity.codeVersion(using: stage.bundledData)
        let cfg = config.canonical(stage.configKeys)
        let asOf = stage.readsAsOf ? CivilTime.formatUTC(options.asOf) + "/" + CivilTime.formatDate(days: options.date) : nil
        var record = StageRecord(
            stage: stage.name, status: "planned", runId: "", fingerprint: "", codeVersion: code,
            config: cfg, asOf: asOf, inputs: inputs)
        // A shard's output of a per-user stage is a different output (its users only).
        if stage.isPerUser, let shard = options.shard { record.shard = shard.description }
        record.fingerprint = Self.fingerprint(of: record)
        return record
    }

    /// The fingerprint of a planned record: its stage, code version, settings, inputs (upstream
    /// fingerprints among them), run instant and, for a shard's per-user stage, the shard.
    static func fingerprint(of r: StageRecord) -> String {
        var text = "stage=\(r.stage)\ncode=\(r.codeVersion)\n"
        for k in r.config.keys.sorted() { text += "config \(k)=\(r.config[k]!)\n" }
        for i in r.inputs { text += "input \(i.role) \(i.kind)=\(i.hash)\n" }
        if let asOf = r.asOf { text += "asOf=\(asOf)\n" }
        if let shard = r.shard { text += "shard=\(shard)\n" }
        return ContentHash.hex(text)
    }

    /// The plan: for every stage, run or reuse, and why.
    package func plan() throws -> [PlanEntry] {
        let selected = try selection()
        // The selected stages and everything they read from; stages downstream of the
        // selection are not part of this run.
        var needed = selected
        for stage in graph.stages.reversed() where needed.contains(stage.name) {
            needed.formUnion(stage.upstreamStages)
        }
        // A new night's file that a stage of the selection reads, and that no earlier output
        // of it read, is hashed while that stage runs. Every other input file the plan
        // fingerprints is hashed on every core before the stages are described one by one.
        let deferring = deferrableInputs(selected: selected, needed: needed)
        let later = Set(deferring.values.flatMap { $0 }.map(\.url.standardizedFileURL))
        try hashes.prefetch(graph.stages.filter { needed.contains($0.name) }.flatMap(inputFiles)
            .filter { !later.contains($0.standardizedFileURL) })
        var fingerprints: [String: String] = [:]
        var provisional: Set<String> = []
        var entries: [PlanEntry] = []
        for stage in graph.stages where needed.contains(stage.name) {
            let mine = deferring[stage.name] ?? []
            let record = try describe(stage, upstream: fingerprints, deferring: Set(mine.map(\.role)))
            fingerprints[stage.name] = record.fingerprint
            if !mine.isEmpty || stage.upstreamStages.contains(where: provisional.contains) { provisional.insert(stage.name) }
            // A provisional fingerprint is of a pending hash: no earlier output has it.
            let reusable = provisional.contains(stage.name) ? nil : store.findOutput(stage: stage.name, fingerprint: record.fingerprint)
            var entry = PlanEntry(stage: stage.name, action: .run, reason: "", fingerprint: record.fingerprint,
                                  reuseDirectory: nil, reuseRun: nil, record: record)
            entry.deferred = mine.map(\.role).sorted()
            entry.provisional = provisional.contains(stage.name)
            // The files hashed for the fingerprint, as they were hashed.
            entry.watched = InputWatch(record.inputs) { hashes.answered[URL(fileURLWithPath: $0).standardizedFileURL.path] }
            // A shard's --force ranks its users again and a merge's merges again; neither
            // recomputes the shared stages (`tonight run --only … --force` does).
            let sharded = options.mergeShards != nil || options.shard != nil
            if selected.contains(stage.name) && options.force && (!sharded || stage.isPerUser) {
                entry.reason = "forced (--force)"
            } else if stage.alwaysRuns {
                entry.reason = "runs on every run"
            } else if let (dir, run) = reusable {
                entry.action = .reuse
                entry.reuseDirectory = dir
                entry.reuseRun = run
                entry.reason = "unchanged: fingerprint \(record.fingerprint.prefix(12)) matches the output of run \(run)"
            } else if !selected.contains(stage.name) {
                throw TonightError(
                    .usage,
                    "stage \(stage.name) is not selected but has no up-to-date output (\(changeReason(record)))",
                    stage: stage.name, hint: "add it with --only \(stage.name) or start earlier with --from")
            } else {
                entry.reason = changeReason(record)
            }
            if let n = options.mergeShards, entry.action == .run, stage.isPerUser {
                entry.reason = "merged from the parts of \(n) shard(s) (\(entry.reason))"
            }
            entries.append(entry)
        }
        return entries
    }

    /// Why a stage's fingerprint matches no earlier output: the differences from the
    /// latest earlier record of the same stage.
    func changeReason(_ r: StageRecord) -> String {
        guard let last = store.latestRecord(stage: r.stage) else { return "no earlier output" }
        var why: [String] = []
        if last.codeVersion != r.codeVersion {
            let build = { (v: String) in v.split(separator: " ").dropFirst(2).first.map(String.init) ?? v }
            if build(last.codeVersion) != build(r.codeVersion) {
                why.append("code changed (build \(build(last.codeVersion).prefix(12)) → \(build(r.codeVersion).prefix(12)))")
            } else {
                why.append("bundled data changed (\(last.codeVersion) → \(r.codeVersion))")
            }
        }
        for k in Set(last.config.keys).union(r.config.keys).sorted() where last.config[k] != r.config[k] {
            why.append("setting \(k) \(last.config[k] ?? "unset") → \(r.config[k] ?? "unset")")
        }
        let old = Dictionary(last.inputs.map { ($0.role, $0) }, uniquingKeysWith: { a, _ in a })
        for i in r.inputs {
            guard let o = old[i.role] else {
                why.append("new input \(i.role)")
                continue
            }
            if i.hash == Self.pendingHash {
                why.append("input \(i.role) changed (\(i.bytes ?? 0) bytes, a size no earlier output read; hashed while the stage runs)")
            } else if o.hash != i.hash {
                switch i.kind {
                case "stage": why.append("upstream \(i.role) changed")
                case "snapshot": why.append("alerts baseline \(o.hash.prefix(25)) → \(i.hash.prefix(25))")
                case "tzdata": why.append("time zone database \(o.version ?? "?") → \(i.version ?? "?") (zone files changed)")
                default: why.append("input \(i.role) changed (sha256 \(o.hash.prefix(8))… → \(i.hash.prefix(8))…)")
                }
            }
        }
        if last.asOf != r.asOf { why.append("as-of \(last.asOf ?? "-") → \(r.asOf ?? "-")") }
        if last.shard != r.shard { why.append("shard \(last.shard ?? "all users") → \(r.shard ?? "all users")") }
        return why.isEmpty ? "no reusable output (last one incomplete or removed)" : why.joined(separator: "; ")
    }
}
