import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

@Suite struct ConfigTests {
    @Test func shippedConfigLoadsAndHoldsEveryKey() throws {
        let url = packageRoot.appendingPathComponent("Pipelines/nightly.yaml")
        let config = try TonightConfig.load(url)
        #expect(config.double("recommendations.explore.timeDecayDays") == 21)
        let text = try String(contentsOf: url, encoding: .utf8)
        for key in ConfigSchema.keys {
            let leaf = String(key.name.split(separator: ".").last!)
            #expect(text.contains(leaf + ":"), "Pipelines/nightly.yaml does not mention \(key.name)")
        }
    }

    @Test func unknownKeyIsAnErrorWithItsLine() throws {
        let yaml = "feed:\n  camefrom: x\n  camefrom_typo: y\n"
        #expect {
            try TonightConfig.parse(yaml, path: "c.yaml")
        } throws: { error in
            let e = error as? TonightError
            return e?.message.contains("feed.camefrom_typo") == true && e?.line == 3 && e?.exitCode == 2
        }
    }

    @Test func wrongTypeIsAnError() throws {
        #expect(throws: TonightError.self) {
            try TonightConfig.parse("recommendations:\n  explore:\n    size: many\n", path: "c.yaml")
        }
    }

    @Test func nestedAndDottedValues() throws {
        let c = try TonightConfig.parse("recommendations:\n  excludedStatuses: [4, 5]\n  tonight:\n    from: \"18:00\"\n", path: "c.yaml")
        #expect(c.intList("recommendations.excludedStatuses") == [4, 5])
        #expect(c.string("recommendations.tonight.from") == "18:00")
        #expect(c.int("snapshot.retain") == 7)
    }
}
