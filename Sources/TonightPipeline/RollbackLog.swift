import Foundation
import TonightBase
import TonightCore

/// `OUT/snapshots/rollbacks.ndjson`: every `tonight snapshot rollback`, one JSON line each
/// (`at`, `from`, `fromContent`, `to`), so that later runs know which snapshots an operator
/// withdrew. A snapshot is withdrawn by a rollback *from* it to an older one (or by a publish
/// of an earlier night over it, `--allow-earlier`), and reinstated by a rollback (forward)
/// *to* it; the last line that names it decides.
///
/// What depends on it: a withdrawn snapshot is no night's alerts baseline (its users were
/// switched back; alerts against it announce its repair as changes), and its datasets are
/// not published again by a re-run of its night (which undid the rollback silently). Rewritten
/// whole (temporary file, fsync, rename) under the publisher's lock: never a torn line.
package struct RollbackLog {
    struct Entry: Codable, Equatable {
        var at: String
        var from: String
        /// The content hash of `from` (its datasets), kept when retention removes it.
        var fromContent: String
        var to: String
        /// A publish with `--allow-earlier` put `to`, an earlier night, in place of `from`:
        /// `from` is withdrawn although `to`'s id is the newer (nil in rollbacks' entries).
        var earlierNight: Bool? = nil
        /// CURRENT was changed by hand, not by `tonight snapshot rollback` (`SwitchRecord`; nil
        /// in the tool's own entries).
        var byHand: Bool? = nil
    }

    static let fileName = "rollbacks.ndjson"
    let root: URL

    /// The log of the snapshot root `root` (`OUT/snapshots`).
    package init(root: URL) {
        self.root = root
    }

    var url: URL { root.appendingPathComponent(Self.fileName) }

    /// Every entry, oldest first (a line that does not decode is skipped: the log informs,
    /// it is not a snapshot's data).
    func entries() -> [Entry] {
        guard let data = try? FileIO.read(url) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Entry.self, from: Data($0)) }
    }

    /// The withdrawn snapshots (id → content hash), `current` never among them; a hand edit
    /// of CURRENT not yet written into the log counts as its entry would (`SwitchRecord`).
    package func withdrawn(current: String?) -> [String: String] {
        var out: [String: String] = [:]
        for e in entries() + [SwitchRecord(root: root).pending(current: current, log: self)].compactMap({ $0 }) {
            if e.to < e.from || e.earlierNight == true { out[e.from] = e.fromContent }  // back: `from` withdrawn
            out[e.to] = nil  // back or forward: `to` is served again
        }
        if let current { out[current] = nil }
        return out
    }

    /// Appends `entry` (the caller holds the publisher's lock).
    func append(_ entry: Entry) throws {
        var text = (try? FileIO.read(url)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        try write(text + Self.line(entry))
    }

    /// Removes the last entry when it is `entry` (a rollback whose switch failed).
    func removeLast(_ entry: Entry) throws {
        var kept = entries()
        guard kept.last == entry else { return }
        kept.removeLast()
        try write(try kept.map(Self.line).joined())
    }

    private static func line(_ entry: Entry) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(entry), as: UTF8.self) + "\n"
    }

    private func write(_ text: String) throws {
        let tmp = root.appendingPathComponent(Self.fileName + ".tmp")
        try FileIO.write(Array(text.utf8), to: tmp, sync: true)
        try FileIO.rename(tmp, to: url)
        try FileIO.syncDirectory(root)
    }
}
