import Foundation
import TonightCore

/// Records as the SAX thread saw them, before any string work: a flat byte buffer that the
/// SAX thread appends to and a worker thread decodes, so parsing and record building run on
/// the two cores at once.
///
/// Layout per record: `section u8, line u32, column u32`, then items `code u8, length u32,
/// bytes` (codes are `FeedField` raw values or the pseudo codes below), then `end`.
final class RawRecordBatch: @unchecked Sendable {
    static let idCode: UInt8 = 200
    static let onsaleTypeCode: UInt8 = 201
    static let presaleTypeCode: UInt8 = 202
    /// An `ArtistIDs/ArtistID`: its `ID` bytes; followed by a `primaryCode` item when Primary.
    static let artistRefCode: UInt8 = 203
    static let primaryCode: UInt8 = 204
    /// A field element that was present (empty values included), with no bytes.
    static let presentCode: UInt8 = 205
    /// A text field that held an element: the field's and the element's names (`Field>x`).
    static let elementInFieldCode: UInt8 = 206
    static let end: UInt8 = 255

    // A raw growable buffer: Array's per-append uniqueness and capacity checks cost more
    // than libxml2's own work on this path (measured). Owned by one thread at a time.
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    var records = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1024)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    func reset() {
        count = 0
        records = 0
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always) private func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    @inline(never) private func grow(_ needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let b = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        b.update(from: base, count: count)
        base.deallocate()
        base = b
        capacity = c
    }

    @inline(__always) private func put32(_ v: UInt32, at i: Int) {
        UnsafeMutableRawPointer(base + i).storeBytes(of: v.littleEndian, as: UInt32.self)
    }

    @inline(__always) func beginRecord(_ section: FeedSection, line: Int, column: Int) {
        reserve(9)
        base[count] = UInt8(section.rawValue)
        put32(UInt32(clamping: line), at: count + 1)
        put32(UInt32(clamping: column), at: count + 5)
        count += 9
    }

    @inline(__always) func item(_ code: UInt8, _ value: UnsafeBufferPointer<UInt8>) {
        reserve(5 + value.count)
        base[count] = code
        put32(UInt32(value.count), at: count + 1)
        if let v = value.baseAddress { (base + count + 5).update(from: v, count: value.count) }
        count += 5 + value.count
    }

    @inline(__always) func empty(_ code: UInt8) {
        reserve(5)
        base[count] = code
        put32(0, at: count + 1)
        count += 5
    }

    /// Starts an item whose bytes arrive in pieces; returns where to patch the length.
    @inline(__always) func beginItem(_ code: UInt8) -> Int {
        empty(code)
        return count
    }

    @inline(__always) func append(_ piece: UnsafeBufferPointer<UInt8>) {
        reserve(piece.count)
        if let p = piece.baseAddress { (base + count).update(from: p, count: piece.count) }
        count += piece.count
    }

    @inline(__always) func endItem(_ start: Int) {
        put32(UInt32(count - start), at: start - 4)
    }

    @inline(__always) func endRecord() {
        reserve(1)
        base[count] = Self.end
        count += 1
        records += 1
    }
}

/// Decodes batches into drafts and hands them to the collector (the worker side).
struct RawRecordDecoder {
    private var draft = RecordDraft()
    private let camefrom: [UInt8]
    /// The text of a URL whose placeholder is replaced (`withPlaceholderReplaced`).
    private var scratch: [UInt8] = []
    private static let placeholder = Array("[=CAMEFROM=]".utf8)

    init(camefrom: String) {
        self.camefrom = Array(camefrom.utf8)
    }

