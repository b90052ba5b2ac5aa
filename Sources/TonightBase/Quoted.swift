/// Text taken from a file or an argument, made safe to repeat in a message or a report: control
/// characters escaped, invalid UTF-8 replaced, at most `limit` characters.
package enum Quoted {
    package static func text(_ bytes: some Collection<UInt8>, limit: Int = 80) -> String {
        let decoded = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        var out = ""
        var n = 0
        for scalar in decoded.unicodeScalars {
            if n == limit {
                out += "…"
                break
            }
            append(scalar, to: &out)
            n += 1
        }
        if n < limit && bytes.count > limit * 4 { out += "…" }
        return out
    }

    package static func text(_ s: String, limit: Int = 80) -> String { text(Array(s.utf8), limit: limit) }

    /// `s` as one line of a terminal or a log: its control characters (C0, DEL, C1; line
    /// breaks and escape sequences among them) escaped, whatever its length. What the
    /// command's error and human log lines pass through, so that a message which took text
    /// from an input without `text` still cannot move the cursor, recolour the terminal,
    /// set its title or forge a log line.
    package static func line(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = ""
        for scalar in s.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// Appends `scalar`, a control character as Swift would spell it (`\t`, `\n`, `\u{1B}`),
    /// but NUL as `\u{0}`: `\0` followed by digits would read as another character.
    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        if !isControl(scalar) {
            out.unicodeScalars.append(scalar)
        } else {
            out += scalar.value == 0 ? "\\u{0}" : scalar.escaped(asASCII: true)
        }
    }

    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
    }
}
