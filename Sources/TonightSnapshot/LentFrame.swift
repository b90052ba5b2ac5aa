/// A frame's bytes and line starts, lent for one call: a scan that reads every frame once and
/// keeps none (`verify`) decompresses each into the same buffer instead of making a
/// `DecodedFrame` (two arrays) per frame.
struct LentFrame {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Offsets of line starts, plus `bytes.count` at the end.
    let lineStarts: UnsafeBufferPointer<Int32>

    var lineCount: Int { lineStarts.count - 1 }

    /// Line `i` without its newline.
    @inline(__always)
    func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let lo = Int(lineStarts[i]), hi = Int(lineStarts[i + 1])
        return UnsafeBufferPointer(rebasing: bytes[lo..<(hi > lo && bytes[hi - 1] == 0x0A ? hi - 1 : hi)])
    }
}
