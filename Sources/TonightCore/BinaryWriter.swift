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

    /// Appends up to `max` bytes written through a cursor (no capacity check per value): for
    /// hot encoders that know a bound for what they write.
    package mutating func appendRaw(max: Int, _ body: (inout RawCursor) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: max))
        let used = bytes.withUnsafeMutableBytes { raw -> Int in
            var cursor = RawCursor(raw.baseAddress! + start, end: raw.baseAddress! + start + max)
            body(&cursor)
            return cursor.written(since: raw.baseAddress! + start)
        }
        bytes.removeLast(max - used)
    }

    package mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }
}

/// Writes `BinaryWriter`'s encodings through a raw pointer (see `BinaryWriter.appendRaw`):
/// the same bytes, without an array append per value. Writing past the bound the caller
/// reserved is a programming error and traps.
package struct RawCursor {
    private var p: UnsafeMutableRawPointer
    private let end: UnsafeMutableRawPointer

    init(_ p: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) {
        self.p = p
        self.end = end
    }

    func written(since start: UnsafeMutableRawPointer) -> Int { p - start }

    @inline(__always) private mutating func byte(_ b: UInt8) {
        precondition(p < end, "RawCursor: write past the reserved bound")
        p.storeBytes(of: b, as: UInt8.self)
        p += 1
    }

    /// A LEB128 varint, as `BinaryWriter.write(_: UInt64)`.
    @inline(__always) package mutating func write(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            byte(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        byte(UInt8(v))
    }

    /// A zig-zag varint, as `BinaryWriter.write(_: Int64)`.
    @inline(__always) package mutating func write(_ v: Int64) { write(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    @inline(__always) package mutating func write(_ v: Bool) { byte(v ? 1 : 0) }

    /// Eight little-endian bytes, as `BinaryWriter.writeFixed`.
    @inline(__always) package mutating func writeFixed(_ v: UInt64) {
        precondition(end - p >= 8, "RawCursor: write past the reserved bound")
        p.storeBytes(of: v.littleEndian, as: UInt64.self)
        p += 8
    }

    /// An optional double, as `BinaryWriter.write(_: Double?)`.
    @inline(__always) package mutating func write(_ v: Double?) {
        if let v {
            byte(1)
            writeFixed(v.bitPattern)
        } else {
            byte(0)
        }
    }

    /// Raw bytes.
    @inline(__always) package mutating func writeRaw(_ b: UnsafeBufferPointer<UInt8>) {
        guard let base = b.baseAddress, b.count > 0 else { return }
        precondition(end - p >= b.count, "RawCursor: write past the reserved bound")
        p.copyMemory(from: base, byteCount: b.count)
        p += b.count
    }

    /// A length-prefixed byte string, as `BinaryWriter.write(_: String)` for the same UTF-8.
    @inline(__always) package mutating func writeBytes(_ b: UnsafeBufferPointer<UInt8>) {
        write(UInt64(b.count))
        writeRaw(b)
    }

    /// A constant string, length-prefixed, as `BinaryWriter.write(_: String)`.
    @inline(__always) package mutating func writeText(_ s: StaticString) {
        s.withUTF8Buffer { writeBytes($0) }
    }
}
