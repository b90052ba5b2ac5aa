import Foundation

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

    /// A list for a message: the first `limit` items, then how many more (`a, b, … (3 more)`).
    /// Items are already quoted by the caller; a lazy map over a long list quotes only those
    /// shown.
    package static func list<C: Collection<String>>(_ items: C, limit: Int) -> String {
        items.prefix(limit).joined(separator: ", ") + (items.count > limit ? ", … (\(items.count - limit) more)" : "")
    }

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

    /// `s` as lines of a terminal: each line as `line` gives it, the line breaks kept. For
    /// text made of several lines on purpose (a usage message) that may still repeat an
    /// argument or an error's text.
    package static func lines(_ s: String) -> String {
        // Split by scalars: as `Character`s, "\r\n" is one and would not split at its "\n".
        s.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line(String(String.UnicodeScalarView($0))) }.joined(separator: "\n")
    }

    /// `json` (JSON text) with DEL and the C1 controls, which JSON allows raw in a string,
    /// written as `\u00XX` escapes: the same JSON value, and a terminal that shows it cannot
    /// take U+009B for the start of an escape sequence. JSON encoders escape C0 themselves;
    /// these can only stand inside strings, so the escape is always valid there.
    package static func jsonControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0.value >= 0x7F && $0.value < 0xA0 }) else { return json }
        return String(decoding: jsonControls(Array(json.utf8)), as: UTF8.self)
    }

    /// `jsonControls` on UTF-8 bytes (a record as a dataset holds it): DEL is 0x7F, a C1
    /// control 0xC2 followed by 0x80–0x9F.
    package static func jsonControls(_ json: [UInt8]) -> [UInt8] {
        // One pass without an early exit (the compiler vectorises it) decides for nearly every
        // record: `snapshot get --keys` passes each one through here.
        let plain = json.withUnsafeBufferPointer { b in
            var hit: UInt8 = 0
            for x in b { hit |= (x == 0x7F ? 1 : 0) | (x == 0xC2 ? 1 : 0) }
            return hit == 0
        }
        if plain { return json }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 16)
        var i = 0
        while i < json.count {
            let b = json[i]
            let control: UInt8? = b == 0x7F ? b : b == 0xC2 && i + 1 < json.count && (0x80...0x9F).contains(json[i + 1]) ? json[i + 1] : nil
            guard let control else {
                out.append(b)
                i += 1
                continue
            }
            out += [0x5C, 0x75, 0x30, 0x30, hex[Int(control >> 4)], hex[Int(control & 15)]]  // \u00XX
            i += control == 0x7F ? 1 : 2
        }
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
