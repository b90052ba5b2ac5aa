/// The compact tables of a `KeySet`: ids of the two shapes that make up most references are
/// held in far less memory than a 32-byte slot, so that the probes of a verification pass (a
/// hundred million on a million users) mostly hit the cache.
extension KeySet {
    /// How a key's bytes map to the compact tables. Each mapping is one-to-one on the keys it
    /// accepts, and whether it accepts depends on the bytes alone.
    enum Compact {
        /// Decimal keys at or above this go to the general slots (a bitset of at most 16 MiB).
        static let bitLimit = 1 << 27

        /// The value of a canonical decimal (1–9 digits, no leading zero) below `bitLimit`.
        @inline(__always)
        static func decimal(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
            let n = b.count
            guard n >= 1, n <= 9, n == 1 || b[0] != 0x30 else { return nil }
            var v = 0
            for c in b {
                let d = c &- 0x30
                guard d < 10 else { return nil }
                v = v &* 10 &+ Int(d)
            }
            return v < bitLimit ? v : nil
        }

        /// The value of exactly 16 upper-case hex digits (event ids). Digits are looked up in
        /// a table, not classified by branches (they alternate unpredictably between letters
        /// and digits).
        @inline(__always)
        static func hex16(_ b: UnsafeBufferPointer<UInt8>) -> UInt64? {
            guard b.count == 16 else { return nil }
            var v: UInt64 = 0
            var bad: UInt8 = 0
            hexDigits.withUnsafeBufferPointer { t in
                for c in b {
                    let d = t[Int(c)]
                    bad |= d
                    v = v << 4 | UInt64(d & 0x0F)
                }
            }
            return bad & 0x10 == 0 ? v : nil
        }

        /// A hex digit's value, 0x10 for every other byte.
        static let hexDigits: [UInt8] = (0..<256).map { c in
            switch c {
            case 0x30...0x39: UInt8(c - 0x30)
            case 0x41...0x46: UInt8(c - 0x41 + 10)
            default: 0x10
            }
        }

        /// The first slot of a hex value (a multiplicative hash: the ids need not be random).
        @inline(__always)
        static func slot(_ v: UInt64, _ mask: Int) -> Int {
            let h = (v ^ (v >> 29)) &* 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: h >> 20) & mask
        }
    }

    func insertBit(_ v: Int) {
        let word = v >> 6
        if word >= bits.count {
            var n = bits.count
            while n <= word { n *= 2 }
            let grown = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
            grown.initialize(repeating: 0)
            for k in 0..<bits.count { grown[k] = bits[k] }
            bits.deallocate()
            bits = grown
        }
        let bit: UInt64 = 1 << UInt64(v & 63)
        if bits[word] & bit == 0 {
            bits[word] |= bit
            bitCount += 1
        }
    }

    func insertHex(_ v: UInt64) {
        if v == .max {
            hexHasMax = true
            return
        }
        if (hexCount + 1) * 2 > hexSlots.count { growHex() }
        let mask = hexSlots.count - 1
        var i = Compact.slot(v, mask)
        while hexSlots[i] != 0 {
            if hexSlots[i] == v &+ 1 { return }
            i = (i + 1) & mask
        }
        hexSlots[i] = v &+ 1
        hexCount += 1
    }

    private func growHex() {
        let old = hexSlots
        hexSlots = .allocate(capacity: old.count * 2)
        hexSlots.initialize(repeating: 0)
        let mask = hexSlots.count - 1
        for s in old where s != 0 {
            var i = Compact.slot(s &- 1, mask)
            while hexSlots[i] != 0 { i = (i + 1) & mask }
            hexSlots[i] = s
        }
        old.deallocate()
    }
}
