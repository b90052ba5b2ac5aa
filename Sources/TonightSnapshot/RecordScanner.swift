import TonightBase
import Foundation

/// Finds the values at the paths of a dataset's reference rules in one record line, walking
/// the JSON once and skipping every subtree no rule enters (no `JSONSerialization`, no
/// allocation on the usual path). A malformed line is reported, never trusted.
package struct RecordScanner {
    private enum Step: Equatable {
        case field([UInt8])
        case each
    }

    private struct Rule {
        var steps: [Step]
        var condition: (field: [UInt8], value: [UInt8], when: Bool)?
    }

    private let rules: [Rule]
    /// The rules' paths as flat per-depth tables (what the walker reads).
    private let tables: ScannerTables

    /// The rules must number at most 32.
    package init(_ rules: [ReferenceRule]) {
        precondition(rules.count <= 32)
        let compiled = rules.map { r in
            Rule(steps: r.path.map { step in
                switch step {
                case .field(let f): .field(Array(f.utf8))
                case .each: .each
                }
            }, condition: r.condition.map { (Array($0.field.utf8), Array($0.value.utf8), $0.when) })
        }
        self.rules = compiled
        tables = ScannerTables(
            paths: compiled.map { rule in
                rule.steps.map { step -> [UInt8]? in
                    if case .field(let name) = step { return name }
                    return nil
                }
            },
            conditional: compiled.map { $0.condition != nil })
    }

    struct Malformed: Error {
        var offset: Int
    }

    /// Calls `found(rule, value)` for every value the rules reach (strings unescaped, numbers
    /// as their text). Throws `Malformed` when the line is not one JSON value.
    package func scan(_ line: UnsafeBufferPointer<UInt8>, found: (Int, UnsafeBufferPointer<UInt8>) -> Void) throws {
        try scan(line, names: KnownNames(), found: found)
    }

    /// `scan`, with the member names of the lines scanned before through `names` (one per
    /// thread, reused for every line: the items of a list, and the lines of a dataset, have
    /// the same members in the same order).
    package func scan(_ line: UnsafeBufferPointer<UInt8>, names: KnownNames, found: (Int, UnsafeBufferPointer<UInt8>) -> Void) throws {
        // Names remembered for another scanner's rules lead to other rules: forgotten.
        if names.tables !== tables { names.forget(for: tables) }
        // The walker borrows the rules through a pointer: holding the array, it retained
        // and released it for every record (~1 % of a verification).
        try rules.withUnsafeBufferPointer { rules in
            var w = Walker(b: line, rules: rules, t: tables.view, names: names.slots)
            defer { withExtendedLifetime((tables, names)) {} }  // the view and the slots point into them
            let all: UInt32 = rules.isEmpty ? 0 : UInt32.max >> (32 - rules.count)
            try w.value(depth: 0, active: all, found: found)
            w.space()
            guard w.i == line.count else { throw Malformed(offset: w.i) }
        }
    }

    /// The member names a thread's scans have met (`KnownName`), for one scanner's rules at a
    /// time. A class that owns its memory (freed in `deinit`); not shared between threads.
    package final class KnownNames {
        let slots: UnsafeMutablePointer<KnownName>
        /// The tables the names' rules come from (nil: none yet).
        private(set) var tables: ScannerTables?

        package init() {
            slots = .allocate(capacity: KnownName.slots)
            slots.initialize(repeating: KnownName(), count: KnownName.slots)
        }

        deinit { slots.deallocate() }

        /// Every name forgotten, to remember those of `tables`' rules.
        func forget(for tables: ScannerTables) {
            slots.update(repeating: KnownName(), count: KnownName.slots)
            self.tables = tables
        }
    }

    /// The name of the member met at one position of an object at one depth, and the rules
    /// it leads to there: the next object at that depth (the next item of a list, nearly
    /// always of the same shape) is matched against it with two word compares, where the
    /// walk would scan the name for its quote and look it up in the depth's names.
    struct KnownName {
        /// Depths and positions remembered (deeper or later members take the walk).
        static var depths: Int { 8 }
        static var positions: Int { 16 }
        static var slots: Int { depths * positions }
        /// The name's bytes as two little-endian words, zero-padded (at most 16; `length` 0:
        /// none remembered).
        var low: UInt64 = 0
        var high: UInt64 = 0
        var lowMask: UInt64 = 0
        var highMask: UInt64 = 0
        var length = 0
        /// Every rule that follows the name at its depth (`ScannerTables.View.member`).
        var rules: UInt32 = 0

        /// `name` (no escapes, 1 to 16 bytes) and its rules.
        init(_ name: UnsafeBufferPointer<UInt8>, rules: UInt32) {
            length = name.count
            for (k, c) in name.enumerated() {
                if k < 8 { low |= UInt64(c) << (8 * UInt64(k)) } else { high |= UInt64(c) << (8 * UInt64(k - 8)) }
            }
            lowMask = length >= 8 ? ~0 : (1 << (8 * UInt64(length))) - 1
            highMask = length >= 16 ? ~0 : length <= 8 ? 0 : (1 << (8 * UInt64(length - 8))) - 1
            self.rules = rules
        }

        init() {}
    }

    /// What a byte is to a token: a delimiter that ends it, or a character of a number.
    enum ByteClass {
        static let delimiter: UInt8 = 1
        static let number: UInt8 = 2
        static let table: [UInt8] = (0..<256).map { c in
            switch c {
            case 0x2C, 0x7D, 0x5D, 0x20, 0x0A, 0x0D, 0x09: delimiter
            case 0x30...0x39, 0x2D, 0x2B, 0x2E, 0x65, 0x45: number
            default: 0
            }
        }
    }

    private struct Walker {
        let b: UnsafeBufferPointer<UInt8>
        /// Read only for conditions, at the end of an object that held a value back.
        let rules: UnsafeBufferPointer<Rule>
        let t: ScannerTables.View
        /// `KnownName.slots` names, by depth then position.
        let names: UnsafeMutablePointer<KnownName>
        var i = 0
        var scratch: [UInt8] = []

        func malformed() -> Malformed { Malformed(offset: i) }

        /// `null`, `true` or `false` (byte compares: the generic `elementsEqual` was a tenth of
        /// a verification pass).
        @inline(__always)
        static func isLiteral(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
            switch t.count {
            case 4: (t[0] == 0x6E && t[1] == 0x75 && t[2] == 0x6C && t[3] == 0x6C) || (t[0] == 0x74 && t[1] == 0x72 && t[2] == 0x75 && t[3] == 0x65)
            case 5: t[0] == 0x66 && t[1] == 0x61 && t[2] == 0x6C && t[3] == 0x73 && t[4] == 0x65
            default: false
            }
        }

        @inline(__always)
        mutating func space() {
            while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        }

        /// Walks one value at `depth`: emits it for the rules of `active` that end here, or
        /// walks into it for those that go on.
        mutating func value(depth: Int, active: UInt32, found: (Int, UnsafeBufferPointer<UInt8>) -> Void) throws {
            guard depth < 64 else { throw malformed() }
            space()
            guard i < b.count else { throw malformed() }
            let ending = active & t.ending(at: depth)
            switch b[i] {
            case 0x7B: try object(depth: depth, active: active & ~ending, found: found)
            case 0x5B: try array(depth: depth, active: active & ~ending, found: found)
            case 0x22:
                let range = try string()
                if ending != 0 { emit(ending, range, found) }
            default:
                let start = i
                let literal = try token()
                if ending != 0 && !literal { emit(ending, start..<i, found) }
            }
        }

        /// Steps over a token outside quotes, which runs to the next delimiter and must be a
        /// literal or made of number characters (one table lookup a byte decides both):
        /// whether it is a literal.
        @inline(__always)
        mutating func token() throws -> Bool {
            let start = i
            var numeric: UInt8 = ByteClass.number
            while i < b.count {
                let k = t.classes[Int(b[i])]
                if k & ByteClass.delimiter != 0 { break }
                numeric &= k
                i += 1
            }
            guard i > start else { throw malformed() }
            let literal = numeric == 0 && Self.isLiteral(UnsafeBufferPointer(rebasing: b[start..<i]))
            if numeric == 0 && !literal { throw malformed() }
            return literal
        }

        /// A string value's content: the range of its bytes when it has no escapes, else the
        /// unescaped copy in `scratch` (signalled by a range starting at -1). Eight bytes at a
        /// time while a whole word is left (strings are most of a record's bytes).
        mutating func string() throws -> Range<Int> {
            let start = i + 1
            var j = start
            if let base = b.baseAddress {
                while j + 8 <= b.count {
                    let m = Self.quoteOrBackslash(UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
                    if m != 0 {
                        j += m.trailingZeroBitCount >> 3
                        break
                    }
                    j += 8
                }
            }
            while j < b.count {
                let c = b[j]
                if c == 0x22 {
                    i = j + 1
                    return start..<j
                }
                if c == 0x5C {
                    guard let (bytes, end) = JSONKey.decode(b, at: i) else { throw malformed() }
                    scratch = bytes
                    i = end
                    return -1..<(bytes.count - 1)
                }
                j += 1
            }
            throw malformed()
        }

        /// A mask whose lowest set bit is the high bit of the first byte of `w` (little-endian)
        /// that is `"` or `\` (bits above it may be set spuriously; only the lowest is read).
        @inline(__always)
        static func quoteOrBackslash(_ w: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let q = w ^ (ones &* 0x22), s = w ^ (ones &* 0x5C)
            return ((q &- ones) & ~q | (s &- ones) & ~s) & highs
        }

        func emit(_ rules: UInt32, _ range: Range<Int>, _ found: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
            var m = rules
            while m != 0 {
                let r = m.trailingZeroBitCount
                m &= m - 1
                if range.lowerBound < 0 {
                    scratch.withUnsafeBufferPointer { found(r, $0) }
                } else {
                    found(r, UnsafeBufferPointer(rebasing: b[range]))
                }
            }
        }

        mutating func object(depth: Int, active: UInt32, found: (Int, UnsafeBufferPointer<UInt8>) -> Void) throws {
            // Rules ending in a member of this object that depend on a sibling: their values
            // wait for the end of the object. Objects without such rules (nearly all) take
            // the walk without the two lists (empty, they were still released per object).
            let conditional = active & t.conditional(at: depth)
            if conditional == 0 {
                try plainObject(depth: depth, active: active, found: found)
            } else {
                try conditionalObject(depth: depth, active: active, conditional: conditional, found: found)
            }
        }

        /// `object` when no rule in it depends on a sibling. Each member is first matched
        /// against the name met at its position in the last object at this depth
        /// (`knownMember`); any other name, or one written otherwise, takes `member`.
        mutating func plainObject(depth: Int, active: UInt32, found: (Int, UnsafeBufferPointer<UInt8>) -> Void) throws {
            if opensEmpty(closedBy: 0x7D) { return }
            let remembered = depth < KnownName.depths ? names + depth * KnownName.positions : nil
            var position = 0
            repeat {
                let next: UInt32
                if let remembered, position < KnownName.positions, let rules = knownMember(remembered[position]) {
                    next = active & rules
                } else {
                    let (name, rules) = try member(depth: depth, active: active)
                    next = rules
                    if let remembered, position < KnownName.positions, active != 0, name.lowerBound >= 0, (1...16).contains(name.count) {
                        let bytes = UnsafeBufferPointer(rebasing: b[name])
                        remembered[position] = KnownName(bytes, rules: t.member(bytes, at: depth))
                    }
                }
                position += 1
                if next == 0 { try skipMember(depth: depth) } else { try value(depth: depth + 1, active: next, found: found) }
            } while try !ends(closedBy: 0x7D)
        }

        /// `skip` of a member's value that starts right there with a quote or a number
        /// character (nearly every member no rule follows: scores, distances, reasons),
        /// without the calls; any other value takes `skip`. The same tests as `value`
        /// (`string`, `token`, the depth).
        @inline(__always)
        mutating func skipMember(depth: Int) throws {
            if depth + 1 < 64, i < b.count {
                let c = b[i]
                if c == 0x22 {
                    _ = try string()
                    return
                }
                if t.classes[Int(c)] & ByteClass.number != 0 {
                    _ = try token()
                    return
                }
            }
            try skip(depth: depth)
        }

        /// When the bytes at `i` are exactly `"name":` of `known` (no space, no escape: what
        /// `member` would read as that name and its colon), steps over them and returns its
        /// rules; else nil, with `i` where it was.
        @inline(__always)
        mutating func knownMember(_ known: KnownName) -> UInt32? {
            let length = known.length
            guard length > 0, i + 19 <= b.count, let base = b.baseAddress, base[i] == 0x22 else { return nil }
            let at = UnsafeRawPointer(base + i + 1)
            guard (UInt64(littleEndian: at.loadUnaligned(as: UInt64.self)) ^ known.low) & known.lowMask == 0,
                  (UInt64(littleEndian: at.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) ^ known.high) & known.highMask == 0,
                  base[i + 1 + length] == 0x22, base[i + 2 + length] == 0x3A
            else { return nil }
            i += length + 3
            return known.rules
        }

        /// `object` when some rule ending in one of its members depends on a sibling: those
        /// values are held until the object's end, beside its string members.
        mutating func conditionalObject(depth: Int, active: UInt32, conditional: UInt32, found: (Int, UnsafeBufferPointer<UInt8>) -> Void) throws {
            var held: [(Int, [UInt8])] = []
            var siblings: [([UInt8], [UInt8])] = []
            if opensEmpty(closedBy: 0x7D) { return }
            repeat {
                let (name, next) = try member(depth: depth, active: active)
                let escapedName = name.lowerBound < 0 ? scratch : nil  // before a value replaces it
                if next == 0 {
                    space()
                    if i < b.count, b[i] == 0x22 {
                        let v = try string()
                        siblings.append((escapedName ?? Array(b[name]), v.lowerBound < 0 ? scratch : Array(b[v])))
                    } else {
                        try skip(depth: depth)
                    }
                } else if next & conditional != 0 {
                    try value(depth: depth + 1, active: next) { r, v in
                        if conditional & (1 << r) != 0 { held.append((r, Array(v))) } else { found(r, v) }
                    }
                } else {
                    try value(depth: depth + 1, active: next, found: found)
                }
            } while try !ends(closedBy: 0x7D)
            for (r, v) in held {
                guard let c = rules[r].condition else { continue }
                let equal = siblings.contains { $0.0 == c.field && $0.1 == c.value }
                if equal == c.when { v.withUnsafeBufferPointer { found(r, $0) } }
            }
        }

        /// Walks an array: its elements for the rules that step into each.
        mutating func array(depth: Int, active: UInt32, found: (Int, UnsafeBufferPointer<UInt8>) -> Void) throws {
            let next = active & t.each(at: depth)
            if opensEmpty(closedBy: 0x5D) { return }
            repeat {
                if next == 0 { try skip(depth: depth) } else { try value(depth: depth + 1, active: next, found: found) }
            } while try !ends(closedBy: 0x5D)
        }

        /// Steps over an object's or array's opening byte; true when `close` follows at once
        /// (the empty container, consumed).
        @inline(__always)
        mutating func opensEmpty(closedBy close: UInt8) -> Bool {
            i += 1
            space()
            guard i < b.count, b[i] == close else { return false }
            i += 1
            return true
        }

        /// A member's name and its colon: the name's range (`-1..<`: unescaped into `scratch`)
        /// and the rules of `active` that follow it.
        @inline(__always)
        mutating func member(depth: Int, active: UInt32) throws -> (name: Range<Int>, next: UInt32) {
            space()
            guard i < b.count, b[i] == 0x22 else { throw malformed() }
            let name = try string()
            let next: UInt32
            if active == 0 {
                next = 0
            } else if name.lowerBound < 0 {
                next = active & scratch.withUnsafeBufferPointer { t.member($0, at: depth) }
            } else {
                next = active & t.member(UnsafeBufferPointer(rebasing: b[name]), at: depth)
            }
            space()
            guard i < b.count, b[i] == 0x3A else { throw malformed() }
            i += 1
            return (name, next)
        }

        /// After a member or an element: true at `close` (the container's end, consumed),
        /// false after a comma.
        @inline(__always)
        mutating func ends(closedBy close: UInt8) throws -> Bool {
            space()
            guard i < b.count else { throw malformed() }
            if b[i] == 0x2C {
                i += 1
                return false
            }
            guard b[i] == close else { throw malformed() }
            i += 1
            return true
        }

        /// Skips one value of any kind (nested below `depth`).
        mutating func skip(depth: Int) throws {
            try value(depth: depth + 1, active: 0, found: { _, _ in })
        }
    }
}
