import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

/// A first night (no published snapshot to shrink against) whose users.csv holds its header
/// only: before 2026-11-28 it published an empty explore, feed and tonight list for everyone
/// and exited 0. Now the load stage refuses it and nothing is published, unless
/// `exports.allowEmpty` says the app truly has no users yet.
@Suite struct EmptyExportNightTests {
    static func inputsWithHeaderOnly(_ file: String) throws -> URL {
        let inputs = copyOfTinyInputs()
        let url = inputs.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data((String(text.prefix { $0 != "\n" }) + "\n").utf8).write(to: url)
        return inputs
    }

    @Test(arguments: ["tickets/users.csv", "tickets/favorites.csv", "playmate/players.csv", "playmate/sessions.csv"])
    func aFirstNightWithAHeaderOnlyExportPublishesNothing(_ file: String) throws {
        let inputs = try Self.inputsWithHeaderOnly(file)
        let work = temporaryDirectory(), out = work.appendingPathComponent("out")
        let r = try runTonight(["run", "--inputs", inputs.path, "--work", work.path, "--out", out.path, "--as-of", "2026-01-15T06:00:00Z"])
        #expect(r.status == 65, "\(r.stderr)")
        let name = (file as NSString).lastPathComponent
        #expect(r.stderr.contains("\(inputs.path)/\(file):1: ") && r.stderr.contains("\(name) holds a header and no rows")
                && r.stderr.contains("exports.allowEmpty: true"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("snapshots/CURRENT").path))
    }

    @Test func anAppWithNoUsersYetSaysSo() throws {
        let inputs = try Self.inputsWithHeaderOnly("tickets/users.csv")
        let work = temporaryDirectory(), out = work.appendingPathComponent("out")
        let config = work.appendingPathComponent("allow-empty.yaml")
        try Data("exports:\n  allowEmpty: true\n".utf8).write(to: config)
        let r = try runTonight(["run", "--config", config.path, "--inputs", inputs.path, "--work", work.path, "--out", out.path,
                                "--as-of", "2026-01-15T06:00:00Z"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("snapshots/CURRENT").path))
    }
}
