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
    /// (`ReferenceRule.standard`) is a key of its target dataset in this snapshot. Datasets
    /// are checked on all cores; frames are read once.
    ///
    /// - Parameters:
    ///   - references: also check every reference between datasets.
    ///   - sha256: computes a file's SHA-256 as lower-case hex (default: this library's own
    ///     implementation; a caller with a faster one, e.g. swift-crypto's, may pass it).
    public func verify(references: Bool = false, sha256: (@Sendable (String) throws -> String)? = nil) -> VerificationReport {
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
        let first = datasets.keys.filter { targets.contains($0) }.sorted()
        let results = Self.concurrently(first) { name in
            var check = DatasetCheck(dataset: datasets[name]!, rules: rules.filter { $0.dataset == name }, collectKeys: true)
            check.run(directory: directory.path, targets: [:], sha256: hash)
            return check
        }
        var keys: [String: KeySet] = [:]
        for c in results {
            keys[c.dataset.name] = c.keys
            report.add(c.report)
        }
        for var c in results { report.add(c.checkHeld(targets: keys)) }
        // Phase 2: every other dataset, its references checked as its frames are read.
        let second = datasets.keys.filter { !targets.contains($0) }.sorted()
        let allKeys = keys
        for c in Self.concurrently(second, { name in
            var check = DatasetCheck(dataset: datasets[name]!, rules: rules.filter { $0.dataset == name }, collectKeys: false)
            check.run(directory: directory.path, targets: allKeys, sha256: hash)
            return check
        }) {
            report.add(c.report)
        }
        return report
    }

    /// `verify()` of one dataset (its files, frames, keys and counts; no references).
    public func verify(dataset name: String) -> VerificationReport {
        if let problem = unavailable[name] { return VerificationReport(datasets: 1, problems: [problem]) }
        guard let d = datasets[name] else {
            return VerificationReport(problems: [SnapshotError(file: directory.path, "no dataset '\(name)' in snapshot \(id)", code: .missing)])
        }
        var check = DatasetCheck(dataset: d, rules: [], collectKeys: false)
        check.run(directory: directory.path, targets: [:], sha256: { try SHA256.file($0) })
        return check.report
    }

    /// `body` for every name, on all cores, results in order.
    static func concurrently<T: Sendable>(_ names: [String], _ body: @Sendable (String) -> T) -> [T] {
        (try? Parallel.map(names.count) { body(names[$0]) }) ?? []
    }

    /// The raw key of a record line (`{"key":"…",…}`), checking the line is a JSON object.
    static func key(of line: UnsafeBufferPointer<UInt8>, path: String, frame: Int) throws -> [UInt8] {
        let prefix = #"{"key":"#.utf8
        guard line.count > prefix.count + 1, line.starts(with: prefix), line.last == UInt8(ascii: "}") else {
            throw SnapshotError(file: path, "frame \(frame): a record that is not a JSON object starting with its key")
        }
        guard let (key, _) = JSONKey.decode(line, at: prefix.count) else {
            throw SnapshotError(file: path, "frame \(frame): malformed key")
        }
        return key
    }
}

/// The checks of one dataset: files, frames, keys and, when asked, references.
struct DatasetCheck: Sendable {
    let dataset: SnapshotDataset
    let rules: [ReferenceRule]
    let collectKeys: Bool
    private let scanner: RecordScanner
    private(set) var report = VerificationReport()
    private(set) var keys = KeySet()
    /// References of a phase-1 dataset, checked once all keys are known: (rule, record key, value).
    private var held: [(Int, [UInt8], [UInt8])] = []
    /// Dangling references per rule (the first few are reported in full).
    private var dangling: [Int]

    /// The first dangling references of each rule reported one by one; the rest counted.
    static let reportedPerRule = 10

    init(dataset: SnapshotDataset, rules: [ReferenceRule], collectKeys: Bool) {
        self.dataset = dataset
        self.rules = rules
        self.collectKeys = collectKeys
        scanner = RecordScanner(rules)
        dangling = Array(repeating: 0, count: rules.count)
    }

