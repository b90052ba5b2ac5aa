import Foundation
import TonightBase

/// Text normalisation of feed.md: trim white space, NFC; empty means absent.
package enum TextNormalizer {
    /// Unicode's White_Space within ASCII: space, tab, line feed, vertical tab, form feed and
    /// carriage return. (Until 2026-11-28 the vertical tab and form feed were missing, so an
    /// ASCII export text kept them at its ends while one with a letter beyond ASCII lost them;
    /// XML cannot hold either, so the feed never had them.)
    @inline(__always) package static func isASCIISpace(_ c: UInt8) -> Bool {
        c == 0x20 || (c >= 0x09 && c <= 0x0d)
    }

    /// Trims and NFC-normalises raw UTF-8 bytes; returns nil for an empty result.
    /// ASCII-only values (nearly all of the feed) take a fast path with no Unicode work.
    package static func clean(_ buf: UnsafeBufferPointer<UInt8>) -> String? {
        var lo = 0
        var hi = buf.count
        while lo < hi, isASCIISpace(buf[lo]) { lo += 1 }
        while hi > lo, isASCIISpace(buf[hi - 1]) { hi -= 1 }
        if lo == hi { return nil }
        let slice = UnsafeBufferPointer(rebasing: buf[lo..<hi])
        let ascii = ByteScan.isASCII(slice)
        let s = String(decoding: slice, as: UTF8.self)
        // White space beyond ASCII's needs a non-ASCII scalar at an end: an ASCII byte at both
        // ends (the ASCII ones trimmed above) spares the two property lookups.
        if ascii || (isTriviallyNFC(s) && ((slice[0] < 0x80 && slice[slice.count - 1] < 0x80) || !endsInUnicodeSpace(s))) { return s }
        return unicodeClean(s)
    }

    /// Whether the first or last scalar is white space beyond ASCII's (a no-break space, an
    /// em space, U+0085, …: Unicode's White_Space, what `unicodeClean` trims). Before
    /// 2026-11-27 the trivially-NFC path returned such values untrimmed, so a venue's
    /// " Chicago\u{A0}" kept its no-break space and a field of one was not absent.
    @inline(__always) static func endsInUnicodeSpace(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return false }
        return first.properties.isWhitespace || last.properties.isWhitespace
    }

    /// True when no scalar can change under NFC: everything below U+0300 (Latin letters are
    /// precomposed there; combining marks start at U+0300) and the punctuation block from
    /// U+2002 (dashes, quotes) are NFC-stable. Anything else goes through Foundation.
    @inline(__always) static func isTriviallyNFC(_ s: String) -> Bool {
        for u in s.unicodeScalars {
            let v = u.value
            if v < 0x300 || (v >= 0x2002 && v <= 0x206F) || (v >= 0x20A0 && v <= 0x20CF) { continue }
            return false
        }
        return true
    }

    /// Trim Unicode white space and NFC-normalise.
    package static func clean(_ s: String) -> String? {
        var s = s
        return s.withUTF8 { clean($0) }
    }

    static func unicodeClean(_ s: String) -> String? {
        let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        if isTriviallyNFC(trimmed) { return trimmed }
        return trimmed.precomposedStringWithCanonicalMapping
    }

    /// The name key of affinity.md: NFKC case folding, trimmed, inner white space collapsed.
    /// ASCII names (nearly all) take a byte-level fast path with the same result.
    package static func nameKey(_ s: String) -> String {
        var s = s
        if let fast = s.withUTF8({ asciiNameKey($0) }) { return fast }
        return NameKey.general(s)
    }

    /// The key without Foundation for names made of ASCII, precomposed Latin-1 letters and
    /// the common dashes and quotes, for which NFKC is the identity and case folding is a
    /// fixed offset; nil for anything else (the caller takes the general path).
    static func asciiNameKey(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        var out = [UInt8]()
        out.reserveCapacity(b.count)
        guard appendFastNameKey(b, to: &out) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the name key's UTF-8 bytes to `out` (no String is made on the fast path).
    package static func appendNameKey(_ s: String, to out: inout [UInt8]) {
        var s = s
        let mark = out.count
        if s.withUTF8({ appendFastNameKey($0, to: &out) }) { return }
        out.removeLast(out.count - mark)
        out.append(contentsOf: nameKey(s).utf8)
    }

    /// Appends the name key of the UTF-8 text `b` (valid UTF-8: a `String`'s bytes) to `out`:
    /// the same bytes as `appendNameKey(String(decoding: b, as: UTF8.self), to:)`, without
    /// making the `String` on the fast path.
    package static func appendNameKey(_ b: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let mark = out.count
        if appendFastNameKey(b, to: &out) { return }
        out.removeLast(out.count - mark)
        out.append(contentsOf: nameKey(String(decoding: b, as: UTF8.self)).utf8)
    }

    /// The fast path of `nameKey` on bytes; false (with partial output) when it does not apply.
    static func appendFastNameKey(_ b: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        let base = out.count
        var pendingSpace = false
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                i += 1
                if c == 0x20 || (c >= 0x09 && c <= 0x0d) {
                    pendingSpace = out.count > base
                    continue
                }
                if pendingSpace {
                    out.append(0x20)
                    pendingSpace = false
                }
                out.append(c >= 0x41 && c <= 0x5a ? c | 0x20 : c)
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            if c == 0xC3, i + 1 < b.count {
                // U+00C0–U+00FF: upper-case letters fold to lower case by +0x20, but for
                // U+00D7 (×), U+00DF (ß folds to "ss") and U+00F7 (÷).
                let d = b[i + 1]
                guard d >= 0x80, d <= 0xBF, d != 0x97, d != 0x9F, d != 0xB7 else { return false }
                out.append(0xC3)
                out.append(d < 0xA0 ? d + 0x20 : d)
                i += 2
                continue
            }
            if c == 0xE2, i + 2 < b.count, b[i + 1] == 0x80 {
                // – — ‘ ’ “ ” are NFKC-stable and caseless.
                let e = b[i + 2]
                guard e == 0x93 || e == 0x94 || e == 0x98 || e == 0x99 || e == 0x9C || e == 0x9D else { return false }
                out.append(contentsOf: [0xE2, 0x80, e])
                i += 3
                continue
            }
            return false
        }
        return true
    }
}
