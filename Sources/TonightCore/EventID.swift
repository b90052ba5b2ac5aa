/// Event id text form.
package enum EventID {
    /// The 16 upper-case hex digits of `id` (one allocation: the string's own).
    package static func format(_ id: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            let p = UnsafeMutableRawPointer(buffer.baseAddress!)
            p.storeBytes(of: JSONCursor.hexDigits(UInt32(truncatingIfNeeded: id >> 32)), as: UInt64.self)
            p.storeBytes(of: JSONCursor.hexDigits(UInt32(truncatingIfNeeded: id)), toByteOffset: 8, as: UInt64.self)
            return 16
        }
    }

    /// Parses exactly 16 hex digits (either case): `parse` on the bytes where they lie (a
    /// copy first for a collection not stored contiguously).
    package static func parse(_ s: some Collection<UInt8>) -> UInt64? {
        if let v = s.withContiguousStorageIfAvailable({ parse($0) }) { return v }
        return Array(s).withUnsafeBufferPointer { parse($0) }
    }

    package static func parse(_ s: String) -> UInt64? {
        var s = s
        return s.withUTF8 { parse($0) }
    }

    /// `parse` on raw bytes (concrete: the loaders call it per row from another module, where
    /// the generic version would run unspecialised). Eight digits at a time: a digit-or-letter
    /// choice per byte was a mispredicted branch on most ids (follows and dismissals: 1.15 M
    /// ids, 3.4 % of load-tickets).
    package static func parse(_ s: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard s.count == 16, let base = s.baseAddress else { return nil }
        let p = UnsafeRawPointer(base)
        guard let high = hexWord(p.loadUnaligned(as: UInt64.self)),
              let low = hexWord(p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    /// The value of eight hex digits (either case) loaded little-endian from their text (the
    /// first digit in the lowest byte), or nil when a byte is not a hex digit. Each byte is
    /// tested by adding to it (no byte carries into the next: all are below 0x80 by then).
    @inline(__always)
    static func hexWord(_ x: UInt64) -> UInt32? {
        // Per-byte constants (Swift's `&` binds as tightly as `&*`: no products inline).
        let highs: UInt64 = 0x8080_8080_8080_8080, lowBits: UInt64 = 0x0101_0101_0101_0101
        guard x & highs == 0 else { return nil }
        // 0x30…0x39: b + 0x50 reaches 0x80, b + 0x46 does not.
        let digit = (x &+ 0x5050_5050_5050_5050) & ~(x &+ 0x4646_4646_4646_4646) & highs
        // A–F or a–f: b | 0x20 in 0x61…0x66.
        let lower = x | 0x2020_2020_2020_2020
        let letter = (lower &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(lower &+ 0x1919_1919_1919_1919) & highs
        guard digit | letter == highs else { return nil }
        // Each byte's value: its low nibble, plus 9 for a letter (bit 6 is set in letters only).
        var v = (x & 0x0F0F_0F0F_0F0F_0F0F) &+ ((x >> 6) & lowBits) &* 9
        // The first digit is the most significant: bytes reversed, then packed pairwise.
        v = v.byteSwapped
        v = (v | v >> 4) & 0x00FF_00FF_00FF_00FF
        v = (v | v >> 8) & 0x0000_FFFF_0000_FFFF
        v = (v | v >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: v)
    }
}
