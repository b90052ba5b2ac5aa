import Foundation

/// The outcome of `Snapshot.verify()`.
public struct VerificationReport: Sendable {
    /// Datasets checked.
    public var datasets: Int = 0
    /// Records read.
    public var records: Int = 0
    /// Bytes hashed (dataset and index files).
    public var bytes: Int64 = 0
    /// Everything found wrong; empty when the snapshot is intact.
    public var problems: [SnapshotError] = []

    /// Whether nothing was found wrong.
    public var isValid: Bool { problems.isEmpty }
}

extension Snapshot {
    /// Checks everything: every file's size and SHA-256 against the manifest, every frame's
    /// checksum, every record's key (present, sorted, unique, within its frame's index
    /// range) and every count. Datasets are checked on all cores.
    public func verify() -> VerificationReport {
        let names = datasets.keys.sorted()
        let results = VerifyResults(names.count)
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            results.set(i, Self.verify(datasets[names[i]]!, directory: directory.path))
        }
        var report = VerificationReport()
        for r in results.values {
            report.datasets += 1
            report.records += r.records
            report.bytes += r.bytes
            report.problems += r.problems
        }
        return report
    }

    private static func verify(_ d: SnapshotDataset, directory: String) -> VerificationReport {
        var report = VerificationReport()
        for (file, size, sum) in [(d.entry.file, d.entry.bytes, d.entry.sha256),
                                  (d.entry.index, d.entry.indexBytes, d.entry.indexSha256)] {
            let path = directory + "/" + file
            do {
                let actual = try SHA256.file(path)
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
        var previous: [UInt8]? = nil
        for i in 0..<d.file.frames.count {
            do {
                let f = DecodedFrame(try d.file.frame(i))
                guard f.lineCount == d.index.records[i] else {
                    throw SnapshotError(file: d.file.path, "frame \(i) holds \(f.lineCount) records, the index says \(d.index.records[i])")
                }
                for l in 0..<f.lineCount {
                    let line = f.line(l)
                    let key = try Self.key(of: line, path: d.file.path, frame: i)
                    if let p = previous, !p.lexicographicallyPrecedes(key) {
                        throw SnapshotError(file: d.file.path, "frame \(i): key '\(String(decoding: key, as: UTF8.self))' out of order or repeated")
                    }
                    if l == 0 && key != Array(d.index.first(i).utf8) || l == f.lineCount - 1 && key != Array(d.index.last(i).utf8) {
                        throw SnapshotError(file: d.file.path, "frame \(i): its keys differ from the index")
                    }
                    previous = key
                    report.records += 1
                }
            } catch let e as SnapshotError {
                report.problems.append(e)
                previous = nil
            } catch {
                report.problems.append(SnapshotError(file: d.file.path, "frame \(i): \(error)"))
            }
        }
        if report.problems.isEmpty && report.records != d.entry.records {
            report.problems.append(SnapshotError(file: d.file.path, "\(report.records) records, the manifest says \(d.entry.records)"))
        }
        return report
    }

    /// The raw key of a record line (`{"key":"…",…}`), checking the line is a JSON object.
    static func key(of line: ArraySlice<UInt8>, path: String, frame: Int) throws -> [UInt8] {
        let prefix = Array(#"{"key":"#.utf8)
        guard line.starts(with: prefix), line.last == UInt8(ascii: "}") else {
            throw SnapshotError(file: path, "frame \(frame): a record that is not a JSON object starting with its key")
        }
        let decoded = Array(line).withUnsafeBufferPointer { JSONKey.decode($0, at: prefix.count) }
        guard let (key, _) = decoded else { throw SnapshotError(file: path, "frame \(frame): malformed key") }
        return key
    }
}

private final class VerifyResults: @unchecked Sendable {
    private let lock = NSLock()
    var values: [VerificationReport]
    init(_ n: Int) { values = Array(repeating: VerificationReport(), count: n) }
    func set(_ i: Int, _ v: VerificationReport) {
        lock.lock()
        values[i] = v
        lock.unlock()
    }
}