    mutating func run(directory: String, targets: [String: KeySet], sha256: (String) throws -> String) {
        let d = dataset
        report.datasets = 1
        for f in d.entry.files {
            let (file, size, sum) = (f.name, f.bytes, f.sha256)
            let path = directory + "/" + file
            do {
                let actual = try sha256(path)
                var st = stat()
                let bytes = stat(path, &st) == 0 ? Int64(st.st_size) : -1
                report.bytes += max(bytes, 0)
                if bytes != size { report.problems.append(SnapshotError(file: path, "size \(bytes), the manifest says \(size)")) }
                if actual != sum {
                    report.problems.append(SnapshotError(file: path, "SHA-256 \(actual) differs from the manifest's \(sum)"))
                }
            } catch let e as SnapshotError {
                report.problems.append(e)
            } catch {
                report.problems.append(SnapshotError(file: path, "\(error)"))
            }
        }
        let index: KeyIndex
        do {
            index = try d.store.ndjsonIndex(entry: d.entry, directory: directory)
        } catch let e as SnapshotError {
            report.problems.append(e)
            return
        } catch {
            report.problems.append(SnapshotError(file: d.path, "\(error)"))
            return
        }
        var previous: [UInt8]? = nil
        // Each rule's target keys, looked up once (not once per reference), as pointer views
        // (`targets` keeps the sets alive for the whole pass).
        let ruleTargets = rules.map { targets[$0.target]?.lookup }
        let path = d.path
        do {
            try d.store.forEachFrame { i, f, tableFirst in
                do {
                    guard f.lineCount == index.records[i] else {
                        throw SnapshotError(file: path, "frame \(i) holds \(f.lineCount) records, the index says \(index.records[i])")
                    }
                    try f.bytes.withUnsafeBufferPointer { all in
                        for l in 0..<f.lineCount {
                            let r = f.lineRange(l)
                            let line = UnsafeBufferPointer(rebasing: all[r])
                            let key = try Snapshot.key(of: line, path: path, frame: i)
                            if let p = previous, !p.lexicographicallyPrecedes(key) {
                                throw SnapshotError(file: path, "frame \(i): key '\(SnapshotError.quoted(key))' out of order or repeated")
                            }
                            if l == 0 && (!index.isFirst(key, of: i) || tableFirst.map { $0 != key } ?? false)
                                || l == f.lineCount - 1 && !index.isLast(key, of: i) {
                                throw SnapshotError(file: path, "frame \(i): its keys differ from the index")
                            }
                            previous = key
                            report.records += 1
                            if collectKeys { keys.insert(key) }
                            if !rules.isEmpty { try references(line, key: key, frame: i, targets: ruleTargets) }
                        }
                    }
                } catch let e as SnapshotError {
                    report.problems.append(e)
                    previous = nil
                }
            }
        } catch let e as SnapshotError {
            // A frame or key table block that cannot be read ends the pass over this dataset.
            report.problems.append(e)
        } catch {
            report.problems.append(SnapshotError(file: path, "\(error)"))
        }
        if report.problems.isEmpty && report.records != d.entry.records {
            report.problems.append(SnapshotError(file: d.path, "\(report.records) records, the manifest says \(d.entry.records)"))
        }
        withExtendedLifetime(targets) {}  // the lookups point into these sets
        summarizeDangling()
    }

    private mutating func references(_ line: UnsafeBufferPointer<UInt8>, key: [UInt8], frame: Int, targets: [KeySet.Lookup?]) throws {
        var found: [(Int, [UInt8])] = []
        var count = 0
        let collect = collectKeys
        do {
            // The closure captures only plain pointers: an array captured by value was retained
            // and released at every step of the walk (a sixth of a verification pass).
            try targets.withUnsafeBufferPointer { targets in
                try scanner.scan(line) { rule, value in
                    if collect {
                        found.append((rule, Array(value)))
                    } else if let set = targets[rule], !set.contains(value) {
                        found.append((rule, Array(value)))
                    }
                    count += 1
                }
            }
            report.references += count
        } catch {
            throw SnapshotError(file: dataset.path, "frame \(frame): record '\(SnapshotError.quoted(key))' is not valid JSON")
        }
        for (rule, value) in found {
            if collectKeys { held.append((rule, key, value)) } else if targets[rule] != nil { noteDangling(rule, key, value) }
        }
    }

    private mutating func noteDangling(_ rule: Int, _ key: [UInt8], _ value: [UInt8]) {
        dangling[rule] += 1
        guard dangling[rule] <= Self.reportedPerRule else { return }
        let r = rules[rule]
        report.problems.append(SnapshotError(
            file: dataset.path,
            "dangling reference: dataset \(r.dataset), key '\(SnapshotError.quoted(key))', field \(r.pathText): '\(SnapshotError.quoted(value))' is not a key of \(r.target)",
            code: .danglingReference))
    }

    private mutating func summarizeDangling() {
        for (rule, n) in dangling.enumerated() where n > Self.reportedPerRule {
            let r = rules[rule]
            report.problems.append(SnapshotError(
                file: dataset.path,
                "dangling reference: dataset \(r.dataset), field \(r.pathText): \(n - Self.reportedPerRule) more values are not keys of \(r.target)",
                code: .danglingReference))
        }
    }

    /// Checks the references held back in phase 1 against every target's keys.
    mutating func checkHeld(targets: [String: KeySet]) -> VerificationReport {
        report = VerificationReport()
        dangling = Array(repeating: 0, count: rules.count)
        for (rule, key, value) in held {
            guard let set = targets[rules[rule].target] else { continue }
            let ok = value.withUnsafeBufferPointer { set.contains($0) }
            if !ok { noteDangling(rule, key, value) }
        }
        summarizeDangling()
        held = []
        return report
    }
}
