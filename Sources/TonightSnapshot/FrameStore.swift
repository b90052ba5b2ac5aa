import Foundation
import TonightBase

/// Where a dataset's frames are and how they are found, for either file layout: layout 1 (the
/// seek table and the NDJSON key index, both read whole at open) or layout 2 (the binary key
/// table, read a block at a time, and the trained dictionary).
enum FrameStore: Sendable {
    case indexed(SeekableZstdFile, KeyIndex)
    case keyTable(DictionaryFramesFile)

    /// A located frame: its number and, in layout 2, the key table's entry for it.
    struct Ref: Sendable {
        var index: Int
        var entry: KeyTable.Frame?
    }

    /// Opens the files of `entry` in `directory`.
    static func open(entry: SnapshotManifest.Dataset, directory: String) throws -> FrameStore {
        if entry.layout ?? 1 == 2, let keys = entry.keyTable {
            let dictionary = try entry.dictionary.map {
                try DecompressionDictionary(path: directory + "/" + $0, expectedID: entry.dictionaryID, expectedSHA256: entry.dictionarySha256)
            }
            let file = try DictionaryFramesFile(path: directory + "/" + entry.file, keyTablePath: directory + "/" + keys, dictionary: dictionary)
            guard file.table.frames == entry.frames, file.table.records == entry.records else {
                throw SnapshotError(
                    file: file.table.path,
                    "the key table lists \(file.table.frames) frames and \(file.table.records) records, the manifest says \(entry.frames) and \(entry.records)")
            }
            return .keyTable(file)
        }
        let file = try SeekableZstdFile(path: directory + "/" + entry.file)
        let index = try KeyIndex(file: directory + "/" + entry.index)
        guard index.count == file.frames.count, index.count == entry.frames else {
            throw SnapshotError(
                file: file.path,
                "the index lists \(index.count) frames, the file has \(file.frames.count), the manifest says \(entry.frames)")
        }
        let total = index.records.reduce(0, +)
        guard total == entry.records else {
            throw SnapshotError(file: directory + "/" + entry.index, "the index counts \(total) records, the manifest says \(entry.records)")
        }
        return .indexed(file, index)
    }

    var path: String {
        switch self {
        case .indexed(let f, _): f.path
        case .keyTable(let f): f.path
        }
    }

    var frameCount: Int {
        switch self {
        case .indexed(let f, _): f.frames.count
        case .keyTable(let f): f.table.frames
        }
    }

    /// The frame that would hold `key`, if any.
    func locate(_ key: String) throws -> Ref? {
        switch self {
        case .indexed(_, let index):
            return index.frame(for: key).map { Ref(index: $0) }
        case .keyTable(let file):
            var key = key
            return try key.withUTF8 { try file.table.frame(for: $0) }.map { Ref(index: $0.index, entry: $0.frame) }
        }
    }

    /// Frame `ref`, decompressed, checked, its record count compared with the index's.
    func decoded(_ ref: Ref) throws -> DecodedFrame {
        let (bytes, records): ([UInt8], Int)
        switch self {
        case .indexed(let file, let index):
            (bytes, records) = (try file.frame(ref.index), index.records[ref.index])
        case .keyTable(let file):
            let entry = try ref.entry ?? file.table.frame(ref.index)
            (bytes, records) = (try file.frame(ref.index, entry: entry), entry.records)
        }
        let f = DecodedFrame(bytes)
        guard f.lineCount == records else {
            throw SnapshotError(file: path, "frame \(ref.index) holds \(f.lineCount) records, the index says \(records)")
        }
        return f
    }

    /// Every frame in order (checked like `decoded`), read in large pieces where the layout
    /// allows; layout 2 also hands over the key table's first key of the frame.
    func forEachFrame(_ body: (Int, DecodedFrame, [UInt8]?) throws -> Void) throws {
        try forEachFrame(in: 0..<frameCount, body)
    }

    /// The frames of `range` in order, like `forEachFrame`.
    func forEachFrame(in range: Range<Int>, _ body: (Int, DecodedFrame, [UInt8]?) throws -> Void) throws {
        switch self {
        case .indexed:
            for i in range { try body(i, try decoded(Ref(index: i)), nil) }
        case .keyTable(let file):
            try file.forEachFrame(in: range) { i, entry, bytes, first in
                let f = DecodedFrame(bytes)
                guard f.lineCount == entry.records else {
                    throw SnapshotError(file: path, "frame \(i) holds \(f.lineCount) records, the key table says \(entry.records)")
                }
                try body(i, f, first)
            }
        }
    }

    /// The frames of `range` in order, checked like `forEachFrame`, each lent to `body` for
    /// the call only (layout 2 decompresses them all into one buffer): `verify`'s scan.
    func scanFrames(in range: Range<Int>, _ body: (Int, LentFrame, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
        switch self {
        case .indexed:
            for i in range {
                let f = try decoded(Ref(index: i))
                try f.bytes.withUnsafeBufferPointer { b in
                    try f.lineStarts.withUnsafeBufferPointer { try body(i, LentFrame(bytes: b, lineStarts: $0), nil) }
                }
            }
        case .keyTable(let file):
            var starts: [Int32] = []
            let path = file.path  // (`self.path` in the closure consumed the store per frame)
            try file.scanFrames(in: range) { i, entry, bytes, first in
                DecodedFrame.lineStarts(of: bytes, into: &starts)
                guard starts.count - 1 == entry.records else {
                    throw SnapshotError(file: path, "frame \(i) holds \(starts.count - 1) records, the key table says \(entry.records)")
                }
                try starts.withUnsafeBufferPointer { try body(i, LentFrame(bytes: bytes, lineStarts: $0), first) }
            }
        }
    }

    /// The frames in runs of about `bytes` uncompressed bytes each (`averageFrameBytes` a
    /// frame), every run but the last a whole number of key-table blocks in layout 2 (so that
    /// no block is read twice): the pieces `verify` spreads over the cores.
    func frameRuns(averageFrameBytes: Int, bytes: Int) -> [Range<Int>] {
        var step = max(1, min(frameCount, bytes / max(1, averageFrameBytes)))
        if case .keyTable(let file) = self {
            let b = file.table.blockFrames
            step = max(b, (step + b - 1) / b * b)
        }
        return stride(from: 0, to: frameCount, by: step).map { $0..<min(frameCount, $0 + step) }
    }

    /// The NDJSON key index (held since open in layout 1; read whole here in layout 2, for
    /// `verify`, which checks it agrees with the frames).
    func ndjsonIndex(entry: SnapshotManifest.Dataset, directory: String) throws -> KeyIndex {
        switch self {
        case .indexed(_, let index):
            return index
        case .keyTable:
            let index = try KeyIndex(file: directory + "/" + entry.index)
            guard index.count == frameCount else {
                throw SnapshotError(file: directory + "/" + entry.index, "the index lists \(index.count) frames, the key table \(frameCount)")
            }
            return index
        }
    }
}
