import Foundation
import Testing
import TonightTesting

/// The module graph: what `Package.swift` declares, what each target imports and what
/// `Docs/ARCHITECTURE.md` draws must agree, and the layering rules must hold.
@Suite struct ArchitectureTests {
    /// Modules of the toolchain and the platform, never declared as dependencies.
    static let platform: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Darwin", "Dispatch", "Synchronization", "Testing", "XCTest"]

    /// Each target's declared dependencies (products by their module name), from
    /// `swift package dump-package`.
    static let declared: [String: (path: String, type: String, dependencies: Set<String>)] = {
        let scratch = temporaryDirectory("dump-package")
        let result = try! shell("cd '\(packageRoot.path)' && swift package --scratch-path '\(scratch.path)' dump-package")
        precondition(result.status == 0, "swift package dump-package failed: \(result.output)")
        let json = try! JSONSerialization.jsonObject(with: Data(result.output.utf8)) as! [String: Any]
        var targets: [String: (String, String, Set<String>)] = [:]
        for target in json["targets"] as! [[String: Any]] {
            let name = target["name"] as! String
            let type = target["type"] as! String
            let path = target["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
            var dependencies = Set<String>()
            for dependency in target["dependencies"] as! [[String: Any]] {
                if let byName = dependency["byName"] as? [Any], let n = byName.first as? String { dependencies.insert(n) }
                if let target = dependency["target"] as? [Any], let n = target.first as? String { dependencies.insert(n) }
                if let product = dependency["product"] as? [Any], let n = product.first as? String { dependencies.insert(n) }
            }
            targets[name] = (path, type, dependencies)
        }
        return targets
    }()

    /// The modules a target's Swift files import.
    static func imports(of path: String) -> Set<String> {
        let directory = packageRoot.appendingPathComponent(path)
        var modules = Set<String>()
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)!
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try! String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") && !["public", "package", "internal", "private", "fileprivate"].contains($0) }
                // A module name, not the Python inside a bench's string literal ("import sys, csv").
                if words.count >= 2, words[0] == "import", words[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                    modules.insert(String(words[1]))
                }
            }
        }
        return modules.subtracting(platform)
    }

    static let sourceTargets = declared.filter { $0.value.type != "test" && $0.value.type != "system" }.keys.sorted()

    @Test(arguments: sourceTargets)
    func importsMatchDeclaredDependencies(_ target: String) {
        let (path, _, dependencies) = Self.declared[target]!
        let imported = Self.imports(of: path)
        #expect(imported.subtracting(dependencies).isEmpty, "\(target) imports undeclared \(imported.subtracting(dependencies).sorted())")
        #expect(dependencies.subtracting(imported).isEmpty, "\(target) declares unused \(dependencies.subtracting(imported).sorted())")
    }

    /// The edges of the mermaid graph in `Docs/ARCHITECTURE.md` are `Package.swift`'s
    /// dependencies between the package's own non-test targets.
    @Test func architecturePictureMatchesThePackage() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Docs/ARCHITECTURE.md"), encoding: .utf8)
        var drawn = Set<String>()
        for line in text.split(separator: "\n") where line.contains(" --> ") {
            let parts = line.split(separator: " ").map(String.init).filter { !$0.isEmpty }
            if parts.count == 3, parts[1] == "-->" { drawn.insert("\(parts[0]) -> \(parts[2])") }
        }
        let own = Set(Self.declared.filter { $0.value.type != "test" }.keys).subtracting(["TonightTesting"])
        var declared = Set<String>()
        for target in own {
            for dependency in Self.declared[target]!.dependencies where own.contains(dependency) {
                declared.insert("\(target) -> \(dependency)")
            }
        }
        #expect(drawn.subtracting(declared).isEmpty, "drawn but not declared: \(drawn.subtracting(declared).sorted())")
        #expect(declared.subtracting(drawn).isEmpty, "declared but not drawn: \(declared.subtracting(drawn).sorted())")
    }

    /// Every module a target can reach through its declared dependencies.
    static func closure(of target: String) -> Set<String> {
        var seen = Set<String>()
        var stack = [target]
        while let next = stack.popLast() {
            for d in declared[next]?.dependencies ?? [] where seen.insert(d).inserted { stack.append(d) }
        }
        return seen
    }

    @Test func theReaderLibraryStaysSmall() {
        #expect(Self.closure(of: "TonightSnapshot") == ["TonightBase", "CZstd"])
    }

    @Test(arguments: [
        ("TonightCore", "TonightSnapshot"), ("TonightCore", "TonightSnapshotWriter"),
        ("TonightGeo", "TonightFeed"), ("TonightExports", "TonightFeed"), ("TonightGenerator", "TonightFeed"),
        ("TonightBase", "TonightCore"), ("TonightSnapshot", "TonightCore"),
    ])
    func noUpwardOrSidewaysEdge(_ from: String, _ to: String) {
        #expect(!Self.closure(of: from).contains(to), "\(from) reaches \(to)")
    }

    /// `-enforce-exclusivity=unchecked` only where its A/B figure says so (TonightFeed, opt-in).
    @Test func noUnsafeFlagsByDefault() throws {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let unsafe = manifest.components(separatedBy: "unsafeFlags").count - 1
        #expect(unsafe == 1, "unsafeFlags appears \(unsafe) times in Package.swift")
    }
}
