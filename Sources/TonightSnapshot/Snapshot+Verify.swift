import TonightBase
import Foundation

/// The outcome of `Snapshot.verify()`.
public struct VerificationReport: Sendable {
    /// Datasets checked.
    public var datasets: Int = 0
    /// Records read.
    public var records: Int = 0
    /// Bytes hashed (dataset and index files).
    public var bytes: Int64 = 0
    /// References checked (with `references: true`).
    public var references: Int = 0
    /// Everything found wrong; empty when the snapshot is intact.
    public var problems: [SnapshotError] = []

    /// Whether nothing was found wrong.
    public var isValid: Bool { problems.isEmpty }

    /// A report (for fakes and for callers that merge reports).
    public init(datasets: Int = 0, records: Int = 0, bytes: Int64 = 0, references: Int = 0, problems: [SnapshotError] = []) {
        self.datasets = datasets
        self.records = records
        self.bytes = bytes
        self.references = references
        self.problems = problems
    }

    mutating func add(_ other: VerificationReport) {
        datasets += other.datasets
        records += other.records
        bytes += other.bytes
        references += other.references
        problems += other.problems
    }
}

extension Snapshot {
    /// Checks everything: every file's size and SHA-256 against the manifest, every frame's
    /// checksum, every record's key (present, sorted, unique, within its frame's index
    /// range) and every count. With `references`, also that every id a record points at
    /// (`ReferenceRule.standard`) is a key of its target dataset in this snapshot. The work is
    /// spread over all cores in pieces (each dataset's files, runs of its frames); frames are
    /// read once.
    ///
    /// - Parameters:
    ///   - references: also check every reference between datasets.
    ///   - sha256: computes a file's SHA-256 as lower-case hex (default: this library's own
    ///     implementation; a caller with a faster one, e.g. swift-crypto's, may pass it).
    public func verify(references: Bool = false, sha256: (@Sendable (String) throws -> String)? = nil) -> VerificationReport {
        verify(references: references, sha256: sha256, runBytes: DatasetCheck.runBytes)
    }

    /// `verify(references:sha256:)` with frames checked in runs of about `runBytes`
    /// uncompressed bytes (the report is the same for any value; tests vary it).
    func verify(references: Bool, sha256: (@Sendable (String) throws -> String)?, runBytes: Int) -> VerificationReport {
        let hash: @Sendable (String) throws -> String = sha256 ?? { try SHA256.file($0) }
        let rules = references ? ReferenceRule.standard.filter { datasets[$0.dataset] != nil } : []
        let targets = Set(rules.map(\.target))
        var report = VerificationReport()
        for name in unavailable.keys.sorted() {
            report.datasets += 1
            report.problems.append(unavailable[name]!)
        }
        for rule in rules where datasets[rule.target] == nil && unavailable[rule.target] == nil {
            report.problems.append(SnapshotError(
                file: directory.path, "dataset \(rule.dataset) points at \(rule.target), which this snapshot lacks"))
        }
        // Phase 1: the datasets others point at, collecting their keys (and their own
        // references, checked once every key is known).
        let first = datasets.keys.filter { targets.contains($0) }.sorted().map { name in
            DatasetCheck(dataset: datasets[name]!, rules: rules.filter { $0.dataset == name }, collectKeys: true)
        }
        let results = check(first, targets: [:], sha256: hash, runBytes: runBytes)
        var keys: [String: KeySet] = [:]
        for c in results {
            keys[c.dataset.name] = c.keys
            report.add(c.report)
        }
        for var c in results { report.add(c.checkHeld(targets: keys)) }
        // Phase 2: every other dataset, its references checked as its frames are read.
        let second = datasets.keys.filter { !targets.contains($0) }.sorted().map { name in
            DatasetCheck(dataset: datasets[name]!, rules: rules.filter { $0.dataset == name }, collectKeys: false)
        }
        for c in check(second, targets: keys, sha256: hash, runBytes: runBytes) { report.add(c.report) }
        return report
    }

