import TonightBase
import Foundation
import TonightCore

/// What parse-affinity produces.
package struct AffinityResult: Sendable {
    /// Resolved edges, sorted by (source, target), duplicates reduced to their highest score.
    package var edges: [AffinityEdge]
    package var rejects: [AffinityReject]
    /// Counted cases of affinity.md: `unknown-source`, `ambiguous-source`, `unknown-target`,
    /// `name-mismatch`, `bad-score`, `bad-line`, `unterminated-block`, `self-recommendation`,
    /// `duplicate-pair`; and `bad-utf8`, a name that is not UTF-8 (also counted as the
    /// `unknown-source` or `name-mismatch` it makes; listed with its line in the rejects, not
    /// counted against `maxRejectShare`: the line's id and score are read as usual).
    package var counts: [String: Int]
    /// Source names that matched no artist, in file order.
    package var unknownSources: [String]
    package var blocks: Int
    package var recommendationLines: Int
}

/// Reads the artist affinity text file (affinity.md): blocks of `ID,Name,Score` lines under
/// `Recommended artists for NAME`, each closed by `-----`; sources resolved by normalised
/// name, targets by id.
package struct AffinityParser {
    /// The feed's artists: ids, and their names as one byte arena, so that checking a
    /// line's name against the feed's is a memcmp, not String work.
    let names: ArtistNames
    let positions: IDPositions
    /// Normalised-name index without Strings: the FNV-1a hash of a key's bytes → the first
    /// artist with that hash; `next` chains the others (homonyms and hash collisions, told
    /// apart by comparing the key bytes kept in `keyBytes`).
    let byKeyHash: [UInt64: Int32]
    let next: [Int32]
    let keyBytes: [UInt8]
    let keyStart: [Int32]
    package var maxRejectShare = 0.05

    var ids: [Int64] { names.ids }

    @inline(__always) static func fnv1a(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in b { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h
    }

    package init(artists: [(id: Int64, name: String)]) {
        self.init(names: ArtistNames(artists))
    }

    package init(names: ArtistNames) {
        self.names = names
        // Two independent pieces of work on the two cores: the id index, and the normalised
        // keys with their hashes.
        let n = names.count
        let (positions, keys) = try! Parallel.both({ IDPositions(names.ids) }, { KeyIndex(names) })
        self.positions = positions
        byKeyHash = keys.byKeyHash
        next = keys.next
        keyBytes = keys.bytes
        keyStart = keys.starts
        precondition(keyStart.count == n + 1)
    }

    /// The normalised names' bytes, hashes and chains of equal hashes.
    private struct KeyIndex: Sendable {
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        var byKeyHash: [UInt64: Int32] = [:]
        var next: [Int32] = []

        init(_ names: ArtistNames) {
            let n = names.count
            bytes.reserveCapacity(names.bytes.count + 16)
            starts.reserveCapacity(n + 1)
            names.bytes.withUnsafeBufferPointer { nb in
                for i in 0..<n {
                    TextNormalizer.appendNameKey(UnsafeBufferPointer(rebasing: nb[names.range(i)]), to: &bytes)
                    starts.append(Int32(bytes.count))
                }
            }
            let hashes = bytes.withUnsafeBufferPointer { kb in
                (0..<n).map { i in AffinityParser.fnv1a(UnsafeBufferPointer(rebasing: kb[Int(starts[i])..<Int(starts[i + 1])])) }
            }
            // Chains of equal hashes, first artist first.
            byKeyHash.reserveCapacity(n)
            next = [Int32](repeating: -1, count: n)
            for i in stride(from: n - 1, through: 0, by: -1) {
                if let first = byKeyHash.updateValue(Int32(i), forKey: hashes[i]) { next[i] = first }
            }
        }
    }

    /// The artist ids whose normalised name equals the key of `name`, in feed order.
    func artists(named name: String) -> [Int64] {
        var key: [UInt8] = []
        TextNormalizer.appendNameKey(name, to: &key)
        return key.withUnsafeBufferPointer { k in
            guard var i = byKeyHash[Self.fnv1a(k)] else { return [] }
            var out: [Int64] = []
            keyBytes.withUnsafeBufferPointer { kb in
                while i >= 0 {
                    let lo = Int(keyStart[Int(i)])
                    let hi = Int(keyStart[Int(i) + 1])
                    if hi - lo == k.count && (k.count == 0 || memcmp(kb.baseAddress! + lo, k.baseAddress!, k.count) == 0) {
                        out.append(ids[Int(i)])
                    }
                    i = next[Int(i)]
                }
            }
            return out
        }
    }

    /// Whether the feed's name of artist `i` is exactly these bytes.
    @inline(__always)
    func nameEquals(_ i: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let r = names.range(i)
        guard r.count == b.count else { return false }
        return b.isEmpty || names.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + r.lowerBound, b.baseAddress!, b.count) == 0 }
    }

    func name(at i: Int) -> String {
        String(decoding: names.bytes[names.range(i)], as: UTF8.self)
    }

    static let header = Array("Recommended artists for ".utf8)

    /// Whether a line (white space trimmed) opens a block: the header and a name, or the
    /// header alone, its space trimmed with the line's (an empty name, which resolves to no
    /// artist). `blockStart` cuts the file at lines that begin with the header's bytes, so
    /// every such line must be a header here too, or the pieces would read differently from
    /// one pass.
    @inline(__always)
    static func isHeader(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.starts(with: header) || (line.count == header.count - 1 && line.elementsEqual(header.dropLast()))
    }

    package func parse(_ url: URL) throws -> AffinityResult {
        let data = try FileIO.read(url)
        return try data.withUnsafeBytes { raw in
            try parse(raw.bindMemory(to: UInt8.self), path: url.path)
        }
    }

    /// Parses the file's bytes; `split` (the default) reads one piece per core, with the same
    /// result as one pass (tested).
    package func parse(_ all: UnsafeBufferPointer<UInt8>, path: String, split: Bool = true, pieces: Int? = nil) throws -> AffinityResult {
        // UTF-16 or UTF-32 is refused as such (it was "no 'Recommended artists for' block").
        if let other = TextEncodingCheck.otherEncoding(all) {
            throw TonightError(.invalidInput, "the file is \(other), not UTF-8", file: path, line: 1,
                               hint: "write the affinity file as UTF-8 (affinity.md)")
        }
        // A UTF-8 byte order mark.
        let begin = all.count >= 3 && all[0] == 0xEF && all[1] == 0xBB && all[2] == 0xBF ? 3 : 0
        if let column = Self.bareCarriageReturn(all, from: begin) {
            throw TonightError(
                .invalidInput, "line 1 holds a carriage return that does not end it: are the line ends bare CR (classic Mac OS)?",
                file: path, line: 1, column: column,
                hint: "affinity.md accepts LF or CRLF line ends; convert the file (e.g. `tr '\\r' '\\n'`) or fix the exporter")
        }
        // One piece per core, each cut where a block starts: a block never spans a cut, so
        // each piece reads exactly as it would in one pass (an open block at the end of a piece
        // is unterminated, which the header after the cut would also have said).
        var cuts = [begin]
        let pieceCount = split ? max(1, pieces ?? Parallel.width) : 1
        for k in 1..<max(1, pieceCount) {
            let target = max(cuts.last!, begin + (all.count - begin) * k / pieceCount)
            if let cut = Self.blockStart(in: all, after: target), cut > cuts.last! { cuts.append(cut) }
        }
        var pieces: [(range: Range<Int>, firstLine: Int)] = []
        var line = 1
        for (k, start) in cuts.enumerated() {
            let end = k + 1 < cuts.count ? cuts[k + 1] : all.count
            pieces.append((start..<end, line))
            if k + 1 < cuts.count { line += ByteScan.lineFeeds(UnsafeBufferPointer(rebasing: all[start..<end])) }
        }
        let shared = SharedReadBuffer(all), ranges = pieces
        let parts = try Parallel.map(ranges.count) { i in
            parsePart(shared.buffer, range: ranges[i].range, firstLine: ranges[i].firstLine)
        }
        var counts: [String: Int] = [:]
        var rejects: [AffinityReject] = []
        var unknownSources: [String] = []
        // Every resolved (source, target, score), duplicates included: each part sorted its
        // own on its core; the sorted runs are merged below.
        var runs = parts.map { $0.raw[...] }
        var blocks = 0
        var lines = 0
        var outside = 0
        for part in parts {
            for (k, v) in part.counts { counts[k, default: 0] += v }
            rejects += part.rejects
            unknownSources += part.unknownSources
            blocks += part.blocks
            lines += part.lines
            outside += part.outside
        }

        if blocks == 0 {
            throw FailureWithRejects(TonightError(
                .invalidInput, "no 'Recommended artists for' block in the file (\(lines + outside) lines could not be read)",
                file: path, line: rejects.first?.line, hint: "is this the artist affinity file? (affinity.md)"),
                rejects: rejects)
        }
        let rejected = (counts["bad-score"] ?? 0) + (counts["bad-line"] ?? 0)
        let total = lines + outside
        if Double(rejected) > maxRejectShare * Double(max(total, 1)) && rejected > 0 {
            throw FailureWithRejects(TonightError(
                .invalidInput,
                "\(rejected) of \(total) recommendation lines rejected, more than \(Int(maxRejectShare * 100)) %",
                file: path, line: rejects.first?.line, hint: "see the rejects file; is this the affinity feed?"),
                rejects: rejects)
        }
        // Sorted by (source, target, score descending): the first of each pair is the best.
        while runs.count > 1 {
            var a = runs.removeFirst(), b = runs.removeFirst()
            var merged: [AffinityEdge] = []
            merged.reserveCapacity(a.count + b.count)
            while let x = a.first, let y = b.first {
                if Self.before(y, x) { merged.append(b.removeFirst()) } else { merged.append(a.removeFirst()) }
            }
            merged += a
            merged += b
            runs.insert(merged[...], at: 0)
        }
        let sorted = runs.first ?? []
        var edges: [AffinityEdge] = []
        edges.reserveCapacity(sorted.count)
        for e in sorted {
            if let last = edges.last, last.source == e.source, last.target == e.target {
                counts["duplicate-pair", default: 0] += 1
                continue
            }
            edges.append(e)
        }
        if edges.isEmpty {
            throw TonightError(
                .invalidInput, "no affinity edge resolves to the feed's artists (\(blocks) blocks read)", file: path,
                hint: "check that the affinity file and the feed are from the same delivery")
        }
        return AffinityResult(
            edges: edges, rejects: rejects, counts: counts, unknownSources: unknownSources, blocks: blocks,
            recommendationLines: lines)
    }

    /// The 1-based column of a carriage return inside the first line (not among the CRs,
    /// spaces and tabs before its LF) when that line starts as a block does, or nil. A file
    /// whose lines end in a bare CR is one line to this parser, and would fail as "no edge
    /// resolves"; looking at the first line costs one short scan. (A first line that is not a
    /// header is left to the other checks: random bytes are "no block", not "bare CR".)
    static func bareCarriageReturn(_ all: UnsafeBufferPointer<UInt8>, from begin: Int) -> Int? {
        var start = begin
        while start < all.count, all[start] == 0x20 || all[start] == 0x09 { start += 1 }
        guard UnsafeBufferPointer(rebasing: all[start...]).starts(with: header) else { return nil }
        var end = begin
        while end < all.count, all[end] != 0x0A { end += 1 }
        while end > begin, all[end - 1] == 0x0D || all[end - 1] == 0x20 || all[end - 1] == 0x09 { end -= 1 }
        var k = begin
        while k < end {
            if all[k] == 0x0D { return k - begin + 1 }
            k += 1
        }
        return nil
    }

    /// A score as Python prints it: decimal digits, an optional fraction and exponent (no hex
    /// floats, no `inf` or `nan`), at most 40 characters.
    static func parseScore(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !b.isEmpty, b.count <= 40 else { return nil }
        var digits = 0
        for (i, c) in b.enumerated() {
            switch c {
            case 0x30...0x39: digits += 1
            case 0x2E: continue
            case 0x2B, 0x2D: guard i == 0 || b[i - 1] == 0x65 || b[i - 1] == 0x45 else { return nil }
            case 0x65, 0x45: guard digits > 0 else { return nil }
            default: return nil
            }
        }
        guard digits > 0, let v = Double(String(decoding: b, as: UTF8.self)), v.isFinite else { return nil }
        return v
    }

    /// What one piece of the file gives.
    private struct Partial: Sendable {
        var counts: [String: Int] = [:]
        var rejects: [AffinityReject] = []
        var unknownSources: [String] = []
        var raw: [AffinityEdge] = []
        var blocks = 0
        var lines = 0
        /// Non-blank lines outside any block.
        var outside = 0
    }

    /// The detail of a `bad-utf8` note: which name, the first bad byte and its 1-based column.
    static func notUTF8(_ what: String, _ byte: UInt8, column: Int) -> String {
        "\(what) is not UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)) at column \(column)): "
            + "is the file in another encoding, such as Latin-1? (affinity.md: UTF-8)"
    }

    /// Reads the lines of `all[range]`, the first of which is line `firstLine`.
    private func parsePart(_ all: UnsafeBufferPointer<UInt8>, range: Range<Int>, firstLine: Int) -> Partial {
        var counts: [String: Int] = [:]
        var rejects: [AffinityReject] = []
        var unknownSources: [String] = []
        var raw: [AffinityEdge] = []
        raw.reserveCapacity(range.count / 40)
        var blocks = 0
        var lines = 0
        var outside = 0
        var sources: [Int64]? = nil  // nil: outside a block; []: a block whose source is unknown
        var lineNo = firstLine - 1
        var start = range.lowerBound
        let stop = range.upperBound
        func reject(_ reason: String, _ detail: String) {
            counts[reason, default: 0] += 1
            rejects.append(AffinityReject(line: lineNo, reason: reason, detail: detail))
        }
        while start < stop {
            let end = memchr(all.baseAddress! + start, 0x0A, stop - start).map {
                UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - all.baseAddress!
            } ?? stop
            lineNo += 1
            let lineStart = start
            var lo = start
            var hi = end
            start = end + 1
            while hi > lo, all[hi - 1] == 0x0D || all[hi - 1] == 0x20 || all[hi - 1] == 0x09 { hi -= 1 }
            while lo < hi, all[lo] == 0x20 || all[lo] == 0x09 { lo += 1 }
            if lo == hi { continue }  // blank line
            let line = UnsafeBufferPointer(rebasing: all[lo..<hi])
            if line.count == 5 && line.allSatisfy({ $0 == UInt8(ascii: "-") }) {
                if sources == nil {
                    // A line outside a block like any other: counted, so that the rejected
                    // lines are never more than the lines.
                    outside += 1
                    reject("bad-line", "terminator outside a block")
                }
                sources = nil
                continue
            }
            if Self.isHeader(line) {
                if sources != nil { counts["unterminated-block", default: 0] += 1 }
                blocks += 1
                let nameBytes = UnsafeBufferPointer(rebasing: line[min(Self.header.count, line.count)...])
                let name = String(decoding: nameBytes, as: UTF8.self)
                let ids = artists(named: name)
                if let bad = TextEncodingCheck.firstInvalidUTF8(nameBytes) {
                    // It matches no artist (the feed's names are UTF-8): said where and why.
                    reject("bad-utf8", Self.notUTF8("the source name", nameBytes[bad], column: lo - lineStart + Self.header.count + bad + 1)
                        + "; the block is skipped")
                }
                if ids.isEmpty {
                    counts["unknown-source", default: 0] += 1
                    // Repeated in reports: quoted and cut (a hostile name may be megabytes).
                    unknownSources.append(TonightError.quoted(name.trimmingCharacters(in: .whitespaces), limit: 200))
                } else if ids.count > 1 {
                    counts["ambiguous-source", default: 0] += 1
                }
                sources = ids
                continue
            }
            guard let blockSources = sources else {
                outside += 1
                reject("bad-line", "line outside a block (no 'Recommended artists for' header before it)")
                continue
            }
            lines += 1
            // ID,Name,Score: the id is the first field, the score the last, the name between.
            guard let first = line.firstIndex(of: UInt8(ascii: ",")), let last = line.lastIndex(of: UInt8(ascii: ",")),
                first < last
            else {
                reject("bad-line", "expected ID,Name,Score")
                continue
            }
            guard let target = Self.parseID(UnsafeBufferPointer(rebasing: line[..<first])) else {
                reject("bad-line", "'\(TonightError.quoted(line[..<first]))' is not an artist id")
                continue
            }
            var sLo = last + 1
            var sHi = line.count
            while sLo < sHi, line[sLo] == 0x20 { sLo += 1 }
            while sHi > sLo, line[sHi - 1] == 0x20 { sHi -= 1 }
            let scoreBytes = UnsafeBufferPointer(rebasing: line[sLo..<sHi])
            guard let score = Self.parseScore(scoreBytes), score >= 0, score <= 1 else {
                reject("bad-score", "score '\(TonightError.quoted(scoreBytes))' is not a decimal number in [0, 1]")
                continue
            }
            if blockSources.isEmpty { continue }  // unknown source: the block is skipped
            guard let targetIndex = positions[target] else {
                counts["unknown-target", default: 0] += 1
                continue
            }
            let lineName = UnsafeBufferPointer(rebasing: line[(first + 1)..<last])
            // The feed's own bytes (nearly every line) are UTF-8 and the same name: nothing
            // more to read. Otherwise a name that is not UTF-8 is said, and is a mismatch.
            if !nameEquals(Int(targetIndex), lineName) {
                if let bad = TextEncodingCheck.firstInvalidUTF8(lineName) {
                    reject("bad-utf8", Self.notUTF8("the name", lineName[bad], column: lo - lineStart + first + 1 + bad + 1)
                        + "; the line is kept (its id names the artist)")
                    counts["name-mismatch", default: 0] += 1
                } else if TextNormalizer.nameKey(name(at: Int(targetIndex)))
                    != TextNormalizer.nameKey(String(decoding: lineName, as: UTF8.self)) {
                    counts["name-mismatch", default: 0] += 1
                }
            }
            for source in blockSources {
                if source == target {
                    counts["self-recommendation", default: 0] += 1
                    continue
                }
                raw.append(AffinityEdge(source: source, target: target, score: score))
            }
        }
        if sources != nil { counts["unterminated-block", default: 0] += 1 }
        raw.sort(by: Self.before)
        return Partial(counts: counts, rejects: rejects, unknownSources: unknownSources, raw: raw, blocks: blocks, lines: lines,
                       outside: outside)
    }

    /// The order of edges: by source, target, then score descending (the first of each pair
    /// is the best).
    @inline(__always)
    static func before(_ x: AffinityEdge, _ y: AffinityEdge) -> Bool {
        (x.source, x.target, y.score) < (y.source, y.target, x.score)
    }

    /// The start of the first line after `from` that begins with the block header, if any.
    static func blockStart(in all: UnsafeBufferPointer<UInt8>, after from: Int) -> Int? {
        var i = from
        while i < all.count, let nl = memchr(all.baseAddress! + i, 0x0A, all.count - i) {
            let lineStart = UnsafePointer<UInt8>(nl.assumingMemoryBound(to: UInt8.self)) - all.baseAddress! + 1
            if all.count - lineStart >= header.count, memcmp(all.baseAddress! + lineStart, header, header.count) == 0 {
                return lineStart
            }
            i = lineStart
        }
        return nil
    }

    static func parseID(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var lo = 0
        var hi = b.count
        while lo < hi, b[lo] == 0x20 { lo += 1 }
        while hi > lo, b[hi - 1] == 0x20 { hi -= 1 }
        guard hi > lo, hi - lo <= 18 else { return nil }
        var v: Int64 = 0
        for i in lo..<hi {
            let d = b[i] &- 48
            guard d < 10 else { return nil }
            v = v * 10 + Int64(d)
        }
        return v
    }
}
