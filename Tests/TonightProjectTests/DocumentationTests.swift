import Foundation
import Testing
import TonightTesting

/// The Swift examples of the reader's DocC catalog and of the README compile against the
/// library as built: a renamed or removed API breaks this test, not a reader's first try.
@Suite struct DocumentationTests {
    /// A fenced ```swift block of a Markdown file.
    struct Example: CustomTestStringConvertible, Sendable {
        var file: String
        var line: Int
        var code: String
        var testDescription: String { "\(file):\(line)" }
    }

    static let documents = ["README.md"] + ((try? FileManager.default.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent("Sources/TonightSnapshot/TonightSnapshot.docc").path)) ?? [])
        .filter { $0.hasSuffix(".md") }.sorted().map { "Sources/TonightSnapshot/TonightSnapshot.docc/\($0)" }

    static func examples(in file: String) -> [Example] {
        let text = (try? String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)) ?? ""
        var result: [Example] = []
        var current: (line: Int, lines: [Substring])?
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = (n + 2, [])
            } else if let c = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                result.append(Example(file: file, line: c.line, code: c.lines.joined(separator: "\n")))
                current = nil
            } else if current != nil {
                current!.lines.append(line)
            }
        }
        return result
    }

    static let all = documents.flatMap(examples(in:))

    @Test func thereAreExamplesToCheck() {
        #expect(Self.documents.count >= 4, "\(Self.documents)")
        #expect(Self.all.count >= 8, "\(Self.all.count) examples")
        #expect(Self.all.allSatisfy { $0.code.contains("import TonightSnapshot") }, "every example imports the library it shows")
    }

    @Test(arguments: all)
    func exampleCompiles(_ example: Example) throws {
        let modules = try builtModulesDirectory()
        let directory = temporaryDirectory("doc-example")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Top-level code is allowed in main.swift, as in a script or an executable's entry file.
        let source = directory.appendingPathComponent("main.swift")
        try example.code.write(to: source, atomically: true, encoding: .utf8)
        let modulemap = packageRoot.appendingPathComponent("Sources/CZstd/module.modulemap").path
        let command = "swiftc -typecheck -swift-version 6 -I '\(modules.path)' -Xcc -fmodule-map-file='\(modulemap)' "
            + "-module-cache-path '\(directory.appendingPathComponent("cache").path)' '\(source.path)'"
        let result = try shell(command, mergingStandardError: true)
        #expect(result.status == 0, "\(example.file):\(example.line) does not compile:\n\(result.output)")
        #expect(!result.output.contains("warning:"), "\(example.file):\(example.line) warns:\n\(result.output)")
    }

    /// Links in the README and in Docs/ point at files of the repository (no `../shared`).
    @Test func relativeLinksResolve() throws {
        var files = ["README.md"]
        let docs = FileManager.default.enumerator(atPath: packageRoot.appendingPathComponent("Docs").path)!
        for case let path as String in docs where path.hasSuffix(".md") { files.append("Docs/\(path)") }
        for file in files {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("../shared"), "\(file) points outside the repository")
            let base = packageRoot.appendingPathComponent(file).deletingLastPathComponent()
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close]).split(separator: "#").first.map(String.init) ?? ""
                rest = rest[close...]
                if target.isEmpty || target.contains("://") || target.hasPrefix("mailto:") { continue }
                #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent(target).path), "\(file): broken link \(target)")
            }
        }
    }

    @Test func readmeIsAFrontDoor() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 150, "README.md has \(lines) lines")
        #expect(text.contains("make run") && text.contains("make test"))
    }
}
