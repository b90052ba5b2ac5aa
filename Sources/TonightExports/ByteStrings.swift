/// Byte strings in one arena (row `i` is `bytes[starts[i] ..< starts[i + 1]]`).
struct ByteStrings: Sendable {
    private(set) var bytes: [UInt8] = []
    private(set) var starts: [Int32] = [0]

    mutating func reserve(count: Int, bytes n: Int) {
        starts.reserveCapacity(count + 1)
        bytes.reserveCapacity(n)
    }

    var count: Int { starts.count - 1 }

    @inline(__always) mutating func append(_ b: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: b)
        starts.append(Int32(bytes.count))
    }

    @inline(__always) mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }

    @inline(__always) func isEmpty(_ i: Int) -> Bool { starts[i] == starts[i + 1] }

    @inline(__always)
    func withBytes<R>(of i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let lo = Int(starts[i]), hi = Int(starts[i + 1])
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[lo..<hi])) }
    }

    /// Appends every row of `other`.
    mutating func append(contentsOf other: ByteStrings) {
        let base = Int32(bytes.count)
        bytes += other.bytes
        starts.reserveCapacity(starts.count + other.count)
        for k in 1..<other.starts.count { starts.append(base + other.starts[k]) }
    }

    /// Appends row `i` of `other`.
    @inline(__always) mutating func append(row i: Int, of other: ByteStrings) {
        other.withBytes(of: i) { append($0) }
    }
}
