import Foundation
import TonightCore

/// An append-only byte buffer for fast text generation (no String concatenation on the
/// hot path), with XML escaping and line counting for planted-fault positions.
struct ByteBuffer {
    var bytes: [UInt8] = []

    init(capacity: Int = 1 << 20) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always) mutating func add(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inline(__always) mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always) mutating func add(_ v: Int) { add(String(v)) }
    @inline(__always) mutating func add(_ v: Int64) { add(String(v)) }

    /// Text content or attribute value: `&`, `<`, `>`, `"` escaped.
    mutating func addEscaped(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            for c in buf {
                switch c {
                case UInt8(ascii: "&"): add("&amp;")
                case UInt8(ascii: "<"): add("&lt;")
                case UInt8(ascii: ">"): add("&gt;")
                case UInt8(ascii: "\""): add("&quot;")
                default: bytes.append(c)
                }
            }
        }
    }

    /// CSV field per RFC 4180: quoted when it holds a comma, quote or line break.
    mutating func addCSV(_ s: String) {
        if s.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) {
            bytes.append(34)
            for c in s.utf8 {
                if c == 34 { bytes.append(34) }
                bytes.append(c)
            }
            bytes.append(34)
        } else {
            add(s)
        }
    }

    /// 1-based line number at the current end of the buffer.
    var currentLine: Int { bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) } }

    func write(to url: URL) throws {
        try FileIO.write(bytes, to: url)
    }
}
