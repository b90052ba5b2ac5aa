import Foundation
import TonightCore

/// Field parsing helpers shared by the loaders.
enum Field {
    @inline(__always) static func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lo = 0
        var hi = b.count
        while lo < hi, b[lo] == 0x20 || b[lo] == 0x09 { lo += 1 }
        while hi > lo, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 { hi -= 1 }
        return UnsafeBufferPointer(rebasing: b[lo..<hi])
    }

    /// An id of 1 to 64 printable characters (no control characters).
    static func id(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        idBytes(b).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// The trimmed bytes of a valid id (1 to 64 characters, no control characters) and
    /// whether they are all ASCII; nil for an invalid id.
    @inline(__always)
    static func idBytes(_ b: UnsafeBufferPointer<UInt8>) -> (bytes: UnsafeBufferPointer<UInt8>, ascii: Bool)? {
        let t = trimmed(b)
        guard !t.isEmpty, t.count <= 256 else { return nil }
        var ascii = true
        for c in t {
            if c < 0x20 || c == 0x7F { return nil }
            if c >= 0x80 { ascii = false }
        }
        if !ascii {
            // Valid UTF-8 only (an id is repeated in outputs: never repaired, never mangled),
            // of printable scalars.
            guard let s = String(validating: t, as: UTF8.self), s.unicodeScalars.count <= 64,
                s.unicodeScalars.allSatisfy(isPrintable)
            else { return nil }
            return (t, false)
        }
        return t.count <= 64 ? (t, true) : nil
    }

    /// user-data.md's "printable characters", as Python's `str.isprintable` has them: not a
    /// control (C0 or C1: U+0085 is a line break to some readers), format (U+202E turns the
    /// text around it right to left, U+200B is invisible), surrogate, private-use or unassigned
    /// scalar, nor a line, paragraph or space separator other than the ASCII space (U+2028, a
    /// no-break space). Until 2026-11-28 only the ASCII controls were refused, so such an id
    /// was published as a key that prints like another one or not at all.
    static func isPrintable(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: false
        case .spaceSeparator: u == " "
        default: true
        }
    }

    @inline(__always) static func int(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        let t = trimmed(b)
        guard !t.isEmpty, t.count <= 18 else { return nil }
        var v: Int64 = 0
        for c in t {
            let d = c &- 48
            guard d < 10 else { return nil }
            v = v * 10 + Int64(d)
        }
        return v
    }

    /// A whole number as `int` reads it, or with a fraction of zeros (`60.0`: pandas writes an
    /// integer column that has a blank as floats, so one session without a duration turned
    /// every other duration into a `bad-number` reject, and the night failed); `decimal` tells
    /// which. `60.5`, `60.` and `6e1` are nil.
    static func wholeNumber(_ b: UnsafeBufferPointer<UInt8>) -> (value: Int64, decimal: Bool)? {
        let t = trimmed(b)
        guard let point = t.firstIndex(of: 0x2E) else { return int(t).map { ($0, false) } }
        let fraction = t[(point + 1)...]
        guard !fraction.isEmpty, fraction.allSatisfy({ $0 == 0x30 }) else { return nil }
        return int(UnsafeBufferPointer(rebasing: t[..<point])).map { ($0, true) }
    }

    /// An amount as PostgreSQL writes its `money` type (and a spreadsheet its currency format)
    /// in a US locale: `$25.00`, `$1,025.50`, `$300`: a dollar sign, then digits grouped by
    /// commas in threes or not grouped, and a decimal fraction. The number the digits make
    /// without the sign and the commas (as `double` reads it), or nil: no sign, any other
    /// grouping (`$1,02`, `$1,0250`: a decimal comma, in another locale), a minus sign
    /// (`-$5.00`), a space after the sign.
    static func money(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        let t = trimmed(b)
        guard t.count > 1, t.count < 64, t[0] == 0x24 else { return nil }  // "$"
        var digits = [UInt8]()
        digits.reserveCapacity(t.count)
        var i = 1, groupStart = 1, grouped = false
        while i < t.count, t[i] != 0x2E {  // the whole part, up to "."
            if t[i] == 0x2C {  // ","
                // A comma closes 1 to 3 digits at first, then exactly 3.
                let n = i - groupStart
                guard n >= 1, n <= 3, !grouped || n == 3 else { return nil }
                grouped = true
                groupStart = i + 1
            } else if t[i] &- 0x30 < 10 {
                digits.append(t[i])
            } else {
                return nil
            }
            i += 1
        }
        guard i > groupStart, !grouped || i - groupStart == 3 else { return nil }
        if i < t.count {  // "." and one digit or more
            guard i + 1 < t.count, t[(i + 1)...].allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
            digits.append(contentsOf: t[i...])
        }
        return digits.withUnsafeBufferPointer { double($0) }
    }

    /// A decimal number, or nil (absent when empty: check `isEmpty` first).
    static func double(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        let t = trimmed(b)
        guard !t.isEmpty, t.count < 40 else { return nil }
        if let v = plainDecimal(t) { return v }
        for c in t where !((c >= 48 && c <= 57) || c == 46 || c == 45 || c == 43 || c == 101 || c == 69) { return nil }
        guard let v = Double(String(decoding: t, as: UTF8.self)), v.isFinite else { return nil }
        return v
    }

    /// `[+-]digits[.digits]` with 15 digits or fewer and at least one, as the correctly
    /// rounded double (what `strtod` returns): the digits as an integer below 10^15, exact in a
    /// double, divided by an exact power of ten, one correctly rounded operation (Clinger's
    /// fast path). Nil for any other text, which takes the general parse. Coordinates, radii and
    /// budgets are such text; the general parse made a `String` and called `strtod` per cell.
    @inline(__always)
    static func plainDecimal(_ t: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = t.count
        var negative = false
        if t[0] == 45 || t[0] == 43 {
            negative = t[0] == 45
            i = 1
        }
        var mantissa: UInt64 = 0, digits = 0, fraction = 0
        var point = false
        while i < n {
            let c = t[i]
            if c &- 48 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(c &- 48)
                digits += 1
                if point { fraction += 1 }
            } else if c == 46 && !point {
                point = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, digits <= 15 else { return nil }
        let v = Double(mantissa) / powersOfTen[fraction]
        return negative ? -v : v
    }

    /// 10^0 … 10^15, each exact in a double.
    static let powersOfTen: [Double] = (0...15).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    static func isEmpty(_ b: UnsafeBufferPointer<UInt8>) -> Bool { trimmed(b).isEmpty }

    static func text(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        TextNormalizer.clean(trimmed(b))
    }

    /// Appends what `text(b)` returns (empty for nil) to `strings`, without a String for
    /// ASCII text (nearly every cell).
    @inline(__always)
    static func appendText(_ b: UnsafeBufferPointer<UInt8>, to strings: inout ByteStrings) {
        var t = trimmed(b)
        var lo = 0, hi = t.count
        while lo < hi, TextNormalizer.isASCIISpace(t[lo]) { lo += 1 }
        while hi > lo, TextNormalizer.isASCIISpace(t[hi - 1]) { hi -= 1 }
        t = UnsafeBufferPointer(rebasing: t[lo..<hi])
        for c in t where c >= 0x80 {
            strings.append(text(t) ?? "")
            return
        }
        strings.append(t)
    }
}
