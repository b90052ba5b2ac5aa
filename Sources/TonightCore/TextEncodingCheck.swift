/// Tells a text input that is not UTF-8 by its first bytes, for the stages whose inputs are
/// UTF-8 by their spec (the CSV exports, the affinity file): a UTF-16 or UTF-32 byte order
/// mark, or, without one, the NUL bytes of ASCII text written in UTF-16 or UTF-32 (Excel's
/// "Unicode text"): every other byte, or three bytes in four. Other bytes with NULs in them
/// (a binary file) are left to the stage's own message.
/// The feed is XML, whose parser reads the declared encoding itself.
package enum TextEncodingCheck {
    /// The encoding the bytes are in when it is not UTF-8, said for an error message; nil
    /// when they may be UTF-8.
    package static func otherEncoding(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32 (little-endian, with a byte order mark)" }
        if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return "UTF-32 (big-endian, with a byte order mark)" }
        if b.starts(with: [0xFF, 0xFE]) { return "UTF-16 (little-endian, with a byte order mark)" }
        if b.starts(with: [0xFE, 0xFF]) { return "UTF-16 (big-endian, with a byte order mark)" }
        // Without a mark: where the NULs of the first bytes fall, by position modulo 4.
        let n = min(b.count, 512) / 4 * 4
        guard n >= 8 else { return nil }
        var zeros = [0, 0, 0, 0]
        for i in 0..<n where b[i] == 0 { zeros[i % 4] += 1 }
        let quarter = n / 4
        func mostly(_ k: Int) -> Bool { zeros[k] * 10 >= quarter * 9 }
        func rarely(_ k: Int) -> Bool { zeros[k] * 10 <= quarter }
        if rarely(0), mostly(1), mostly(2), mostly(3) { return "UTF-32 (little-endian, without a byte order mark)" }
        if mostly(0), mostly(1), mostly(2), rarely(3) { return "UTF-32 (big-endian, without a byte order mark)" }
        if rarely(0), mostly(1), rarely(2), mostly(3) { return "UTF-16 (little-endian, without a byte order mark)" }
        if mostly(0), rarely(1), mostly(2), rarely(3) { return "UTF-16 (big-endian, without a byte order mark)" }
        return nil
    }

    /// The offset of the first byte of `b` that is not part of valid UTF-8, or nil when all
    /// are. ASCII (nearly every field and name) costs one pass over the bytes; the rest is
    /// decoded once, from the first byte past ASCII.
    package static func firstInvalidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let high = b.firstIndex(where: { $0 >= 0x80 }) else { return nil }
        var it = UnsafeBufferPointer(rebasing: b[high...]).makeIterator()
        var decoder = UTF8()
        var at = high
        while true {
            switch decoder.decode(&it) {
            case .scalarValue(let u): at += UTF8.width(u)
            case .emptyInput: return nil
            case .error: return at
            }
        }
    }
}
