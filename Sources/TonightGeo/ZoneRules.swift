import TonightCore

/// The rules of one IANA time zone, read from its compiled TZif file (RFC 8536): the UTC
/// offset in effect at any instant. Foundation on Linux answers from a copy of the database
/// frozen into the toolchain; this reads the system's, which the OS keeps current.
package struct ZoneRules: Sendable, Equatable {
    /// The zone's name (`America/Vancouver`).
    package let name: String
    /// Transition instants (UTC seconds), strictly increasing.
    package let transitions: [Int64]
    /// Per transition: the offset east of UTC that starts there.
    package let offsets: [Int32]
    /// The offset before the first transition (time type 0).
    package let initialOffset: Int32
    /// The rule for instants after the last transition (the file's footer), if any.
    package let footer: PosixTimeZoneRule?

    package init(name: String, transitions: [Int64], offsets: [Int32], initialOffset: Int32, footer: PosixTimeZoneRule?) {
        precondition(transitions.count == offsets.count)
        self.name = name
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.footer = footer
    }

    /// The offset east of UTC, in seconds, at UTC instant `t`.
    package func offset(at t: Int64) -> Int {
        guard let last = transitions.last else {
            return footer?.offset(at: t) ?? Int(initialOffset)
        }
        if t >= last, let footer { return footer.offset(at: t) }
        if t < transitions[0] { return Int(initialOffset) }
        // The last transition at or before t.
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return Int(offsets[lo - 1])
    }

    /// The wall-clock time at UTC instant `t`, as seconds since the epoch without a zone.
    package func local(_ t: Int64) -> Int64 { t + Int64(offset(at: t)) }

    /// The UTC instant of a wall-clock time: in a gap (spring forward) the later offset is
    /// used, in an overlap (fall back) the earlier one; the generator needs no more.
    package func utc(local: Int64) -> Int64 {
        let first = local - Int64(offset(at: local))
        return local - Int64(offset(at: first))
    }
}

extension ZoneRules {
    /// Why a TZif file could not be read.
    package struct FormatError: Error, Sendable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Parses a TZif file (versions 1 to 4). Version 2+ files are read from their 64-bit
    /// block and footer; a version 1 file from its 32-bit block.
    package init(tzif b: [UInt8], name: String) throws {
        func fail(_ m: String) -> FormatError { FormatError(message: m) }
        var at = 0
        func u32() throws -> UInt32 {
            guard at + 4 <= b.count else { throw fail("truncated at byte \(at)") }
            defer { at += 4 }
            return UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
        }
        func i64() throws -> Int64 {
            let hi = UInt64(try u32()), lo = UInt64(try u32())
            return Int64(bitPattern: hi << 32 | lo)
        }
        struct Header { var isut, isstd, leap, time, type, char: Int; var version: UInt8 }
        func header() throws -> Header {
            guard at + 20 <= b.count, b[at] == 0x54, b[at + 1] == 0x5A, b[at + 2] == 0x69, b[at + 3] == 0x66 else {
                throw fail("not a TZif file (no TZif magic at byte \(at))")
            }
            let version = b[at + 4]
            at += 20
            let counts = try (0..<6).map { _ in Int(try u32()) }
            guard counts.allSatisfy({ $0 < 1 << 20 }) else { throw fail("implausible counts in the header") }
            return Header(isut: counts[0], isstd: counts[1], leap: counts[2], time: counts[3], type: counts[4],
                          char: counts[5], version: version)
        }
        var h = try header()
        var timeSize = 4
        if h.version >= UInt8(ascii: "2") {
            // Skip the 32-bit block; the 64-bit header and block follow it.
            at += h.time * 5 + h.type * 6 + h.char + h.leap * 8 + h.isstd + h.isut
            h = try header()
            timeSize = 8
        }
        guard h.type >= 1 else { throw fail("no local time types") }
        guard h.leap == 0 else {
            throw fail("the file counts leap seconds (a `right/` zone); use the zones of the posix tree")
        }
        guard h.isut == 0 || h.isut == h.type, h.isstd == 0 || h.isstd == h.type else { throw fail("inconsistent counts") }
        var transitions: [Int64] = []
        transitions.reserveCapacity(h.time)
        for _ in 0..<h.time {
            let t = timeSize == 8 ? try i64() : Int64(Int32(bitPattern: try u32()))
            if let last = transitions.last, t <= last { throw fail("transition times are not increasing") }
            transitions.append(t)
        }
        guard at + h.time + h.type * 6 + h.char <= b.count else { throw fail("truncated in the data block") }
        let typeIndexes = Array(b[at..<at + h.time])
        at += h.time
        var typeOffsets: [Int32] = []
        for _ in 0..<h.type {
            let o = Int32(bitPattern: try u32())
            guard abs(Int(o)) < 26 * 3600 else { throw fail("UT offset \(o) s out of range") }
            typeOffsets.append(o)
            at += 2  // isdst, designation index: not needed for offsets
        }
        at += h.char + h.leap * (timeSize + 4) + h.isstd + h.isut
        guard at <= b.count else { throw fail("truncated in the data block") }
        var offsets: [Int32] = []
        offsets.reserveCapacity(h.time)
        for i in typeIndexes {
            guard Int(i) < typeOffsets.count else { throw fail("transition names time type \(i) of \(typeOffsets.count)") }
            offsets.append(typeOffsets[Int(i)])
        }
        var footer: PosixTimeZoneRule?
        if timeSize == 8 {
            // "\n" TZ string "\n"; an empty string means no rule.
            guard at < b.count, b[at] == 0x0A, let end = b[(at + 1)...].firstIndex(of: 0x0A) else {
                throw fail("missing footer")
            }
            let text = String(decoding: b[(at + 1)..<end], as: UTF8.self)
            if !text.isEmpty {
                guard let rule = PosixTimeZoneRule(text) else { throw fail("footer '\(text)' is not a POSIX TZ rule") }
                footer = rule
            }
        }
        self.init(name: name, transitions: transitions, offsets: offsets, initialOffset: typeOffsets[0], footer: footer)
    }
}
