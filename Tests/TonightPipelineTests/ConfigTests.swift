import Foundation
import Testing
import TonightCore
@testable import TonightPipeline
import Yams

@Suite struct ConfigTests {
    /// Every leaf key of a YAML mapping, dotted, with its scalar text.
    static func leaves(_ node: Node, _ prefix: String = "") -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in node.mapping ?? [:] {
            let name = prefix.isEmpty ? k.string! : prefix + "." + k.string!
            if let m = v.mapping, ConfigKeys.byName[name] != nil {
                out[name] = ConfigValue.doubleMap(Dictionary(uniqueKeysWithValues: m.map { ($0.key.string!, Double($0.value.string!)!) })).description
            } else if v.mapping != nil {
                out.merge(leaves(v, name)) { a, _ in a }
            } else if let seq = v.sequence {
                out[name] = ConfigValue.intList(seq.compactMap { Int($0.string ?? "") }).description
            } else {
                out[name] = v.string ?? ""
            }
        }
        return out
    }

    /// The shipped file holds exactly the declared keys, each with its default (but the paths).
    @Test func shippedConfigHoldsEveryKeyWithItsDefault() throws {
        let url = packageRoot.appendingPathComponent("Pipelines/nightly.yaml")
        _ = try TonightConfig.load(url)
        let leaves = Self.leaves(try #require(try Yams.compose(yaml: String(contentsOf: url, encoding: .utf8))))
        #expect(Set(leaves.keys) == Set(ConfigKeys.all.map(\.name)))
        let defaults = TonightConfig()
        let file = try TonightConfig.load(url)
        for key in ConfigKeys.all where !key.name.hasPrefix("paths.") {
            #expect(file.canonical([key]) == defaults.canonical([key]), "\(key.name) in Pipelines/nightly.yaml differs from its default")
        }
    }

    @Test func everyDefaultFollowsItsOwnRule() {
        #expect(ConfigKeys.all.count == Set(ConfigKeys.all.map(\.name)).count)
        for key in ConfigKeys.all {
            #expect(key.problem(key.defaultConfigValue) == nil, "\(key.name)")
            #expect(!key.doc.isEmpty)
        }
        #expect(ConfigKeys.crossCheck(TonightConfig()) == nil)
    }

    @Test func unknownKeyIsAnErrorWithItsLine() throws {
        let yaml = "feed:\n  camefrom: x\n  camefrom_typo: y\n"
        let e = #expect(throws: TonightError.self) { try TonightConfig.parse(yaml, path: "c.yaml") }
        #expect(e?.message.contains("feed.camefrom_typo") == true && e?.line == 3 && e?.exitCode == 2)
    }

    @Test(arguments: [
        "recommendations:\n  explore:\n    size: many\n", "snapshot:\n  frameBytes: 0x10000\n", "recommendations:\n  radiusKm: .inf\n",
        "recommendations:\n  radiusKm: nan\n", "recommendations:\n  excludedStatuses: 3\n", "feed:\n  camefrom: [a]\n",
        "recommendations:\n  explore:\n    includeFavorites: maybe\n",
    ])
    func wrongTypeIsAnError(_ yaml: String) throws {
        let e = #expect(throws: TonightError.self) { try TonightConfig.parse(yaml, path: "c.yaml") }
        #expect(e?.exitCode == 2 && e?.message.contains("expects") == true, "\(String(describing: e))")
    }

    /// The values an adversarial pass found accepted (or trapping after CURRENT switched):
    /// each is now a usage error naming the key and its line.
    @Test(arguments: [
        ("snapshot:\n  retain: -1\n", "snapshot.retain"), ("recommendations:\n  radiusKm: 1e308\n", "recommendations.radiusKm"),
        ("snapshot:\n  frameBytes: 0\n", "snapshot.frameBytes"), ("catalog:\n  geohashPrecision: 0\n", "catalog.geohashPrecision"),
        ("catalog:\n  geohashPrecision: 100\n", "catalog.geohashPrecision"),
        ("recommendations:\n  explore:\n    timeDecayDays: 0\n", "recommendations.explore.timeDecayDays"),
        ("publish:\n  maxShrink: -1\n", "publish.maxShrink"), ("feed:\n  maxRejectShare: -1\n", "feed.maxRejectShare"),
        ("recommendations:\n  feed:\n    size: -5\n", "recommendations.feed.size"),
        ("recommendations:\n  tonight:\n    from: \"25:00\"\n", "recommendations.tonight.from"),
        ("recommendations:\n  excludedStatuses: [3, -2]\n", "recommendations.excludedStatuses"),
        ("feed:\n  camefrom: \"a\\u0000b\"\n", "feed.camefrom"), ("runs:\n  retain: 0\n", "runs.retain"),
    ])
    func outOfRangeIsAnError(_ yaml: String, _ key: String) throws {
        let e = #expect(throws: TonightError.self) { try TonightConfig.parse(yaml, path: "c.yaml") }
        #expect(e?.exitCode == 2 && e?.message.contains("'\(key)'") == true && e?.line != nil, "\(String(describing: e))")
    }

    @Test func keysBetweenThemselves() throws {
        let e = #expect(throws: TonightError.self) {
            try TonightConfig.parse("recommendations:\n  explore:\n    size: 5\n    minItems: 10\n", path: "c.yaml")
        }
        #expect(e?.message.contains("minItems") == true)
    }

    @Test(arguments: ["feed:\n  camefrom: a\n  camefrom: b\n", "feed:\n  camefrom: a\nfeed:\n  maxRejectShare: 0.1\n"])
    func aKeySetTwiceIsAnError(_ yaml: String) throws {
        let e = #expect(throws: TonightError.self) { try TonightConfig.parse(yaml, path: "c.yaml") }
        #expect(e?.message.contains("is set twice") == true, "\(String(describing: e))")
    }

    /// What could exhaust the YAML parser is refused before it runs.
    @Test(arguments: [
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
        (0..<300).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n"),
        "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n",
        String(repeating: "feed:\n  camefrom: x\n", count: 60_000),
    ])
    func hostileYAMLIsRefusedBeforeParsing(_ yaml: String) throws {
        let e = #expect(throws: TonightError.self) { try TonightConfig.parse(yaml, path: "c.yaml") }
        #expect(e?.exitCode == 2)
    }

    @Test func nestedAndDottedValues() throws {
        let c = try TonightConfig.parse("recommendations:\n  excludedStatuses: [4, 5]\n  tonight:\n    from: \"18:00\"\n", path: "c.yaml")
        #expect(c[ConfigKeys.Recommendations.excludedStatuses] == [4, 5])
        #expect(c[ConfigKeys.Recommendations.Tonight.from] == "18:00")
        #expect(c[ConfigKeys.Snapshot.retain] == 7)
        // A value containing & or * that is not an anchor or alias is fine.
        #expect(try TonightConfig.parse("feed:\n  camefrom: \"&partner*\"\n", path: "c.yaml")[ConfigKeys.Feed.camefrom] == "&partner*")
        #expect(try TonightConfig.parse("feed:\n  camefrom: a&b*c\n", path: "c.yaml")[ConfigKeys.Feed.camefrom] == "a&b*c")
    }

    @Test func aConfigThatIsNotARegularFileIsRefused() throws {
        let e = #expect(throws: TonightError.self) { try TonightConfig.load(URL(fileURLWithPath: "/dev/zero")) }
        #expect(e?.exitCode == 2)
    }
}
