import Foundation
import TonightBase

/// The checks of one dataset, in pieces that any core can take: its files (sizes and
/// SHA-256) and its frames in runs of consecutive frames (`FrameStore.frameRuns`), so that a
/// snapshot whose bytes are mostly in one or two datasets still keeps every core busy.
/// `merge` joins the pieces in frame order (the keys at the seams between runs, the counts,
/// the dangling references) into the dataset's report, which is the same for any number of
/// cores.
struct DatasetCheck: Sendable {
    let dataset: SnapshotDataset
    let rules: [ReferenceRule]
    let collectKeys: Bool
    private let scanner: RecordScanner
    /// The NDJSON key index (`open`); nil when it cannot be read (the report says why).
    private(set) var index: KeyIndex?
    /// The runs of frames checked as separate pieces.
    private(set) var runs: [Range<Int>] = []
    private(set) var report = VerificationReport()
    private(set) var keys = KeySet()
    /// References of a phase-1 dataset, checked once all keys are known: (rule, record key, value).
    private var held: [(Int, [UInt8], [UInt8])] = []

    /// The first dangling references of each rule reported one by one; the rest counted.
    static let reportedPerRule = 10
    /// Uncompressed bytes of frames per piece: small enough that the largest dataset makes
    /// dozens of pieces, large enough that a piece's set-up is noise.
    static let runBytes = 8 << 20

    init(dataset: SnapshotDataset, rules: [ReferenceRule], collectKeys: Bool) {
        self.dataset = dataset
        self.rules = rules
        self.collectKeys = collectKeys
        scanner = RecordScanner(rules)
        report.datasets = 1
    }

    /// Reads the key index and splits the frames into runs of about `runBytes` uncompressed
    /// bytes. A dataset whose index cannot be read has no runs (its frames are not checked
    /// against an index it does not have).
    mutating func open(directory: String, runBytes: Int = DatasetCheck.runBytes) {
        let d = dataset
        do {
            index = try d.store.ndjsonIndex(entry: d.entry, directory: directory)
        } catch let e as SnapshotError {
            report.problems.append(e)
            return
        } catch {
            report.problems.append(SnapshotError(file: d.path, "\(error)"))
            return
        }
        let average = d.entry.frames > 0 ? Int(d.entry.uncompressedBytes / Int64(d.entry.frames)) : 1
        runs = d.store.frameRuns(averageFrameBytes: average, bytes: runBytes)
    }

    /// The sizes and SHA-256 of the dataset's files against the manifest.
    func checkFiles(directory: String, sha256: (String) throws -> String) -> VerificationReport {
        var r = VerificationReport()
        for f in dataset.entry.files {
            let path = directory + "/" + f.name
            do {
                let actual = try sha256(path)
                var st = stat()
                let bytes = stat(path, &st) == 0 ? Int64(st.st_size) : -1
                r.bytes += max(bytes, 0)
                if bytes != f.bytes { r.problems.append(SnapshotError(file: path, "size \(bytes), the manifest says \(f.bytes)")) }
                if actual != f.sha256 {
                    r.problems.append(SnapshotError(file: path, "SHA-256 \(actual) differs from the manifest's \(f.sha256)"))
                }
            } catch let e as SnapshotError {
                r.problems.append(e)
            } catch {
                r.problems.append(SnapshotError(file: path, "\(error)"))
            }
        }
        return r
    }

    /// What one run of frames found.
    struct RunResult: Sendable {
        var records = 0
        var references = 0
        var problems: [SnapshotError] = []
        /// The run's first key, when its first frame could be read.
        var firstKey: [UInt8]?
        /// The run's last key, when its last frame was intact.
        var lastKey: [UInt8]?
        /// The keys read (phase 1), one after another, and where each ends.
        var keyBytes: [UInt8] = []
        var keyEnds: [Int] = []
        var held: [(Int, [UInt8], [UInt8])] = []
        /// Dangling references per rule, and the first `reportedPerRule` of each.
        var dangling: [Int]
        var shown: [(Int, [UInt8], [UInt8])] = []
    }

