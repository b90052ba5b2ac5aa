import Foundation

/// The JSON string encoding of keys, exactly as the pipeline's JSON writer produces it
/// (`"` and `\` escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`, the rest raw
/// UTF-8), and its inverse for the index lines. Lookups compare encoded bytes.
///
/// `@usableFromInline`, so that `plain` and `startsRecord`, called once per record by a
/// verification, inline into the snapshot reader.
@usableFromInline
package enum JSONKey {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `key` as a JSON string. The runs between characters that need an escape are
    /// appended whole (a key this project writes has none: one append for the key), where a
    /// byte at a time cost ~50 instructions a byte. `JSONWriter` writes every string so.
    package static func appendEncoded(_ key: String, to out: inout [UInt8]) {
        out.append(0x22)
        var key = key
        key.withUTF8 { buf in
            var start = 0
            for i in 0..<buf.count {
                let c = buf[i]
                if c >= 0x20 && c != 0x22 && c != 0x5c { continue }
                if start < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i])) }
                start = i + 1
                switch c {
                case 0x22: out += [0x5c, 0x22]
                case 0x5c: out += [0x5c, 0x5c]
                case 0x0a: out += [0x5c, UInt8(ascii: "n")]
                case 0x0d: out += [0x5c, UInt8(ascii: "r")]
                case 0x09: out += [0x5c, UInt8(ascii: "t")]
                default: out += [0x5c, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xf)]]
                }
            }
            if start < buf.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start...])) }
        }
        out.append(0x22)
    }

    /// The bytes a record with this key starts with: `{"key":"…"`.
    package static func recordPrefix(_ key: String) -> [UInt8] {
        var out: [UInt8] = []
        appendRecordPrefix(key, to: &out)
        return out
    }

    /// `line` starts with `{"key":`, as every record does. Seven comparisons with constants:
    /// `Sequence.starts(with:)` against a `String.UTF8View` took ~300 instructions a record.
    @inlinable @inline(__always)
    package static func startsRecord(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.count >= 7 && line[0] == 0x7B && line[1] == 0x22 && line[2] == 0x6B && line[3] == 0x65
            && line[4] == 0x79 && line[5] == 0x22 && line[6] == 0x3A
    }

    /// Appends `{"key":"…"` to `out`.
    package static func appendRecordPrefix(_ key: String, to out: inout [UInt8]) {
        out += #"{"key":"#.utf8
        appendEncoded(key, to: &out)
    }

    /// The JSON string starting at `bytes[start]` (the opening quote) when it has no escape:
    /// the range of its contents (raw UTF-8, usable where they lie) and the index after the
    /// closing quote. Nil when it has an escape, is unterminated or does not start there.
    /// Every key this project writes has no escape, so readers lend keys instead of copying.
    @inlinable
    package static func plain(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (contents: Range<Int>, end: Int)? {
        guard start < bytes.count, bytes[start] == 0x22 else { return nil }
        var end = start + 1
        while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5c { end += 1 }
        guard end < bytes.count, bytes[end] == 0x22 else { return nil }
        return ((start + 1)..<end, end + 1)
    }

    /// Decodes the JSON string starting at `bytes[at]` (the opening quote). Returns the raw
    /// UTF-8 bytes and the index after the closing quote, or nil if malformed.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> ([UInt8], Int)? {
        // Most strings (keys, ids) have no escape: one exact copy, where appending byte by
        // byte grew the array four or five times for a ten-byte key (a verification decodes
        // every record's key and every index line's two).
        if let p = plain(bytes, at: start) { return (Array(bytes[p.contents]), p.end) }
        guard start < bytes.count, bytes[start] == 0x22 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        var i = start + 1
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x22 { return (out, i + 1) }
            if c != 0x5c {
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < bytes.count else { return nil }
            switch bytes[i + 1] {
            case 0x22, 0x5c, 0x2f: out.append(bytes[i + 1]); i += 2
            case UInt8(ascii: "n"): out.append(0x0a); i += 2
            case UInt8(ascii: "r"): out.append(0x0d); i += 2
            case UInt8(ascii: "t"): out.append(0x09); i += 2
            case UInt8(ascii: "b"): out.append(0x08); i += 2
            case UInt8(ascii: "f"): out.append(0x0c); i += 2
            case UInt8(ascii: "u"):
                guard i + 6 <= bytes.count, let v = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 2)..<(i + 6)]), as: UTF8.self), radix: 16),
                      let scalar = Unicode.Scalar(v) else { return nil }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                i += 6
            default: return nil
            }
        }
        return nil
    }
}
