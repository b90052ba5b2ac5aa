import Foundation
import TonightCore

/// What parse-affinity produces.
package struct AffinityResult: Sendable {
    /// Resolved edges, sorted by (source, target), duplicates reduced to their highest score.
    package var edges: [AffinityEdge]
    package var rejects: [AffinityReject]
    /// Counted cases of affinity.md: `unknown-source`, `ambiguous-source`, `unknown-target`,
    /// `name-mismatch`, `bad-score`, `bad-line`, `unterminated-block`, `self-recommendation`,
    /// `duplicate-pair`.
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
    /// The feed's artists: ids, and their names as one byte arena (`nameStart[i]..<nameStart[i+1]`),
    /// so that checking a line's name against the feed's is a memcmp, not String work.
    let ids: [Int64]
    let index: [Int64: Int32]
    let nameBytes: [UInt8]
    let nameStart: [Int32]
    /// Normalised-name index without Strings: the FNV-1a hash of a key's bytes → the first
    /// artist with that hash; `next` chains the others (homonyms and hash collisions, told
    /// apart by comparing the key bytes kept in `keyBytes`).
    let byKeyHash: [UInt64: Int32]
    let next: [Int32]
    let keyBytes: [UInt8]
    let keyStart: [Int32]
    package var maxRejectShare = 0.05

    @inline(__always) static func fnv1a(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in b { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h
    }

    package init(artists: [(id: Int64, name: String)]) {
        ids = artists.map(\.id)
        // Three independent pieces of work on the two cores: the id index, the name arena,
        // and the normalised keys with their hashes.
        let n = artists.count
        let parts = try! Parallel.map(3) { job -> IndexPart in
            var part = IndexPart()
            switch job {
            case 0:
                part.index.reserveCapacity(n)
                for (i, a) in artists.enumerated() { part.index[a.id] = Int32(i) }
            case 1:
                part.bytes.reserveCapacity(n * 24)
                part.starts.reserveCapacity(n + 1)
                for a in artists {
                    var name = a.name
                    name.withUTF8 { part.bytes.append(contentsOf: $0) }
                    part.starts.append(Int32(part.bytes.count))
                }
            default:
                part.bytes.reserveCapacity(n * 24)
                part.starts.reserveCapacity(n + 1)
                for a in artists {
                    TextNormalizer.appendNameKey(a.name, to: &part.bytes)
                    part.starts.append(Int32(part.bytes.count))
                }
                part.bytes.withUnsafeBufferPointer { kb in
                    part.hashes = (0..<n).map { i in
                        Self.fnv1a(UnsafeBufferPointer(rebasing: kb[Int(part.starts[i])..<Int(part.starts[i + 1])]))
                    }
                }
            }
            return part
        }
        var byKeyHash: [UInt64: Int32] = [:]
        byKeyHash.reserveCapacity(n)
        var next = [Int32](repeating: -1, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            if let first = byKeyHash.updateValue(Int32(i), forKey: parts[2].hashes[i]) { next[i] = first }
        }
        index = parts[0].index
        nameBytes = parts[1].bytes
        nameStart = parts[1].starts
        self.byKeyHash = byKeyHash
        self.next = next
        keyBytes = parts[2].bytes
        keyStart = parts[2].starts
    }

    private struct IndexPart: Sendable {
        var index: [Int64: Int32] = [:]
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        var hashes: [UInt64] = []
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
        let lo = Int(nameStart[i])
        let hi = Int(nameStart[i + 1])
        guard hi - lo == b.count else { return false }
        return nameBytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + lo, b.baseAddress!, b.count) == 0 }
    }

    func name(at i: Int) -> String {
        String(decoding: nameBytes[Int(nameStart[i])..<Int(nameStart[i + 1])], as: UTF8.self)
    }

    static let header = Array("Recommended artists for ".utf8)

    package func parse(_ url: URL) throws -> AffinityResult {
        let data = try FileIO.read(url)
        return try data.withUnsafeBytes { raw in
            try parse(raw.bindMemory(to: UInt8.self), path: url.path)
        }
    }

    package func parse(_ all: UnsafeBufferPointer<UInt8>, path: String) throws -> AffinityResult {
        var counts: [String: Int] = [:]
        var rejects: [AffinityReject] = []
        var unknownSources: [String] = []
        var raw: [AffinityEdge] = []  // every resolved (source, target, score), duplicates included
        raw.reserveCapacity(all.count / 40)
        var blocks = 0
        var lines = 0
        var sources: [Int64]? = nil  // nil: outside a block; []: a block whose source is unknown
        var lineNo = 0
        var start = 0
        // A UTF-8 byte order mark.
        if all.count >= 3, all[0] == 0xEF, all[1] == 0xBB, all[2] == 0xBF { start = 3 }
        func reject(_ reason: String, _ detail: String) {
            counts[reason, default: 0] += 1
            rejects.append(AffinityReject(line: lineNo, reason: reason, detail: detail))
        }
        while start < all.count {
            var end = start
            while end < all.count && all[end] != 0x0A { end += 1 }
            lineNo += 1
            var lo = start
            var hi = end
            start = end + 1
            while hi > lo, all[hi - 1] == 0x0D || all[hi - 1] == 0x20 || all[hi - 1] == 0x09 { hi -= 1 }
            while lo < hi, all[lo] == 0x20 || all[lo] == 0x09 { lo += 1 }
            if lo == hi { continue }  // blank line
            let line = UnsafeBufferPointer(rebasing: all[lo..<hi])
            if line.count == 5 && line.allSatisfy({ $0 == UInt8(ascii: "-") }) {
                if sources == nil { reject("bad-line", "terminator outside a block") }
                sources = nil
                continue
            }
            if line.starts(with: Self.header) {
                if sources != nil { counts["unterminated-block", default: 0] += 1 }
                blocks += 1
                let name = String(decoding: line[Self.header.count...], as: UTF8.self)
                let ids = artists(named: name)
                if ids.isEmpty {
                    counts["unknown-source", default: 0] += 1
                    unknownSources.append(name.trimmingCharacters(in: .whitespaces))
                } else if ids.count > 1 {
                    counts["ambiguous-source", default: 0] += 1
                }
                sources = ids
                continue
            }
            guard let blockSources = sources else {
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
                reject("bad-line", "'\(String(decoding: line[..<first], as: UTF8.self))' is not an artist id")
                continue
            }
            var sLo = last + 1
            var sHi = line.count
            while sLo < sHi, line[sLo] == 0x20 { sLo += 1 }
            while sHi > sLo, line[sHi - 1] == 0x20 { sHi -= 1 }
            let scoreText = String(decoding: line[sLo..<sHi], as: UTF8.self)
            guard let score = Double(scoreText), score.isFinite, score >= 0, score <= 1 else {
                reject("bad-score", "score '\(scoreText)' is not a number in [0, 1]")
                continue
            }
            if blockSources.isEmpty { continue }  // unknown source: the block is skipped
            guard let targetIndex = index[target] else {
                counts["unknown-target", default: 0] += 1
                continue
            }
            let lineName = UnsafeBufferPointer(rebasing: line[(first + 1)..<last])
            if !nameEquals(Int(targetIndex), lineName),
                TextNormalizer.nameKey(name(at: Int(targetIndex)))
                    != TextNormalizer.nameKey(String(decoding: lineName, as: UTF8.self))
            {
                counts["name-mismatch", default: 0] += 1
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

        let rejected = (counts["bad-score"] ?? 0) + (counts["bad-line"] ?? 0)
        if Double(rejected) > maxRejectShare * Double(max(lines, 1)) && rejected > 0 {
            throw TonightError(
                .invalidInput,
                "\(rejected) of \(lines) recommendation lines rejected, more than \(Int(maxRejectShare * 100)) %",
                file: path, line: rejects.first?.line, hint: "see the rejects file; is this the affinity feed?")
        }
        // Sorted by (source, target, score descending): the first of each pair is the best.
        raw.sort { ($0.source, $0.target, $1.score) < ($1.source, $1.target, $0.score) }
        var edges: [AffinityEdge] = []
        edges.reserveCapacity(raw.count)
        for e in raw {
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