    /// Checks the frames of run `k`: every frame's checksum and record count, every record's
    /// key (a JSON object starting with it, sorted, unique, at its frame's index bounds, of
    /// the manifest's `keyForm`) and,
    /// with rules, the references of every record.
    func checkFrames(run k: Int, targets: [String: KeySet]) -> RunResult {
        var result = RunResult(dangling: Array(repeating: 0, count: rules.count))
        guard let index else { return result }
        // Everything the per-record closures read, as locals: a closure that used `self`
        // copied the whole check (its arrays retained and released) for every record.
        let d = dataset, path = d.path, collect = collectKeys, scanner = scanner, checksReferences = !rules.isEmpty
        let form = d.entry.keyForm
        // Each rule's target keys, looked up once per run, as pointer views (`targets` keeps
        // the sets alive for the whole pass).
        let ruleTargets = rules.map { targets[$0.target]?.lookup }
        // The previous record's key, in a buffer reused for every record (`hasPrevious`
        // false: none, or the last one was refused). Frames and keys are lent, not copied.
        var previous: [UInt8] = []
        var hasPrevious = false
        var firstFrame = true
        // The member names this run's records have met (one run is one thread's).
        let names = RecordScanner.KnownNames()
        do {
            try d.store.scanFrames(in: runs[k]) { i, f, tableFirst in
                defer { firstFrame = false }
                do {
                    guard f.lineCount == index.records[i] else {
                        throw SnapshotError(file: path, "frame \(i) holds \(f.lineCount) records, the index says \(index.records[i])")
                    }
                    for l in 0..<f.lineCount {
                        let line = f.line(l)
                        try Snapshot.withKey(of: line, path: path, frame: i) { key in
                            if firstFrame && l == 0 { result.firstKey = Array(key) }
                            if hasPrevious && previous.withUnsafeBufferPointer({ UTF8Order.compare($0, key) }) >= 0 {
                                throw SnapshotError(file: path, "frame \(i): key '\(SnapshotError.quoted(Array(key)))' out of order or repeated")
                            }
                            if l == 0 && (!index.isFirst(key, of: i) || tableFirst.map { !$0.elementsEqual(key) } ?? false)
                                || l == f.lineCount - 1 && !index.isLast(key, of: i) {
                                throw SnapshotError(file: path, "frame \(i): its keys differ from the index")
                            }
                            if let form, let why = form.problem(with: key) {
                                throw SnapshotError(file: path, "frame \(i): key '\(SnapshotError.quoted(Array(key)))' is \(why)")
                            }
                            previous.removeAll(keepingCapacity: true)
                            previous.append(contentsOf: key)
                            hasPrevious = true
                            result.records += 1
                            if collect {
                                result.keyBytes.append(contentsOf: key)
                                result.keyEnds.append(result.keyBytes.count)
                            }
                            if checksReferences {
                                try Self.references(line, key: key, frame: i, scanner: scanner, names: names, collect: collect, path: path, targets: ruleTargets, into: &result)
                            }
                        }
                    }
                } catch let e as SnapshotError {
                    result.problems.append(e)
                    hasPrevious = false
                }
            }
        } catch let e as SnapshotError {
            // A frame or key table block that cannot be read ends this run.
            result.problems.append(e)
            hasPrevious = false
        } catch {
            result.problems.append(SnapshotError(file: path, "\(error)"))
            hasPrevious = false
        }
        result.lastKey = hasPrevious ? previous : nil
        withExtendedLifetime(targets) {}  // the lookups point into these sets
        return result
    }

