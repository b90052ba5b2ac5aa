/// Tells a text input that is not UTF-8 by its first bytes, for the stages whose inputs are
/// UTF-8 by their spec (the CSV exports, the affinity file): a UTF-16 or UTF-32 byte order
/// mark, or a NUL byte in the first line (UTF-16 without a mark: Excel's "Unicode text").
/// The feed is XML, whose parser reads the declared encoding itself.
package enum TextEncodingCheck {
    /// The encoding the bytes are in when it is not UTF-8, said for an error message; nil
    /// when they may be UTF-8.
    package static func otherEncoding(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32 (little-endian, with a byte order mark)" }
        if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return "UTF-32 (big-endian, with a byte order mark)" }
        if b.starts(with: [0xFF, 0xFE]) { return "UTF-16 (little-endian, with a byte order mark)" }
        if b.starts(with: [0xFE, 0xFF]) { return "UTF-16 (big-endian, with a byte order mark)" }
        let firstLine = b.prefix(4096).prefix { $0 != 0x0A }
        if firstLine.contains(0) { return "UTF-16 or UTF-32 without a byte order mark (its first line holds NUL bytes)" }
        return nil
    }
}
