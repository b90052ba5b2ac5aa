import TonightCore
import Yams

/// A value a configuration key may hold: read from YAML, written as canonical text (the form
/// that enters fingerprints).
package protocol ConfigValueType: Sendable, Equatable {
    /// What a wrong value is told it should be (`an integer`).
    static var kindName: String { get }
    /// The value of a YAML node, or nil when the node is of another kind.
    static func read(_ node: Node) -> Self?
    /// The canonical form.
    var configValue: ConfigValue { get }
    /// The value of a canonical form of this type.
    init?(_ value: ConfigValue)
}

/// One configuration key: its dotted name, default, meaning and the rule its values follow.
/// Every key is declared once, in `ConfigKeys`; the YAML file, fingerprints and docs all come
/// from these declarations.
package struct ConfigKey<Value: ConfigValueType>: Sendable {
    /// The dotted name (`feed.limits.maxDepth`).
    package let name: String
    package let defaultValue: Value
    package let doc: String
    /// nil for a valid value, else the rule it breaks (`must be in 1…1000`).
    package let check: @Sendable (Value) -> String?

    package init(_ name: String, _ defaultValue: Value, _ doc: String, check: @escaping @Sendable (Value) -> String? = { _ in nil }) {
        self.name = name
        self.defaultValue = defaultValue
        self.doc = doc
        self.check = check
    }
}

/// Any key, for the registry, the loader and fingerprints.
package protocol AnyConfigKey: Sendable {
    var name: String { get }
    var doc: String { get }
    var defaultConfigValue: ConfigValue { get }
    /// The validated value of a YAML node; the error names the key, the rule and the line.
    func value(of node: Node, path: String) throws -> ConfigValue
    /// The rule a stored value breaks, if any.
    func problem(_ value: ConfigValue) -> String?
}

extension ConfigKey: AnyConfigKey {
    package var defaultConfigValue: ConfigValue { defaultValue.configValue }

    package func value(of node: Node, path: String) throws -> ConfigValue {
        guard let v = Value.read(node) else {
            throw TonightErrorFactory.config("config key '\(name)' expects \(Value.kindName)", path: path, node: node)
        }
        if let problem = check(v) {
            throw TonightErrorFactory.config("config key '\(name)' \(problem) (got \(v.configValue))", path: path, node: node)
        }
        return v.configValue
    }

    package func problem(_ value: ConfigValue) -> String? {
        guard let v = Value(value) else { return "expects \(Value.kindName)" }
        return check(v)
    }
}

// MARK: value types

extension String: ConfigValueType {
    package static var kindName: String { "a string" }
    package static func read(_ node: Node) -> String? { node.scalar != nil ? node.string : nil }
    package var configValue: ConfigValue { .string(self) }
    package init?(_ value: ConfigValue) {
        guard case .string(let s) = value else { return nil }
        self = s
    }
}

extension Int: ConfigValueType {
    package static var kindName: String { "an integer" }
    package static func read(_ node: Node) -> Int? { node.scalar.flatMap { Int($0.string) } }
    package var configValue: ConfigValue { .int(self) }
    package init?(_ value: ConfigValue) {
        guard case .int(let i) = value else { return nil }
        self = i
    }
}

extension Double: ConfigValueType {
    package static var kindName: String { "a number" }
    package static func read(_ node: Node) -> Double? {
        guard let s = node.scalar?.string, let d = Double(s), d.isFinite else { return nil }
        // Decimal text only: no hex floats, no `inf`/`nan` spellings.
        guard s.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45 })
        else { return nil }
        return d
    }
    package var configValue: ConfigValue { .double(self) }
    package init?(_ value: ConfigValue) {
        switch value {
        case .double(let d): self = d
        case .int(let i): self = Double(i)
        default: return nil
        }
    }
}

extension Bool: ConfigValueType {
    package static var kindName: String { "true or false" }
    package static func read(_ node: Node) -> Bool? { node.scalar != nil ? node.bool : nil }
    package var configValue: ConfigValue { .bool(self) }
    package init?(_ value: ConfigValue) {
        guard case .bool(let b) = value else { return nil }
        self = b
    }
}

extension Array: ConfigValueType where Element == Int {
    package static var kindName: String { "a list of integers" }
    package static func read(_ node: Node) -> [Int]? {
        guard let seq = node.sequence, seq.count <= 10_000 else { return nil }
        var out: [Int] = []
        for n in seq {
            guard let i = Int.read(n) else { return nil }
            out.append(i)
        }
        return out
    }
    package var configValue: ConfigValue { .intList(self) }
    package init?(_ value: ConfigValue) {
        guard case .intList(let l) = value else { return nil }
        self = l
    }
}

extension Dictionary: ConfigValueType where Key == String, Value == Double {
    package static var kindName: String { "a mapping of names to numbers" }
    package static func read(_ node: Node) -> [String: Double]? {
        guard let mapping = node.mapping, mapping.count <= 1_000 else { return nil }
        var out: [String: Double] = [:]
        for (k, v) in mapping {
            guard let name = k.scalar?.string, out[name] == nil, let d = Double.read(v) else { return nil }
            out[name] = d
        }
        return out
    }
    package var configValue: ConfigValue { .doubleMap(self) }
    package init?(_ value: ConfigValue) {
        guard case .doubleMap(let m) = value else { return nil }
        self = m
    }
}

// MARK: rules

/// The rules keys use.
package enum ConfigRule {
    package static func range<T: Comparable & Sendable>(_ r: ClosedRange<T>) -> @Sendable (T) -> String? {
        { r.contains($0) ? nil : "must be in \(r.lowerBound)…\(r.upperBound)" }
    }

    /// More than `low`, at most `high`.
    package static func above(_ low: Double, upTo high: Double) -> @Sendable (Double) -> String? {
        { $0 > low && $0 <= high ? nil : "must be more than \(low) and at most \(high)" }
    }

    /// A share: 0…1.
    package static let share: @Sendable (Double) -> String? = range(0.0...1.0)

    /// Shares by name: 0…1 each.
    package static let shares: @Sendable ([String: Double]) -> String? = { m in
        m.allSatisfy { (0.0...1.0).contains($0.value) && !$0.key.isEmpty } ? nil : "must map names to shares in 0…1"
    }

    /// `HH:MM`.
    package static let clock: @Sendable (String) -> String? = { s in
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]),
            (0..<24).contains(h), (0..<60).contains(m)
        else { return "must be a time of day HH:MM (e.g. 17:00)" }
        return nil
    }

    /// At most `max` bytes, no control characters.
    package static func text(max: Int) -> @Sendable (String) -> String? {
        { s in
            s.utf8.count <= max && !s.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
                ? nil : "must be at most \(max) bytes of text without control characters"
        }
    }

    /// Non-negative integers, each at most `max`.
    package static func codes(max: Int) -> @Sendable ([Int]) -> String? {
        { l in l.allSatisfy { (0...max).contains($0) } ? nil : "must be integers in 0…\(max)" }
    }
}

/// Builds the configuration's errors (usage errors, exit 2, with the file and line).
enum TonightErrorFactory {
    static func config(_ message: String, path: String, node: Node?) -> TonightError {
        TonightError(.usage, message, file: path, line: node?.mark.map { $0.line }, column: node?.mark.map { $0.column })
    }
}
