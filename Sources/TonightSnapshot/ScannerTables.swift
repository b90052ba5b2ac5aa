import Foundation

/// A `RecordScanner`'s rules compiled into flat per-depth tables: which rules end at a depth,
/// which step into every element of an array there, which wait for a sibling, and the member
/// names the rules follow (bytes side by side). The walker reads them through plain pointers
/// (`view`), so a value or a member costs a mask operation, not a loop over the rules with a
/// retain and a release of each rule's nested arrays (those were a sixth of a verification
/// pass on a million users).
///
/// A class that owns its memory (freed in `deinit`); built once, then only read.
final class ScannerTables: @unchecked Sendable {
    /// A member name at one depth and the rules that follow it there.
    struct Member {
        var start: Int32
        var length: Int32
        var mask: UInt32
    }

    /// Depths with a table entry: 0 through the longest path.
    let depths: Int
    private let masks: UnsafeMutableBufferPointer<UInt32>
    private let members: UnsafeMutableBufferPointer<Member>
    private let memberStart: UnsafeMutableBufferPointer<Int>
    private let names: UnsafeMutableBufferPointer<UInt8>
    /// `RecordScanner.ByteClass` of every byte.
    private let classes: UnsafeMutableBufferPointer<UInt8>

    /// `paths[r]`: rule r's steps, a member name or nil for "every element"; `conditional[r]`:
    /// whether rule r depends on a sibling.
    init(paths: [[[UInt8]?]], conditional: [Bool]) {
        depths = (paths.map(\.count).max() ?? 0) + 1
        classes = .allocate(capacity: 256)
        _ = classes.initialize(from: RecordScanner.ByteClass.table)
        // Three masks per depth: rules ending there, stepping into each element, conditional.
        masks = .allocate(capacity: depths * 3)
        masks.initialize(repeating: 0)
        var list: [(depth: Int, name: [UInt8], mask: UInt32)] = []
        for (r, steps) in paths.enumerated() {
            let bit = UInt32(1) << UInt32(r)
            masks[steps.count * 3] |= bit
            if conditional[r], steps.count >= 1 { masks[(steps.count - 1) * 3 + 2] |= bit }
            for (d, step) in steps.enumerated() {
                guard let name = step else {
                    masks[d * 3 + 1] |= bit
                    continue
                }
                if let k = list.firstIndex(where: { $0.depth == d && $0.name == name }) {
                    list[k].mask |= bit
                } else {
                    list.append((d, name, bit))
                }
            }
        }
        list.sort { $0.depth < $1.depth }
        members = .allocate(capacity: max(1, list.count))
        memberStart = .allocate(capacity: depths + 1)
        memberStart.initialize(repeating: list.count)
        names = .allocate(capacity: max(1, list.reduce(0) { $0 + $1.name.count }))
        var at = 0
        for (k, m) in list.enumerated() {
            if memberStart[m.depth] == list.count || memberStart[m.depth] > k { memberStart[m.depth] = k }
            for (j, c) in m.name.enumerated() { names[at + j] = c }
            (members.baseAddress! + k).initialize(to: Member(start: Int32(at), length: Int32(m.name.count), mask: m.mask))
            at += m.name.count
        }
        // A depth with no member starts where the next one does.
        for d in stride(from: depths - 1, through: 0, by: -1) where memberStart[d] > memberStart[d + 1] {
            memberStart[d] = memberStart[d + 1]
        }
    }

    deinit {
        masks.deallocate()
        members.deallocate()
        memberStart.deallocate()
        names.deallocate()
        classes.deallocate()
    }

    /// The tables as plain pointers, valid while this object lives.
    var view: View {
        View(depths: depths, masks: UnsafePointer(masks.baseAddress!), members: UnsafePointer(members.baseAddress!),
             memberStart: UnsafePointer(memberStart.baseAddress!), names: UnsafePointer(names.baseAddress!),
             classes: UnsafePointer(classes.baseAddress!))
    }

    /// Pointers into `ScannerTables` (see `view`).
    struct View {
        let depths: Int
        let masks: UnsafePointer<UInt32>
        let members: UnsafePointer<Member>
        let memberStart: UnsafePointer<Int>
        let names: UnsafePointer<UInt8>
        let classes: UnsafePointer<UInt8>

        /// The rules whose path ends at `depth`.
        @inline(__always)
        func ending(at depth: Int) -> UInt32 { depth < depths ? masks[depth * 3] : 0 }

        /// The rules that step into every element of an array at `depth`.
        @inline(__always)
        func each(at depth: Int) -> UInt32 { depth < depths ? masks[depth * 3 + 1] : 0 }

        /// The rules that end in a member of an object at `depth` and depend on a sibling.
        @inline(__always)
        func conditional(at depth: Int) -> UInt32 { depth < depths ? masks[depth * 3 + 2] : 0 }

        /// The rules that follow member `name` of an object at `depth`.
        @inline(__always)
        func member(_ name: UnsafeBufferPointer<UInt8>, at depth: Int) -> UInt32 {
            guard depth < depths else { return 0 }
            var out: UInt32 = 0
            for k in memberStart[depth]..<memberStart[depth + 1] {
                let m = members[k]
                guard Int(m.length) == name.count else { continue }
                // Names are a few bytes: compared inline (a call to memcmp per member was a
                // twentieth of a verification pass).
                let own = names + Int(m.start)
                var k = 0
                while k < name.count && own[k] == name[k] { k += 1 }
                if k == name.count { out |= m.mask }
            }
            return out
        }
    }
}
