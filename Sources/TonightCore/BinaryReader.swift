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

    package mutating func readString() throws -> String {
        let n = Int(try readUInt64())
        guard n >= 0, offset + n <= base.count else { throw corrupt("string past end") }
        let s = String(decoding: UnsafeRawBufferPointer(rebasing: base[offset..<offset + n]), as: UTF8.self)
        offset += n
        return s
    }

    package mutating func skipString() throws {
        let n = Int(try readUInt64())
        guard n >= 0, offset + n <= base.count else { throw corrupt("string past end") }
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
        let n = Int(try readUInt64())
        guard n <= base.count - offset else { throw corrupt("array length") }
        var out = [Int64]()
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try readInt64()) }
        return out
    }
}
