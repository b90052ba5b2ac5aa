import Foundation
import TonightCore
import TonightGeo

/// What code a stage's outputs were made with: the SHA-256 of the running executable, and of
/// each bundled resource a stage reads (the geocoding table). Computed once per process; it
/// changes whenever the code or the bundled data changes, so a rebuilt binary never reuses the
/// outputs of the old one (pipeline.md "Code version"), and no number has to be bumped by hand.
package struct BuildIdentity: Sendable, Equatable {
    /// The package's release version.
    package static let version = "0.2.0"

    /// Bundled data a stage may read.
    package enum Resource: String, Sendable, CaseIterable {
        /// `geotable.tsv.zst` (TonightGeo): ZIP points, places, regions, zone names.
        case geotable
    }

    /// SHA-256 of the executable.
    package var binary: String
    /// SHA-256 of each bundled resource.
    package var resources: [Resource: String]

    package init(binary: String, resources: [Resource: String]) {
        self.binary = binary
        self.resources = resources
    }

    /// The running executable's file.
    static var executable: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return FileIO.exists(exe) ? exe : URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }

    /// The identity of this process, hashed on first use.
    package static let current: BuildIdentity = of { try ContentHash.file($0) }

    /// The identity with each file hashed by `hash`.
    static func of(_ hash: (URL) throws -> String) -> BuildIdentity {
        let binary = (try? hash(executable)) ?? "unknown"
        var resources: [Resource: String] = [:]
        if let table = GeoTable.bundledURL { resources[.geotable] = (try? hash(table)) ?? "missing" }
        return BuildIdentity(binary: binary, resources: resources)
    }

    /// The identity of this process with the hashes taken from the work directory's hash cache
    /// while the executable and the table are unchanged since they were hashed (size, inode,
    /// mtime and ctime, the rule the inputs follow): a run no longer reads its 30 MB
    /// executable at every start (a third of a `--only parse-affinity` process).
    static func of(cache: FileHashCache) -> BuildIdentity {
        of { try cache.hash($0).hash }
    }

    /// The build id people see (`tonight --version`, manifests): 12 hex digits over everything.
    package var id: String {
        String(ContentHash.hex(binary + Resource.allCases.map { "\n\($0.rawValue)=\(resources[$0] ?? "-")" }.joined()).prefix(12))
    }

    /// The code version of a stage that reads `used`: the version, the executable's hash and
    /// the hashes of those resources only.
    package func codeVersion(using used: [Resource]) -> String {
        var text = "\(Self.version) build \(binary.prefix(16))"
        for r in used.sorted(by: { $0.rawValue < $1.rawValue }) { text += " \(r.rawValue) \((resources[r] ?? "-").prefix(16))" }
        return text
    }
}
