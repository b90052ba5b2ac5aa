import Foundation
import TonightCore
import Yams

/// The job's configuration: the defaults of `ConfigKeys`, overridden by a YAML file. Values
/// are read typed (`config[ConfigKeys.Feed.camefrom]`); every value was checked against its
/// key's rule when it was set.
package struct TonightConfig: Sendable {
    package private(set) var values: [String: ConfigValue]
    /// Where the values came from (for messages).
    package var source: String

    /// The largest config file read, and the deepest nesting accepted: checked before the
    /// YAML parser sees the text (a hostile file must not exhaust its stack).
    static let maxFileBytes = 1 << 20
    static let maxIndent = 256
    static let maxFlowDepth = 32

    package init() {
        values = Dictionary(uniqueKeysWithValues: ConfigKeys.all.map { ($0.name, $0.defaultConfigValue) })
        source = "defaults"
    }

    /// The value of `key`.
    package subscript<V>(_ key: ConfigKey<V>) -> V {
        guard let stored = values[key.name], let v = V(stored) else { return key.defaultValue }
        return v
    }

    /// Sets a value (tests, command-line overrides); an invalid value is a usage error.
    package mutating func set<V>(_ key: ConfigKey<V>, _ value: V) throws {
        if let problem = key.check(value) {
            throw TonightError(.usage, "config key '\(key.name)' \(problem) (got \(value.configValue))")
        }
        values[key.name] = value.configValue
    }

    /// Loads a YAML file. Nested mappings name dotted keys (`feed: {camefrom: x}` is
    /// `feed.camefrom`); unknown keys, repeated keys, wrongly typed or out-of-range values are
    /// errors with their line.
    package static func load(_ url: URL) throws -> TonightConfig {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw TonightError(.usage, "cannot read config file", file: url.path, hint: "check --config") }
        var st = stat()
        let regular = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        close(fd)
        guard regular else { throw TonightError(.usage, "the config is not a regular file", file: url.path, hint: "check --config") }
        guard st.st_size <= maxFileBytes else {
            throw TonightError(.usage, "the config file is \(st.st_size) bytes, more than \(maxFileBytes)", file: url.path)
        }
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            throw TonightError(.usage, "cannot read config file as UTF-8", file: url.path, hint: "check --config")
        }
        return try parse(text, path: url.path)
    }

    package static func parse(_ text: String, path: String) throws -> TonightConfig {
        guard text.utf8.count <= maxFileBytes else {
            throw TonightError(.usage, "the config is longer than \(maxFileBytes) bytes", file: path)
        }
        try precheck(text, path: path)
        var config = TonightConfig()
        config.source = path
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let e as YamlError {
            throw TonightError(.usage, "invalid YAML: \(TonightError.quoted("\(e)", limit: 300))", file: path)
        }
        guard let root else { return config }
        guard case .mapping = root else {
            throw TonightError(.usage, "the config must be a mapping of keys", file: path, line: root.mark.map { $0.line })
        }
        var budget = 100_000
        try config.apply(root, prefix: "", path: path, budget: &budget)
        if let problem = ConfigKeys.crossCheck(config) { throw TonightError(.usage, problem, file: path) }
        return config
    }

    /// Refuses, before parsing, what could exhaust the parser: deep indentation, deeply nested
    /// flow collections, anchors and aliases (which can multiply a small file's size).
    static func precheck(_ text: String, path: String) throws {
        var line = 0
        var depth = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            line += 1
            let bytes = Array(raw.utf8)
            var indent = 0
            while indent < bytes.count && (bytes[indent] == 0x20 || bytes[indent] == 0x2D) { indent += 1 }
            if indent > maxIndent {
                throw TonightError(.usage, "nested deeper than \(maxIndent) columns of indentation", file: path, line: line)
            }
            var quote: UInt8 = 0
            var previous: UInt8 = 0x20
            scan: for c in bytes {
                defer { previous = c }
                if quote != 0 {
                    if c == quote { quote = 0 }
                    continue
                }
                let tokenStart = previous == 0x20 || previous == 0x09 || previous == 0x5B || previous == 0x7B
                    || previous == 0x2C || previous == 0x3A || previous == 0x2D
                switch c {
                case 0x22, 0x27:
                    quote = c
                case 0x23 where previous == 0x20 || previous == 0x09:
                    break scan  // a comment to the end of the line
                case 0x5B, 0x7B:
                    depth += 1
                    if depth > maxFlowDepth {
                        throw TonightError(.usage, "flow collections nested deeper than \(maxFlowDepth)", file: path, line: line)
                    }
                case 0x5D, 0x7D:
                    depth = max(0, depth - 1)
                case 0x26 where tokenStart, 0x2A where tokenStart:
                    throw TonightError(.usage, "YAML anchors and aliases (& and *) are not accepted in the config", file: path, line: line,
                                       hint: "write each value out; quote a value that starts with & or *")
                default:
                    continue
                }
            }
        }
    }

    private mutating func apply(_ node: Node, prefix: String, path: String, budget: inout Int) throws {
        guard let mapping = node.mapping else { return }
        var seen: [String: Int] = [:]
        for (k, v) in mapping {
            budget -= 1
            guard budget > 0 else { throw TonightError(.usage, "the config has too many entries", file: path) }
            guard let keyName = k.scalar?.string else {
                throw TonightError(.usage, "config keys must be strings", file: path, line: k.mark?.line)
            }
            let full = prefix.isEmpty ? keyName : prefix + "." + keyName
            if let first = seen[full] {
                throw TonightError(.usage, "config key '\(TonightError.quoted(full))' is set twice (lines \(first) and \(k.mark?.line ?? 0))",
                                   file: path, line: k.mark?.line, hint: "keep one of them")
            }
            seen[full] = k.mark?.line ?? 0
            if let key = ConfigKeys.byName[full] {
                values[full] = try key.value(of: v, path: path)
            } else if v.mapping != nil, ConfigKeys.all.contains(where: { $0.name.hasPrefix(full + ".") }) {
                try apply(v, prefix: full, path: path, budget: &budget)
            } else {
                let near = ConfigKeys.all.map(\.name).filter { $0.hasPrefix(prefix) }.prefix(6)
                throw TonightError(
                    .usage, "unknown config key '\(TonightError.quoted(full))'", file: path, line: k.mark?.line, column: k.mark?.column,
                    hint: near.isEmpty ? "see Pipelines/nightly.yaml for every key" : "known here: \(near.joined(separator: ", "))")
            }
        }
    }

    /// The canonical text of the given keys, for fingerprints.
    package func canonical(_ keys: [any AnyConfigKey]) -> [String: String] {
        Dictionary(keys.map { ($0.name, (values[$0.name] ?? $0.defaultConfigValue).description) }, uniquingKeysWith: { a, _ in a })
    }

    /// A hash of the whole effective configuration (for manifests).
    package var hash: String {
        ContentHash.hex(values.keys.sorted().map { "\($0)=\(values[$0]!.description)" }.joined(separator: "\n"))
    }
}

/// A configuration value with a canonical text form (used in fingerprints).
package enum ConfigValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case intList([Int])
    case doubleMap([String: Double])

    package var description: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .intList(let l): return "[" + l.map(String.init).joined(separator: ",") + "]"
        case .doubleMap(let m): return "{" + m.keys.sorted().map { "\($0)=\(m[$0]!)" }.joined(separator: ",") + "}"
        }
    }
}
