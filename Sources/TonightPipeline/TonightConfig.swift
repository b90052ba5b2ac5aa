import Foundation
import TonightCore
import Yams

/// The job's configuration: defaults from `ConfigSchema`, overridden by a YAML file.
package struct TonightConfig: Sendable {
    package private(set) var values: [String: ConfigValue]
    /// Where the values came from (for messages).
    package var source: String

    package init() {
        values = Dictionary(uniqueKeysWithValues: ConfigSchema.keys.map { ($0.name, $0.defaultValue) })
        source = "defaults"
    }

    /// Loads a YAML file. Nested mappings name dotted keys (`feed: {camefrom: x}` is
    /// `feed.camefrom`); unknown keys and wrongly typed values are errors with their line.
    package static func load(_ url: URL) throws -> TonightConfig {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw TonightError(.usage, "cannot read config file", file: url.path, hint: "check --config")
        }
        return try parse(text, path: url.path)
    }

    package static func parse(_ text: String, path: String) throws -> TonightConfig {
        var config = TonightConfig()
        config.source = path
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let e as YamlError {
            throw TonightError(.usage, "invalid YAML: \(e)", file: path)
        }
        guard let root else { return config }
        guard case .mapping = root else {
            throw TonightError(.usage, "the config must be a mapping of keys", file: path, line: root.mark.map { $0.line })
        }
        try config.apply(root, prefix: "", path: path)
        return config
    }

    private mutating func apply(_ node: Node, prefix: String, path: String) throws {
        guard let mapping = node.mapping else { return }
        for (k, v) in mapping {
            guard let keyName = k.string else {
                throw TonightError(.usage, "config keys must be strings", file: path, line: k.mark?.line)
            }
            let full = prefix.isEmpty ? keyName : prefix + "." + keyName
            if let key = ConfigSchema.byName[full] {
                values[full] = try Self.value(v, for: key, path: path)
            } else if v.mapping != nil, ConfigSchema.keys.contains(where: { $0.name.hasPrefix(full + ".") }) {
                try apply(v, prefix: full, path: path)
            } else {
                let near = ConfigSchema.keys.map(\.name).filter { $0.hasPrefix(prefix) }.prefix(6)
                throw TonightError(
                    .usage, "unknown config key '\(full)'", file: path, line: k.mark?.line, column: k.mark?.column,
                    hint: near.isEmpty ? "see Pipelines/nightly.yaml for every key" : "known here: \(near.joined(separator: ", "))")
            }
        }
    }

    private static func value(_ node: Node, for key: ConfigSchema.Key, path: String) throws -> ConfigValue {
        func bad() -> TonightError {
            TonightError(.usage, "config key '\(key.name)' expects \(key.kind)", file: path, line: node.mark?.line,
                         column: node.mark?.column)
        }
        switch key.kind {
        case .string:
            guard let s = node.string else { throw bad() }
            return .string(s)
        case .int:
            guard let s = node.string, let i = Int(s) else { throw bad() }
            return .int(i)
        case .double:
            guard let s = node.string, let d = Double(s), d.isFinite else { throw bad() }
            return .double(d)
        case .bool:
            guard let b = node.bool else { throw bad() }
            return .bool(b)
        case .stringList:
            guard let seq = node.sequence else { throw bad() }
            return .stringList(try seq.map { guard let s = $0.string else { throw bad() }; return s })
        case .intList:
            guard let seq = node.sequence else { throw bad() }
            return .intList(try seq.map { guard let s = $0.string, let i = Int(s) else { throw bad() }; return i })
        }
    }

    // MARK: typed access

    package mutating func set(_ key: String, _ value: ConfigValue) { values[key] = value }

    package func value(_ key: String) -> ConfigValue {
        guard let v = values[key] else { preconditionFailure("config key \(key) is not in ConfigSchema") }
        return v
    }

    package func string(_ key: String) -> String {
        if case .string(let s) = value(key) { return s }
        preconditionFailure("\(key) is not a string")
    }

    package func int(_ key: String) -> Int {
        if case .int(let i) = value(key) { return i }
        preconditionFailure("\(key) is not an int")
    }

    package func double(_ key: String) -> Double {
        if case .double(let d) = value(key) { return d }
        if case .int(let i) = value(key) { return Double(i) }
        preconditionFailure("\(key) is not a number")
    }

    package func bool(_ key: String) -> Bool {
        if case .bool(let b) = value(key) { return b }
        preconditionFailure("\(key) is not a bool")
    }

    package func intList(_ key: String) -> [Int] {
        if case .intList(let l) = value(key) { return l }
        preconditionFailure("\(key) is not an int list")
    }

    /// The canonical text of the given keys, for fingerprints (`key=value` lines, sorted).
    package func canonical(_ keys: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, value($0).description) })
    }

    /// A hash of the whole effective configuration (for manifests).
    package var hash: String {
        ContentHash.hex(values.keys.sorted().map { "\($0)=\(values[$0]!.description)" }.joined(separator: "\n"))
    }
}
