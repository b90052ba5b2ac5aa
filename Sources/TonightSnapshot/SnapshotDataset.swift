import TonightBase
import Foundation

/// One dataset of an open snapshot: the seekable file and its key index. A lookup is a binary
/// search of the index and the decompression of one frame (checksum verified), or a cache hit.
/// Safe to share across threads.
public final class SnapshotDataset: @unchecked Sendable {
    /// The dataset's name (`explore`, `events`, …).
    public let name: String
    /// The manifest's entry for it.
    public let entry: SnapshotManifest.Dataset
    let file: SeekableZstdFile
    let index: KeyIndex
    private let cache: FrameCache

    init(name: String, entry: SnapshotManifest.Dataset, directory: String, cacheBytes: Int) throws {
        self.name = name
        self.entry = entry
        file = try SeekableZstdFile(path: directory + "/" + entry.file)
        let indexFile = try SeekableZstdFile(path: directory + "/" + entry.index)
        var text: [UInt8] = []
        for i in 0..<indexFile.frames.count { text += try indexFile.frame(i) }
        index = try KeyIndex(ndjson: text, path: indexFile.path)
        cache = FrameCache(budget: cacheBytes)
        guard index.count == file.frames.count, index.count == entry.frames else {
            throw SnapshotError(
                file: file.path,
                "the index lists \(index.count) frames, the file has \(file.frames.count), the manifest says \(entry.frames)")
        }
        let total = index.records.reduce(0, +)
        guard total == entry.records else {
            throw SnapshotError(file: indexFile.path, "the index counts \(total) records, the manifest says \(entry.records)")
        }
    }

    /// Number of records.
    public var count: Int { entry.records }

    func decodedFrame(_ i: Int) throws -> DecodedFrame {
        if let f = cache.get(i) { return f }
        let f = DecodedFrame(try file.frame(i))
        guard f.lineCount == index.records[i] else {
            throw SnapshotError(file: file.path, "frame \(i) holds \(f.lineCount) records, the index says \(index.records[i])")
        }
        cache.put(i, f)
        return f
    }

    /// The JSON record stored under `key` (one NDJSON line, without the newline), or nil.
    /// Corrupt data throws; it is never returned.
    public func json(key: String) throws -> [UInt8]? {
        guard let f = index.frame(for: key) else { return nil }
        return try decodedFrame(f).record(prefix: JSONKey.recordPrefix(key)).map(Array.init)
    }

    /// The records stored under `keys`, in the order of `keys` (nil for an absent key). Keys
    /// are grouped by frame, so each frame is decompressed once however many keys it holds
    /// (through the cache when it has the frame; a batch does not fill it).
    public func records(keys: [String]) throws -> [[UInt8]?] {
        var result = [[UInt8]?](repeating: nil, count: keys.count)
        var byFrame: [(frame: Int, key: Int)] = []
        byFrame.reserveCapacity(keys.count)
        for (k, key) in keys.enumerated() {
            if let f = index.frame(for: key) { byFrame.append((f, k)) }
        }
        byFrame.sort { ($0.frame, $0.key) < ($1.frame, $1.key) }
        var start = 0
        while start < byFrame.count {
            let f = byFrame[start].frame
            var end = start
            while end < byFrame.count && byFrame[end].frame == f { end += 1 }
            let frame: DecodedFrame
            if let cached = cache.get(f) {
                frame = cached
            } else {
                frame = DecodedFrame(try file.frame(f))
                guard frame.lineCount == index.records[f] else {
                    throw SnapshotError(file: file.path, "frame \(f) holds \(frame.lineCount) records, the index says \(index.records[f])")
                }
            }
            for j in start..<end {
                let k = byFrame[j].key
                result[k] = frame.record(prefix: JSONKey.recordPrefix(keys[k])).map(Array.init)
            }
            start = end
        }
        return result
    }

    /// The record under `key` decoded as `T` (any `Decodable` matching the record's fields).
    public func value<T: Decodable>(key: String, as type: T.Type = T.self) throws -> T? {
        guard let json = try json(key: key) else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(json))
        } catch {
            throw SnapshotError(file: file.path, "record '\(key)' does not decode as \(T.self): \(error)")
        }
    }

    /// Reads every frame once through the cache (to warm a long-lived reader).
    public func forEachFrame() throws {
        for i in 0..<file.frames.count { _ = try decodedFrame(i) }
    }

    /// Calls `body` with every record's JSON in key order (frames read one at a time).
    public func forEachRecord(_ body: ([UInt8]) throws -> Void) throws {
        for i in 0..<file.frames.count {
            let f = DecodedFrame(try file.frame(i))
            for l in 0..<f.lineCount { try body(Array(f.line(l))) }
        }
    }
}
