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

        /// The value of exactly 16 upper-case hex digits (event ids), eight at a time
        /// (`hex8`): a table lookup per digit, and the global table's lazy initialisation
        /// check per id, were most of the parse.
        @inline(__always)
        static func hex16(_ b: UnsafeBufferPointer<UInt8>) -> UInt64? {
            guard b.count == 16, let base = b.baseAddress else { return nil }
            let raw = UnsafeRawPointer(base)
            guard let high = hex8(UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))),
                  let low = hex8(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            else { return nil }
            return high << 32 | low
        }

        /// The value of eight upper-case hex digits held in a word in memory order (the
        /// first digit in the lowest byte), or nil when a byte is anything else. Lane by
        /// lane: four range tests on the bytes' high bits, the digits' values, then packed.
        @inline(__always)
        static func hex8(_ w: UInt64) -> UInt64? {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            // ASCII only: every byte below 0x80, so that adding at most 0x7F to each never
            // carries into the next, and a byte's high bit then says whether it reached a bound.
            guard w & highs == 0 else { return nil }
            let atLeast0 = w &+ 0x50 &* ones, beyond9 = w &+ 0x46 &* ones  // ≥ 0x30, ≥ 0x3A
            let atLeastA = w &+ 0x3F &* ones, beyondF = w &+ 0x39 &* ones  // ≥ 0x41, ≥ 0x47
            guard (atLeast0 & ~beyond9 | atLeastA & ~beyondF) & highs == highs else { return nil }
            // A digit's value is its low nibble, a letter's its low nibble plus 9 (bit 6 set).
            let nibbles = (w & 0x0F0F_0F0F_0F0F_0F0F) &+ ((w >> 6) & ones) &* 9
            // The first digit highest: pairs into bytes, pairs of bytes, then the two halves.
            var v = (nibbles & 0x000F_000F_000F_000F) << 4 | (nibbles >> 8) & 0x000F_000F_000F_000F
            v = (v & 0x0000_00FF_0000_00FF) << 8 | (v >> 16) & 0x0000_00FF_0000_00FF
            return (v & 0xFFFF) << 16 | (v >> 32) & 0xFFFF
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
