import TonightBase
import TonightSnapshot

extension SeekableZstdWriter {
    /// Below this many bytes of whole frames, a call to `append(lines:ends:records:key:)` copies
    /// its frames like single records, to be compressed with the next batch: compressing a few
    /// frames on their own would spend more on starting the workers than on the frames.
    static let minimumLentBytes = 256 << 10

    /// Record `n`'s bytes in a batch (`append(lines:ends:records:key:)`), its newline
    /// included; an error unless they are non-empty, inside `lines` and end with a newline.
    static func line(_ n: Int, of lines: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>) throws -> Range<Int> {
        let s = n == 0 ? 0 : ends[n - 1], e = ends[n]
        guard s < e, e <= lines.count, lines[e - 1] == 0x0A else { throw refusal(n, of: lines) }
        return s..<e
    }

    /// The error of a record that `line(_:of:ends:)` refuses.
    static func refusal(_ n: Int, of lines: UnsafeRawBufferPointer) -> SnapshotError {
        SnapshotError(file: "(writer)", "record \(n) of a batch does not end with a newline within its \(lines.count) bytes")
    }

    /// The first record of `range` that `line(_:of:ends:)` refuses, or `range.upperBound`.
    /// The records' last bytes were written a while before (the batch is megabytes long),
    /// so each newline's load is a cache miss: in this tight loop the processor runs many
    /// records ahead and the misses overlap, where the scan's loop, with a key and a count
    /// per record, took them one at a time (~1 % of the tickets stage, 2026-12-01).
    static func firstRefusedLine(_ range: Range<Int>, of lines: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>) -> Int {
        var s = range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]
        for n in range {
            let e = ends[n]
            guard s < e, e <= lines.count, lines[e - 1] == 0x0A else { return n }
            s = e
        }
        return range.upperBound
    }

    /// Appends records that lie back to back in `lines`, each followed by its newline: record
    /// `n` of `records` is `lines[(n == 0 ? 0 : ends[n - 1]) ..< ends[n]]`, under key `key(n)`
    /// (keys increasing, as for `append(key:json:)`). The frames and bytes are those of
    /// appending the records one by one.
    ///
    /// The frames that lie wholly in `lines` are compressed from it before this returns instead
    /// of being copied into the writer's buffer first (that copy of every record was ~1 % of
    /// the tickets stage's CPU); only the records that join the frame left open before them,
    /// and those of the frame left open after them, are copied. A bad record (out of key order,
    /// or without its newline inside `lines`) throws after the records before it are
    /// appended, as one by one.
    package mutating func append(lines: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>, records range: Range<Int>,
                                 key: (Int) -> String) throws {
        precondition(range.upperBound <= ends.count, "SeekableZstdWriter: records beyond their ends")
        func start(_ n: Int) -> Int { n == 0 ? 0 : ends[n - 1] }
        var n = range.lowerBound
        // The key of the record that closed the open frame, made once for both loops.
        var carried: String?
        // The records that fit in the frame left open by the appends before.
        while n < range.upperBound && pendingRecords > 0 {
            let line = try Self.line(n, of: lines, ends: ends)
            let k = key(n)
            if let last = lastKey, !Self.less(last, k) { throw Self.outOfOrder(last, k) }
            if raw.count - pendingStart + line.count > frameBytes {
                try closeFrame()
                carried = k
                break
            }
            raw.append(contentsOf: UnsafeRawBufferPointer(rebasing: lines[line]))
            pendingLast = k
            pendingRecords += 1
            counted(k, bytes: line.count)
            n += 1
        }
        // The frames of the records left, where they lie; the last stays open. A bad record
        // (out of key order, no newline) ends the scan: the records before it are appended,
        // then its error is thrown.
        var lent: [(range: Range<Int>, info: FrameInfo)] = []
        var frameStart = start(n), frameRecords = 0, first = "", last = ""
        var failure: (any Error)?
        let refused = Self.firstRefusedLine(n..<range.upperBound, of: lines, ends: ends)
        while n < range.upperBound {
            guard n < refused else {
                failure = Self.refusal(n, of: lines)
                break
            }
            let line = start(n)..<ends[n]
            let e = line.upperBound
            let k: String
            if let c = carried { k = c; carried = nil } else { k = key(n) }
            if let previous = lastKey, !Self.less(previous, k) {
                failure = Self.outOfOrder(previous, k)
                break
            }
            if frameRecords > 0 && e - frameStart > frameBytes {
                let s = start(n)
                lent.append((frameStart..<s, FrameInfo(first: first, last: last, records: frameRecords, bytes: s - frameStart)))
                frameStart = s
                frameRecords = 0
            }
            if frameRecords == 0 { first = k }
            last = k
            frameRecords += 1
            counted(k, bytes: line.count)
            n += 1
        }
        let lentBytes = lent.last.map { $0.range.upperBound - lent[0].range.lowerBound } ?? 0
        if lentBytes < Self.minimumLentBytes {
            // Few: copied as closed frames, compressed with a later batch.
            for f in lent {
                let at = raw.count
                raw.append(contentsOf: UnsafeRawBufferPointer(rebasing: lines[f.range]))
                rawFrames.append((at..<raw.count, f.info))
            }
            lent.removeAll()
        }
        // The open frame is copied: the records after these may join it. (With records left
        // for the scan, the frame open before them was closed: `raw` ends with closed frames.)
        if pendingRecords == 0 {
            pendingStart = raw.count
            if frameRecords > 0 {
                raw.append(contentsOf: UnsafeRawBufferPointer(rebasing: lines[frameStart..<start(n)]))
                pendingFirst = first
                pendingLast = last
                pendingRecords = frameRecords
            }
        }
        if !lent.isEmpty {
            try compressPending(lent: lent, in: lines)
        } else if pendingStart >= 4 << 20 {
            try compressPending()
        }
        if let failure { throw failure }
    }
}