    /// `verify()` of one dataset (its files, frames, keys and counts; no references).
    public func verify(dataset name: String) -> VerificationReport {
        if let problem = unavailable[name] { return VerificationReport(datasets: 1, problems: [problem]) }
        guard let d = datasets[name] else {
            return VerificationReport(problems: [SnapshotError(file: directory.path, "no dataset '\(SnapshotError.quoted(name))' in snapshot \(id)", code: .missing)])
        }
        return check([DatasetCheck(dataset: d, rules: [], collectKeys: false)], targets: [:], sha256: { try SHA256.file($0) },
                     runBytes: DatasetCheck.runBytes)[0].report
    }

    /// Runs `checks` on all cores: their indexes are read, then every piece (a dataset's
    /// files, a run of its frames) is taken by the next free core, largest datasets' pieces
    /// first; the pieces are merged per dataset in frame order.
    func check(
        _ checks: [DatasetCheck], targets: [String: KeySet], sha256: @escaping @Sendable (String) throws -> String, runBytes: Int
    ) -> [DatasetCheck] {
        let dir = directory.path
        let opened = (try? Parallel.map(checks.count) { k -> DatasetCheck in
            var c = checks[k]
            c.open(directory: dir, runBytes: runBytes)
            return c
        }) ?? checks
        enum Piece: Sendable {
            case files(Int)
            case frames(Int, run: Int)
        }
        // Biggest datasets first, so that the last pieces to finish are small ones.
        let order = opened.indices.sorted { opened[$0].dataset.entry.uncompressedBytes > opened[$1].dataset.entry.uncompressedBytes }
        let pieces: [Piece] = order.map { .files($0) } + order.flatMap { k in opened[k].runs.indices.map { .frames(k, run: $0) } }
        enum Outcome: Sendable {
            case files(VerificationReport)
            case frames(DatasetCheck.RunResult)
        }
        let outcomes = (try? Parallel.map(pieces.count) { p -> Outcome in
            switch pieces[p] {
            case .files(let k): .files(opened[k].checkFiles(directory: dir, sha256: sha256))
            case .frames(let k, let run): .frames(opened[k].checkFrames(run: run, targets: targets))
            }
        }) ?? []
        var files = [VerificationReport](repeating: VerificationReport(), count: opened.count)
        var runs = opened.map { [DatasetCheck.RunResult?](repeating: nil, count: $0.runs.count) }
        for (p, outcome) in zip(pieces, outcomes) {
            switch (p, outcome) {
            case (.files(let k), .files(let r)): files[k] = r
            case (.frames(let k, let run), .frames(let r)): runs[k][run] = r
            default: break
            }
        }
        return opened.indices.map { k in
            var c = opened[k]
            c.merge(files: files[k], runs: runs[k].compactMap { $0 })
            return c
        }
    }

    /// The raw key of a record line (`{"key":"…",…}`), checking the line is a JSON object.
    static func key(of line: UnsafeBufferPointer<UInt8>, path: String, frame: Int) throws -> [UInt8] {
        let prefix = #"{"key":"#.utf8
        guard line.count > prefix.count + 1, JSONKey.startsRecord(line), line.last == UInt8(ascii: "}") else {
            throw SnapshotError(file: path, "frame \(frame): a record that is not a JSON object starting with its key")
        }
        guard let (key, _) = JSONKey.decode(line, at: prefix.count) else {
            throw SnapshotError(file: path, "frame \(frame): malformed key")
        }
        return key
    }

    /// `key(of:)` lent to `body` without a copy when the key has no escapes (every key this
    /// project writes): `verify` reads three million of them. Inlined, so that the
    /// caller's closure is too (called through a context, it retained what it captured for
    /// every record).
    @inline(__always)
    static func withKey<R>(
        of line: UnsafeBufferPointer<UInt8>, path: String, frame: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) throws -> R {
        let prefix = #"{"key":"#.utf8
        guard line.count > prefix.count + 1, JSONKey.startsRecord(line), line.last == UInt8(ascii: "}") else {
            throw SnapshotError(file: path, "frame \(frame): a record that is not a JSON object starting with its key")
        }
        if let p = JSONKey.plain(line, at: prefix.count) { return try body(UnsafeBufferPointer(rebasing: line[p.contents])) }
        return try key(of: line, path: path, frame: frame).withUnsafeBufferPointer { try body($0) }
    }
}
