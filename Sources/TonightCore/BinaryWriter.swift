/// Appends values in the compact binary intermediate form: LEB128 varints, zig-zag signed
/// integers, little-endian IEEE doubles and length-prefixed UTF-8 strings.
///
/// Hand-written because no package here offers a fast schema-less binary encoding for plain
/// structs (Codable-based coders cost an order of magnitude more on the hot path).
package struct BinaryWriter: Sendable {
    package private(set) var bytes: [UInt8]

    package init(capacity: Int = 1 << 16) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A writer appending to an emptied buffer handed back for reuse (or a new one).
    package init(reusing buffer: [UInt8]?, capacity: Int) {
        bytes = buffer ?? []
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    package mutating func write(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    @inline(__always)
    package mutating func write(_ v: Int) { write(Int64(v)) }

    @inline(__always)
    package mutating func write(_ v: Int64) {
        write(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    @inline(__always)
    package mutating func write(_ v: Bool) { bytes.append(v ? 1 : 0) }

    @inline(__always)
    package mutating func write(_ v: UInt8) { bytes.append(v) }

    @inline(__always)
    package mutating func write(_ v: Double) {
        var bits = v.bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    package mutating func writeFixed(_ v: UInt64) {
        var bits = v.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }

    package mutating func write(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            write(UInt64(buf.count))
            bytes.append(contentsOf: buf)
        }
    }

    package mutating func write(_ s: String?) {
        if let s {
            write(true)
            write(s)
        } else {
            write(false)
        }
    }

    package mutating func write(_ v: Int64?) {
        if let v {
            write(true)
            write(v)
        } else {
            write(false)
        }
    }

    package mutating func write(_ v: Double?) {
        if let v {
            write(true)
            write(v)
        } else {
            write(false)
        }
    }

    package mutating func write(_ values: [Int64]) {
        write(UInt64(values.count))
        for v in values { write(v) }
    }

    package mutating func writeRaw(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Raw bytes (a concrete overload: the hot loops of other modules call it per row).
    @inline(__always)
    package mutating func writeRaw(_ raw: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: raw) }

    /// Raw bytes of an array (concrete, as above).
    @inline(__always)
    package mutating func writeRaw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    /// A length-prefixed byte string: what `write(_: String)` writes for the same UTF-8.
    @inline(__always)
    package mutating func writeBytes(_ b: UnsafeBufferPointer<UInt8>) {
        write(UInt64(b.count))
        bytes.append(contentsOf: b)
    }

    package mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }
}
