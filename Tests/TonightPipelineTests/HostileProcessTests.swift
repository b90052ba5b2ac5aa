import Foundation
import Testing
import TonightCore
import TonightGenerator
@testable import TonightPipeline

/// The whole `tonight` process on hostile files (`HostileFeed.fileAttacks`: entity
/// expansion, external entities, deep nesting, huge text, gzip and zstd bombs): refused with
/// exit 65 and FILE:LINE:COLUMN, nothing of the files they point at leaked. How fast and in
/// how much memory (the goal: 1 s and 64 MiB each) is measured by `tonight-bench hostile`.
@Suite struct HostileProcessTests {
    @Test(.enabled(if: ExternalTool.gzip.isAvailable && ExternalTool.zstd.isAvailable),
          arguments: HostileFeed.fileAttacks.map(\.name))
    func refusedWithAPosition(_ name: String) throws {
        let attack = HostileFeed.fileAttacks.first { $0.name == name }!
        let inputs = temporaryDirectory("tonight-hostile")
        let file = try attack.write(into: inputs)
        let work = temporaryDirectory("tonight-hostile-work")
        let r = try runTonight(["run", "--only", "parse-feed", "--inputs", inputs.path, "--work", work.path])
        #expect(r.status == 65, "\(name): exit \(r.status) \(r.stderr)")
        #expect(r.stderr.contains(file.path + ":"), "\(name): \(r.stderr)")
        #expect(!r.stderr.contains("root:x:0"), "file content leaked")
    }
}
