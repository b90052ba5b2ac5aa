/// Reads what `BinaryWriter` wrote. Every read is bounds-checked: a truncated or corrupt
/// intermediate file gives a `TonightError`, never a crash or garbage.
package struct BinaryReader {
    private let base: UnsafeRawBufferPointer
    package private(set) var offset: Int
    private let name: String

    /// `buffer` must outlive the reader.
    package init(_ buffer: UnsafeRawBufferPointer, name: String, offset: Int = 0) {
        base = buffer
        self.offset = offset
        self.name = name
    }

    package var isAtEnd: Bool { offset >= base.count }

    private func corrupt(_ what: String) -> TonightError {
        TonightError(
            .invalidInput, "corrupt binary table (\(what) at byte \(offset))", file: name,
            hint: "re-run the stage that wrote it with --force")
    }

    @inline(__always)
    package mutating func readByte() throws -> UInt8 {
        guard offset < base.count else { throw corrupt("unexpected end") }
        let b = base[offset]
        offset += 1
        return b
    }

    @inline(__always)
    package mutating func readUInt64() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try readByte()
            result |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { throw corrupt("varint too long") }
        }
    }

    @inline(__always)
    package mutating func readInt64() throws -> Int64 {
        let u = try readUInt64()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    @inline(__always)
    package mutating func readInt() throws -> Int { Int(try readInt64()) }

    @inline(__always)
    package mutating func readBool() throws -> Bool { try readByte() != 0 }

    @inline(__always)
    package mutating func readDouble() throws -> Double {
        Double(bitPattern: try readFixed())
    }

    @inline(__always)
    package mutating func readFixed() throws -> UInt64 {
        guard offset + 8 <= base.count else { throw corrupt("unexpected end") }
        let v = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: v)
    }

    /// A count or length written as a varint, checked against the bytes left: `n` elements of
    /// at least `bytesPerElement` bytes each must fit (a corrupt count gives an error, not a
    /// trap or a huge allocation).
    @inline(__always)
    package mutating func readCount(bytesPerElement: Int) throws -> Int {
        let n = try readUInt64()
        guard n <= UInt64(base.count - offset) / UInt64(max(1, bytesPerElement)) else {
            throw corrupt("count \(n) past end")
        }
        return Int(n)
    }

    /// A value that must fit in `Int32` (a table index).
    @inline(__always)
    package mutating func readInt32() throws -> Int32 {
        let v = try readInt64()
        guard let i = Int32(exactly: v) else { throw corrupt("index \(v) out of range") }
        return i
    }

    /// A small non-negative number (a kind code, a precision).
    @inline(__always)
    package mutating func readInt(in range: ClosedRange<Int64>) throws -> Int64 {
        let v = try readInt64()
        guard range.contains(v) else { throw corrupt("value \(v) outside \(range)") }
        return v
    }

    /// Reads `count` elements (the count first), each with `element`.
    @inline(__always)
    package mutating func readArray<T>(bytesPerElement: Int, _ element: (inout BinaryReader) throws -> T) throws -> [T] {
        let n = try readCount(bytesPerElement: bytesPerElement)
        var out = [T]()
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try element(&self)) }
        return out
    }

    /// A list of event ids (8 fixed bytes each).
    package mutating func readFixedArray() throws -> [UInt64] {
        try readArray(bytesPerElement: 8) { try $0.readFixed() }
    }

    /// Skips a list of event ids (its count checked against the bytes left); returns its length.
    @discardableResult
    package mutating func skipFixedArray() throws -> Int {
        let n = try readCount(bytesPerElement: 8)
        offset += 8 * n
        return n
    }

    /// A list of strings.
    package mutating func readStringArray() throws -> [String] {
        try readArray(bytesPerElement: 1) { try $0.readString() }
    }

    /// Indices into another table.
    package mutating func readInt32Array() throws -> [Int32] {
        try readArray(bytesPerElement: 1) { try $0.readInt32() }
    }

    package mutating func readString() throws -> String {
        let n = try readCount(bytesPerElement: 1)
        let s = String(decoding: UnsafeRawBufferPointer(rebasing: base[offset..<offset + n]), as: UTF8.self)
        offset += n
        return s
    }

    /// A string's bytes, without making a `String` (valid while the reader's buffer lives).
    package mutating func readStringBytes() throws -> UnsafeRawBufferPointer {
        let n = try readCount(bytesPerElement: 1)
        let bytes = UnsafeRawBufferPointer(rebasing: base[offset..<offset + n])
        offset += n
        return bytes
    }

    package mutating func skipString() throws {
        let n = try readCount(bytesPerElement: 1)
        offset += n
    }

    package mutating func skipOptionalString() throws {
        if try readBool() { try skipString() }
    }

    package mutating func readOptionalString() throws -> String? {
        try readBool() ? try readString() : nil
    }

    package mutating func readOptionalInt64() throws -> Int64? {
        try readBool() ? try readInt64() : nil
    }

    package mutating func readOptionalDouble() throws -> Double? {
        try readBool() ? try readDouble() : nil
    }

    package mutating func readInt64Array() throws -> [Int64] {
        try readArray(bytesPerElement: 1) { try $0.readInt64() }
    }

    /// Skips what `readOptionalDouble` reads.
    package mutating func skipOptionalDouble() throws {
        if try readBool() { _ = try readFixed() }
    }

    /// Skips what `readInt64Array` reads (each varint checked as it is read); returns its
    /// length.
    @discardableResult
    package mutating func skipInt64Array() throws -> Int {
        let n = try readCount(bytesPerElement: 1)
        for _ in 0..<n { _ = try readUInt64() }
        return n
    }
}
