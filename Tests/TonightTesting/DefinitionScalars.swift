import Foundation

/// One case of `definitionOnEveryScalar`: the scalar, the text it was put in and what the
/// cross-check's definition made of that text.
package struct DefinitionCase: Sendable {
    package var scalar: UInt32
    package var input: String
    package var output: String
}

/// Runs `function` of `scripts/definitions/<module>.py` on `template` with every "{}" replaced
/// by c ("a" + c + "b" by default) for every scalar c from `start` that Python's Unicode
/// assigns (surrogates, unassigned scalars and the general categories in `skipping` left
/// out), the text first composed (NFC) when `composed` (as the loaders' text rule hands it
/// over). Text crosses the pipe as decimal scalar values, so no encoding or line break can
/// garble it. Needs python3 (`ExternalTool.python3`).
package func definitionOnEveryScalar(module: String, function: String, from start: UInt32 = 0x80,
                                     skipping: [String] = [], composed: Bool = true,
                                     template: String = "a{}b") throws -> [DefinitionCase] {
    let scalars = template.unicodeScalars.map { String($0.value) }.joined(separator: ",")
    let skipped = (["Cn"] + skipping).map { "\"\($0)\"" }.joined(separator: ", ")
    let script = """
        import sys, unicodedata
        sys.path.insert(0, "\(packageRoot.appendingPathComponent("scripts").path)")
        from definitions.\(module) import \(function)
        template = "".join(chr(int(x)) for x in "\(scalars)".split(","))
        out = []
        for c in range(\(start), 0x110000):
            if 0xD800 <= c < 0xE000 or unicodedata.category(chr(c)) in (\(skipped),):
                continue
            s = template.replace("{}", chr(c))
            if \(composed ? "True" : "False"):
                s = unicodedata.normalize("NFC", s)
            out.append("%d %s %s" % (c, ",".join(str(ord(x)) for x in s), ",".join(str(ord(x)) for x in \(function)(s)) or "-"))
        print("\\n".join(out))
        """
    let file = temporaryDirectory("definition-scalars").appendingPathComponent("cases.py")
    try script.write(to: file, atomically: true, encoding: .utf8)
    let result = try shell("python3 '\(file.path)'")
    guard result.status == 0 else { throw DefinitionScalarsFailure(message: result.output) }
    func text(_ values: Substring) -> String {
        var s = String.UnicodeScalarView()
        for v in values.split(separator: ",") { if let n = UInt32(v), let u = Unicode.Scalar(n) { s.append(u) } }
        return String(s)
    }
    return try result.output.split(separator: "\n").map { line in
        let parts = line.split(separator: " ")
        guard parts.count == 3, let scalar = UInt32(parts[0]) else { throw DefinitionScalarsFailure(message: "bad line \(line)") }
        return DefinitionCase(scalar: scalar, input: text(parts[1]), output: parts[2] == "-" ? "" : text(parts[2]))
    }
}

/// The definition's script failed or printed something unexpected.
package struct DefinitionScalarsFailure: Error, CustomStringConvertible {
    package var message: String
    package var description: String { "definitionOnEveryScalar: \(message)" }
}
