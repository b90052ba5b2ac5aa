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

    /// Parses exactly 16 hex digits (either case).
    package static func parse(_ s: some Collection<UInt8>) -> UInt64? {
        guard s.count == 16 else { return nil }
        var v: UInt64 = 0
        for c in s {
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt64(d)
        }
        return v
    }

    package static func parse(_ s: String) -> UInt64? { parse(Array(s.utf8)) }

    /// `parse` on raw bytes (concrete: the loaders call it per row from another module, where
    /// the generic version would run unspecialised).
    package static func parse(_ s: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard s.count == 16 else { return nil }
        var v: UInt64 = 0
        for c in s {
            let d: UInt8
            if c &- 0x30 < 10 { d = c &- 0x30 }
            else if c &- 0x61 < 6 { d = c &- 0x61 &+ 10 }
            else if c &- 0x41 < 6 { d = c &- 0x41 &+ 10 }
            else { return nil }
            v = v << 4 | UInt64(d)
        }
        return v
    }
}