    mutating func decode(_ batch: RawRecordBatch, into collector: inout FeedCollector) {
        do {
            let buf = batch.bytes
            var i = 0
            func u32(_ at: Int) -> Int {
                Int(buf[at]) | Int(buf[at + 1]) << 8 | Int(buf[at + 2]) << 16 | Int(buf[at + 3]) << 24
            }
            while i < buf.count {
                let section = FeedSection(rawValue: Int(buf[i]))!
                draft.reset(section: section, line: u32(i + 1), column: u32(i + 5), id: nil)
                i += 9
                while buf[i] != RawRecordBatch.end {
                    let code = buf[i]
                    let n = u32(i + 1)
                    let value = UnsafeBufferPointer(rebasing: buf[(i + 5)..<(i + 5 + n)])
                    i += 5 + n
                    switch code {
                    case RawRecordBatch.idCode: draft.idText = TextNormalizer.clean(value) ?? ""
                    case RawRecordBatch.onsaleTypeCode: draft.onsaleType = TextNormalizer.clean(value) ?? ""
                    case RawRecordBatch.presaleTypeCode: draft.presaleType = TextNormalizer.clean(value) ?? ""
                    case RawRecordBatch.artistRefCode: draft.artistRefs.append((TextNormalizer.clean(value) ?? "", false))
                    case RawRecordBatch.primaryCode: draft.artistRefs[draft.artistRefs.count - 1].primary = true
                    case RawRecordBatch.presentCode: break
                    case RawRecordBatch.elementInFieldCode: draft.elementInField = String(decoding: value, as: UTF8.self)
                    default:
                        let f = FeedField(rawValue: Int(code))!
                        draft.markPresent(f)
                        if f == .artistImageURL || f == .venueImageURL {
                            draft[f] = interned(value)
                        } else if f.isURL {
                            draft[f] = withPlaceholderReplaced(value) { TextNormalizer.clean($0) }
                        } else {
                            draft[f] = TextNormalizer.clean(value)
                        }
                    }
                }
                i += 1
                collector.finish(draft)
            }
        }
    }

    /// Image URLs repeat (most records use one of a few generic images): the same bytes as
    /// the last value give the same String, one allocation shared by thousands of records.
    private var lastImage: [UInt8] = []
    private var lastImageString: String?

    private mutating func interned(_ v: UnsafeBufferPointer<UInt8>) -> String? {
        if let s = lastImageString, lastImage.withUnsafeBufferPointer({ ByteScan.equal(v, $0) }) { return s }
        let s = withPlaceholderReplaced(v) { TextNormalizer.clean($0) }
        lastImage = Array(v)
        lastImageString = s
        return s
    }

    /// `[=CAMEFROM=]` replaced by the affiliate code (feed.md "Normalisation"), every
    /// occurrence (the real feed has one a URL at most), the code itself not searched again.
    /// The replaced text is built in `scratch`, reused from URL to URL (an array per URL
    /// was ~5 % of the records' thread: parse-feed-log.md, "Prices from their bytes").
    private mutating func withPlaceholderReplaced<R>(_ v: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard var at = Self.placeholderOffset(in: v) else { return body(v) }
        let n = Self.placeholder.count
        scratch.removeAll(keepingCapacity: true)
        var rest = v
        while true {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: rest[..<at]))
            scratch.append(contentsOf: camefrom)
            rest = UnsafeBufferPointer(rebasing: rest[(at + n)...])
            guard let next = Self.placeholderOffset(in: rest) else { break }
            at = next
        }
        scratch.append(contentsOf: rest)
        return scratch.withUnsafeBufferPointer(body)
    }

    /// Where the first `[=CAMEFROM=]` starts in `v`, if anywhere.
    private static func placeholderOffset(in v: UnsafeBufferPointer<UInt8>) -> Int? {
        let p = placeholder
        guard v.count >= p.count else { return nil }
        var i = 0
        let last = v.count - p.count
        while i <= last {
            if v[i] == p[0] && v[i + 1] == p[1] && v[i + 11] == p[11]
                && p.withUnsafeBufferPointer({ ByteScan.equal(UnsafeBufferPointer(rebasing: v[i..<i + p.count]), $0) }) {
                return i
            }
            i += 1
        }
        return nil
    }
}