    private static func references(
        _ line: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt8>, frame: Int, scanner: RecordScanner, names: RecordScanner.KnownNames,
        collect: Bool, path: String,
        targets: [KeySet.Lookup?], into result: inout RunResult
    ) throws {
        var found: [(Int, [UInt8])] = []
        var count = 0
        do {
            // The closure captures only plain pointers: an array captured by value was retained
            // and released at every step of the walk (a sixth of a verification pass).
            try targets.withUnsafeBufferPointer { targets in
                try scanner.scan(line, names: names) { rule, value in
                    if collect {
                        found.append((rule, Array(value)))
                    } else if let set = targets[rule], !set.contains(value) {
                        found.append((rule, Array(value)))
                    }
                    count += 1
                }
            }
            result.references += count
        } catch {
            throw SnapshotError(file: path, "frame \(frame): record '\(SnapshotError.quoted(Array(key)))' is not valid JSON")
        }
        for (rule, value) in found {
            if collect {
                result.held.append((rule, Array(key), value))
            } else if targets[rule] != nil {
                result.dangling[rule] += 1
                if result.dangling[rule] <= Self.reportedPerRule { result.shown.append((rule, Array(key), value)) }
            }
        }
    }

    /// Joins the file check and the runs (in frame order) into `report`, `keys` and the held
    /// references.
    mutating func merge(files: VerificationReport, runs results: [RunResult]) {
        // The files' problems first (then the index's, from `open`), as a reader meets them.
        let opened = report.problems
        report.problems = []
        report.add(files)
        report.problems += opened
        var dangling = Array(repeating: 0, count: rules.count), shown = dangling
        var previous: [UInt8]? = nil
        for (k, r) in results.enumerated() {
            if let p = previous, let first = r.firstKey, !p.lexicographicallyPrecedes(first) {
                report.problems.append(SnapshotError(
                    file: dataset.path, "frame \(runs[k].lowerBound): key '\(SnapshotError.quoted(first))' out of order or repeated"))
            }
            previous = r.lastKey
            report.records += r.records
            report.references += r.references
            report.problems += r.problems
            // The first few of each rule over all runs are among the runs' own first few.
            for (rule, key, value) in r.shown where shown[rule] < Self.reportedPerRule {
                shown[rule] += 1
                report.problems.append(danglingProblem(rule, key, value))
            }
            for rule in rules.indices { dangling[rule] += r.dangling[rule] }
            if collectKeys {
                r.keyBytes.withUnsafeBufferPointer { b in
                    var start = 0
                    for end in r.keyEnds {
                        keys.insert(UnsafeBufferPointer(rebasing: b[start..<end]))
                        start = end
                    }
                }
            }
            held += r.held
        }
        if report.problems.isEmpty && index != nil && report.records != dataset.entry.records {
            report.problems.append(SnapshotError(file: dataset.path, "\(report.records) records, the manifest says \(dataset.entry.records)"))
        }
        summarize(dangling)
    }

    /// Checks the references held back in phase 1 against every target's keys.
    mutating func checkHeld(targets: [String: KeySet]) -> VerificationReport {
        report = VerificationReport()
        var dangling = Array(repeating: 0, count: rules.count)
        for (rule, key, value) in held {
            guard let set = targets[rules[rule].target] else { continue }
            if value.withUnsafeBufferPointer({ set.contains($0) }) { continue }
            dangling[rule] += 1
            if dangling[rule] <= Self.reportedPerRule { report.problems.append(danglingProblem(rule, key, value)) }
        }
        summarize(dangling)
        held = []
        return report
    }

    private func danglingProblem(_ rule: Int, _ key: [UInt8], _ value: [UInt8]) -> SnapshotError {
        let r = rules[rule]
        return SnapshotError(
            file: dataset.path,
            "dangling reference: dataset \(r.dataset), key '\(SnapshotError.quoted(key))', field \(r.pathText): '\(SnapshotError.quoted(value))' is not a key of \(r.target)",
            code: .danglingReference)
    }

    /// "N more" for each rule with more dangling references than were reported one by one.
    private mutating func summarize(_ dangling: [Int]) {
        for (rule, n) in dangling.enumerated() where n > Self.reportedPerRule {
            let r = rules[rule]
            report.problems.append(SnapshotError(
                file: dataset.path,
                "dangling reference: dataset \(r.dataset), field \(r.pathText): \(n - Self.reportedPerRule) more values are not keys of \(r.target)",
                code: .danglingReference))
        }
    }
}
