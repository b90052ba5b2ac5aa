import TonightBase
import Foundation

/// One dataset of an open snapshot: its files and its key index. A lookup finds the frame
/// (a binary search of the NDJSON index held in memory in layout 1, of the key table's
/// directory and one checked block in layout 2) and decompresses it (checksum verified), or
/// finds it in the cache. Safe to share across threads.
public final class SnapshotDataset: @unchecked Sendable {
    /// The dataset's name (`explore`, `events`, …).
    public let name: String
    /// The manifest's entry for it.
    public let entry: SnapshotManifest.Dataset
    let store: FrameStore
    private let cache: FrameCache
    /// `firstKey()` once read (the outer optional: not read yet).
    private let firstKeyRead = Locked<String??>(nil)

    init(name: String, entry: SnapshotManifest.Dataset, directory: String, cacheBytes: Int) throws {
        self.name = name
        self.entry = entry
        store = try FrameStore.open(entry: entry, directory: directory)
        cache = FrameCache(budget: cacheBytes, frames: store.frameCount)
    }

    /// Number of records.
    public var count: Int { entry.records }

    /// The data file's path.
    public var path: String { store.path }

    func decodedFrame(_ ref: FrameStore.Ref) throws -> DecodedFrame {
        if let f = cache.get(ref.index) { return f }
        let f = try store.decoded(ref)
        cache.put(ref.index, f)
        return f
    }

    /// The JSON record stored under `key` (one NDJSON line, without the newline), or nil.
    /// Corrupt data throws; it is never returned.
    public func json(key: String) throws -> [UInt8]? {
        guard let ref = try store.locate(key) else { return nil }
        return try decodedFrame(ref).record(prefix: JSONKey.recordPrefix(key)).map(Array.init)
    }

    /// The records stored under `keys`, in the order of `keys` (nil for an absent key). Keys
    /// are grouped by frame, so each frame is decompressed once however many keys it holds
    /// (through the cache when it has the frame; a batch does not fill it), and the frames are
    /// decompressed on all cores.
    public func records(keys: [String]) throws -> [[UInt8]?] {
        var byFrame: [(ref: FrameStore.Ref, key: Int)] = []
        byFrame.reserveCapacity(keys.count)
        for (k, key) in keys.enumerated() {
            if let ref = try store.locate(key) { byFrame.append((ref, k)) }
        }
        byFrame.sort { ($0.ref.index, $0.key) < ($1.ref.index, $1.key) }
        // Runs of one frame, split into one contiguous piece per core.
        let starts = byFrame.indices.filter { $0 == 0 || byFrame[$0].ref.index != byFrame[$0 - 1].ref.index }
        let groups = starts.count
        let workers = max(1, min(Parallel.width, groups / 64))
        let (store, cache, sorted) = (self.store, self.cache, byFrame)
        let found = try Parallel.map(workers) { w -> [(Int, [UInt8])] in
            var out: [(Int, [UInt8])] = []
            for g in Parallel.range(w, of: workers, in: groups) {
                let start = starts[g], end = g + 1 < groups ? starts[g + 1] : sorted.count
                let ref = sorted[start].ref
                let frame = try cache.get(ref.index) ?? store.decoded(ref)
                for j in start..<end {
                    let k = sorted[j].key
                    if let r = frame.record(prefix: JSONKey.recordPrefix(keys[k])) { out.append((k, Array(r))) }
                }
            }
            return out
        }
        var result = [[UInt8]?](repeating: nil, count: keys.count)
        for part in found { for (k, r) in part { result[k] = r } }
        return result
    }

    /// The record under `key` decoded as `T` (any `Decodable` matching the record's fields).
    public func value<T: Decodable>(key: String, as type: T.Type = T.self) throws -> T? {
        guard let json = try json(key: key) else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(json))
        } catch {
            throw SnapshotError(file: path, "record '\(SnapshotError.quoted(key))' does not decode as \(T.self): \(error)")
        }
    }

    /// The key of the first record (nil for an empty dataset): one frame read, once for the
    /// dataset's life (the map lookups check their precision against it on every call, and a
    /// reader without a frame cache would decompress the frame each time).
    func firstKey() throws -> String? {
        if let known = firstKeyRead.current { return known }
        let key = try readFirstKey()
        firstKeyRead.withLock { $0 = .some(key) }
        return key
    }

    private func readFirstKey() throws -> String? {
        guard count > 0, store.frameCount > 0 else { return nil }
        let frame = try decodedFrame(FrameStore.Ref(index: 0, entry: nil))
        guard frame.lineCount > 0 else { return nil }
        let line = Array(frame.line(0)), prefix = Array(#"{"key":"#.utf8)
        guard line.starts(with: prefix), let (key, _) = line.withUnsafeBufferPointer({ JSONKey.decode($0, at: prefix.count) }) else {
            throw SnapshotError(file: path, "the first record does not start with {\"key\":\"…\"")
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// Reads every frame once into the cache (to warm a long-lived reader).
    public func forEachFrame() throws {
        try store.forEachFrame { i, f, _ in cache.put(i, f) }
    }

    /// Calls `body` with every record's JSON in key order (frames read in file order).
    public func forEachRecord(_ body: ([UInt8]) throws -> Void) throws {
        try store.forEachFrame { _, f, _ in
            for l in 0..<f.lineCount { try body(Array(f.line(l))) }
        }
    }
}
