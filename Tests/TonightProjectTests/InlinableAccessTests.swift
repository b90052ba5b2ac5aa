import Foundation
import Testing
import TonightTesting

/// ARCHITECTURE.md's access rule: an `@inlinable` member is inlined into another module only
/// when its type is `@usableFromInline` or `public` (Swift 6.3 keeps every call into a plain
/// `package` type a call, silently: `JSONKey.plain`, `IDPositions`' lookup, `IntegerSet.contains`
/// and `RenderedItems` were `@inlinable` for nothing until 2026-11-29). So every `@inlinable`
/// line in `Sources/` must sit in a type declared so.
@Suite struct InlinableAccessTests {
    struct Declaration {
        let name: String
        let indent: Int
        let usable: Bool
    }

    /// `[attributes] [modifiers] struct|enum|class|actor|extension Name`.
    static let declaration = try! NSRegularExpression(
        pattern: #"^\s*((?:@\w+\s+)*)((?:public|package|internal|private|fileprivate|final|indirect)\s+)*(struct|enum|class|actor|extension)\s+([\w.]+)"#)

    static func indent(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }

    static func match(_ line: Substring) -> (kind: String, name: String)? {
        let s = String(line)
        guard let m = declaration.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)),
              let kind = Range(m.range(at: 3), in: s), let name = Range(m.range(at: 4), in: s) else { return nil }
        return (String(s[kind]), String(s[name].split(separator: ".").last!))
    }

    /// For each `@inlinable` line of `lines`: the type it sits in (the nearest line above with
    /// less indentation that is not a comment or a line of attributes alone) and whether it is declared
    /// `@usableFromInline` or `public` (on its line or the one above). Extensions answer for
    /// the type they extend, looked up in `usableTypes`.
    static func violations(in lines: [Substring], file: String, usableTypes: [String: Bool]) -> [String] {
        var found: [String] = []
        for (i, line) in lines.enumerated() where line.contains("@inlinable") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            let inner = indent(line)
            var j = i - 1
            while j >= 0 {
                let t = lines[j].trimmingCharacters(in: .whitespaces)
                let attributeOnly = t.hasPrefix("@") && match(lines[j]) == nil
                if !t.isEmpty && !t.hasPrefix("//") && !attributeOnly && indent(lines[j]) < inner { break }
                j -= 1
            }
            guard j >= 0, let (kind, name) = match(lines[j]) else {
                found.append("\(file):\(i + 1): @inlinable outside a type declaration")
                continue
            }
            let usable = kind == "extension" ? usableTypes[name] ?? true : isUsable(lines, at: j)
            if !usable { found.append("\(file):\(i + 1): @inlinable in \(name), which is neither @usableFromInline nor public") }
        }
        return found
    }

    static func isUsable(_ lines: [Substring], at j: Int) -> Bool {
        let line = lines[j], above = j > 0 ? lines[j - 1].trimmingCharacters(in: .whitespaces) : ""
        return line.contains("@usableFromInline") || above.hasPrefix("@usableFromInline") || line.contains("public ")
    }

    static func sources() -> [(path: String, lines: [Substring])] {
        let root = packageRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
        return files.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            (url.path.replacingOccurrences(of: packageRoot.path + "/", with: ""),
             try! String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    @Test func everyInlinableMemberIsInAUsableType() {
        let files = Self.sources()
        var usable: [String: Bool] = [:]
        for (_, lines) in files {
            for (j, line) in lines.enumerated() {
                if let (kind, name) = Self.match(line), kind != "extension" { usable[name] = Self.isUsable(lines, at: j) }
            }
        }
        let found = files.flatMap { Self.violations(in: $0.lines, file: $0.path, usableTypes: usable) }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        // The scan sees the members it is about (a scan that found none would pass anything).
        #expect(files.reduce(0) { $0 + $1.lines.filter { $0.contains("@inlinable") }.count } > 30)
    }

    /// The rule's own cases: a plain `package` type fails, `@usableFromInline` (above or on
    /// the line) and `public` pass, and a nested type answers for its own members.
    @Test func theScanTellsTheCasesApart() {
        func check(_ text: String) -> [String] {
            Self.violations(in: text.split(separator: "\n", omittingEmptySubsequences: false), file: "x.swift", usableTypes: ["Plain": false])
        }
        #expect(check("package struct Plain {\n    /// Doc.\n    @inlinable\n    package func f() {}\n}").count == 1)
        #expect(check("@usableFromInline\npackage struct A {\n    @inlinable package func f() {}\n}").isEmpty)
        #expect(check("@usableFromInline package enum A {\n    @inlinable package static func f() {}\n}").isEmpty)
        #expect(check("public struct A {\n    @inlinable public func f() {}\n}").isEmpty)
        #expect(check("@usableFromInline\npackage struct A {\n    package struct Inner {\n        @inlinable func f() {}\n    }\n}").count == 1)
        #expect(check("extension Plain {\n    @inlinable package func f() {}\n}").count == 1)
    }
}
