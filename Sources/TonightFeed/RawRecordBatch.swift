import Foundation
import TonightCore

/// Records as the SAX thread saw them, before any string work: a full `RawRecordBuffer`
/// handed from the SAX thread to the worker thread that decodes it, so parsing and record
/// building run on the two cores at once; emptied batches come back for their memory.
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

    /// The records' bytes; nil once handed back for reuse (`takeBuffer`).
    private var buffer: RawRecordBuffer?

    /// A batch that owns `buffer`'s memory from now on.
    init(_ buffer: RawRecordBuffer) {
        self.buffer = buffer
    }

    deinit { buffer?.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> {
        guard let b = buffer else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: b.base, count: b.count)
    }

    var records: Int { buffer?.records ?? 0 }

    /// The batch's memory, emptied, for the SAX thread to fill again; the batch holds none
    /// after (nil if it had been taken already).
    func takeBuffer() -> RawRecordBuffer? {
        guard var b = buffer else { return nil }
        buffer = nil
        b.reset()
        return b
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
