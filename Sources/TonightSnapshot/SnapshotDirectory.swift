import Foundation
import TonightBase

/// The snapshot root (`OUT/snapshots`): `CURRENT` and one directory per snapshot.
public struct SnapshotDirectory: Sendable {
    /// The root directory.
    public let root: URL

    /// Creates a view of `root` (nothing is read yet).
    public init(root: URL) {
        self.root = root
    }

    /// Whether `name` has the shape of a snapshot id (`YYYYMMDDTHHMMSSZ-xxxxxxxx`).
    public static func isSnapshotID(_ name: String) -> Bool {
        let b = Array(name.utf8)
        guard b.count == 25, b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z"), b[16] == UInt8(ascii: "-") else {
            return false
        }
        let digits = b[0..<8] + b[9..<15]
        return digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            && b[17...].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The id `CURRENT` names.
    public func currentID() throws -> String {
        let path = root.appendingPathComponent("CURRENT").path
        let data: [UInt8]
        do {
            data = try SnapshotError.reading { try RegularFile.read(path, maxBytes: 4096) }
        } catch let e as SnapshotError where e.code == .missing {
            throw SnapshotError(file: path, "no CURRENT file: nothing has been published here yet", code: .missing)
        } catch let e as SnapshotError {
            throw SnapshotError(file: path, "CURRENT cannot be read: \(e.message)", code: .malformed)
        }
        let id = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.isSnapshotID(id) else {
            throw SnapshotError(file: path, "CURRENT holds '\(SnapshotError.quoted(data, limit: 40))', not a snapshot id", code: .malformed)
        }
        return id
    }

    /// The id `CURRENT` names, or nil when nothing is published (no `CURRENT` at all; one
    /// that cannot be read is an error, never "nothing published").
    public func currentIDIfAny() throws -> String? {
        var st = stat()
        guard lstat(root.appendingPathComponent("CURRENT").path, &st) == 0 else { return nil }
        return try currentID()
    }

    /// The complete snapshots (directories with a manifest), oldest first. Temporary
    /// directories of unfinished publishes are not listed.
    public func snapshotIDs() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter {
            Self.isSnapshotID($0)
                && FileManager.default.fileExists(atPath: root.appendingPathComponent($0).appendingPathComponent("manifest.json").path)
        }.sorted()
    }

    /// Reads the manifest of snapshot `id`.
    public func manifest(_ id: String) throws -> SnapshotManifest {
        guard Self.isSnapshotID(id) else {
            throw SnapshotError(file: root.path, "'\(SnapshotError.quoted(id))' is not a snapshot id", code: .invalidArgument)
        }
        return try SnapshotManifest.read(root.appendingPathComponent(id).appendingPathComponent("manifest.json").path)
    }
}
