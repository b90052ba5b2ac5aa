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
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
            n += 1
        }
        if n < limit && bytes.count > limit * 4 { out += "…" }
        return out
    }

    package static func text(_ s: String, limit: Int = 80) -> String { text(Array(s.utf8), limit: limit) }
}
