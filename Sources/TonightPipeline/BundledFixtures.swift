import Foundation

/// Finds the bundled `Fixtures/` directory: from the current directory, or walking up from
/// the executable (`.build/<triple>/<config>/tonight` lives three levels below the package).
package enum BundledFixtures {
    package static func directory() -> URL? {
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<6 {
            exe.deleteLastPathComponent()
            candidates.append(exe)
        }
        for c in candidates {
            let f = c.appendingPathComponent("Fixtures")
            if FileManager.default.fileExists(atPath: f.appendingPathComponent("tiny/input").path) { return f }
        }
        return nil
    }

    /// The default inputs when neither the config nor `--inputs` names them.
    package static func defaultInputs() -> URL? {
        directory()?.appendingPathComponent("tiny/input")
    }
}
