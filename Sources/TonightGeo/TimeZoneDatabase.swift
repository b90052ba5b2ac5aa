import Foundation
import TonightCore

/// The system's compiled IANA time zone database (`/usr/share/zoneinfo`, or `TZDIR`, or
/// `ZONEINFO`): zone rules read from TZif files on demand and kept, and the database's
/// version. The OS updates it (Debian's `tzdata` package); Foundation on Linux would answer
/// from the copy frozen into the toolchain, which misses rule changes made since.
package final class TimeZoneDatabase: @unchecked Sendable {
    /// The zoneinfo directory.
    package let directory: URL
    /// The release of the database (`2026f`), from `tzdata.zi` or `+VERSION`; `unknown`
    /// when neither file says.
    package let version: String
    private let lock = NSLock()
    private var zones: [String: ZoneRules] = [:]

    /// Where the database is looked for: `TZDIR` (as glibc reads it) or `ZONEINFO` when set,
    /// and then only there; else `/usr/share/zoneinfo`.
    package static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        for name in ["TZDIR", "ZONEINFO"] {
            if let dir = environment[name], !dir.isEmpty { return [URL(fileURLWithPath: dir)] }
        }
        return [URL(fileURLWithPath: "/usr/share/zoneinfo")]
    }

    /// The database of this machine; an I/O error (exit 74) naming the package to install
    /// when there is none.
    package static func system(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TimeZoneDatabase {
        let tried = candidates(environment: environment)
        guard let dir = tried.first(where: { FileIO.exists($0.appendingPathComponent("UTC")) || FileIO.exists($0.appendingPathComponent("tzdata.zi")) }) else {
            throw TonightError(
                .io, "the IANA time zone database is missing (looked in \(tried.map(\.path).joined(separator: ", ")))",
                hint: "install the tzdata package (apt-get install tzdata), or set TZDIR to a compiled zoneinfo directory")
        }
        return TimeZoneDatabase(directory: dir)
    }

    /// The process-wide system database (nil when missing; `system()` says why).
    package static let shared: TimeZoneDatabase? = try? system()

    package init(directory: URL) {
        self.directory = directory
        version = Self.readVersion(directory)
    }

    static func readVersion(_ dir: URL) -> String {
        if let zi = FileHandle(forReadingAtPath: dir.appendingPathComponent("tzdata.zi").path) {
            defer { try? zi.close() }
            let head = String(decoding: zi.readData(ofLength: 256), as: UTF8.self)
            for line in head.split(separator: "\n") where line.hasPrefix("# version ") {
                return String(line.dropFirst("# version ".count)).trimmingCharacters(in: .whitespaces)
            }
        }
        if let v = try? String(contentsOf: dir.appendingPathComponent("+VERSION"), encoding: .utf8) {
            let t = v.trimmingCharacters(in: .whitespacesAndNewlines)
            if !t.isEmpty && t.count < 40 { return t }
        }
        return "unknown"
    }

    /// Whether `name` is a zone name that stays inside the database directory.
    package static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count < 256, !name.hasPrefix("/") else { return false }
        return name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".."
                && part.utf8.allSatisfy { c in
                    (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) || c == 0x5F || c == 0x2D
                        || c == 0x2B
                }
        }
    }

    /// The file of zone `name`.
    package func file(_ name: String) throws -> URL {
        guard Self.isValidName(name) else {
            throw TonightError(.invalidInput, "'\(name)' is not an IANA time zone name", file: directory.path)
        }
        return directory.appendingPathComponent(name)
    }

    /// The rules of zone `name`, read once.
    package func rules(_ name: String) throws -> ZoneRules {
        lock.lock()
        if let z = zones[name] {
            lock.unlock()
            return z
        }
        lock.unlock()
        let url = try file(name)
        let bytes: [UInt8]
        do {
            bytes = try Self.readSmallFile(url)
        } catch let e as TonightError {
            throw TonightError(
                .io, "time zone \(name) is not in the database (\(e.message))", file: url.path,
                hint: "update the tzdata package (apt-get install tzdata)")
        }
        let rules: ZoneRules
        do {
            rules = try ZoneRules(tzif: bytes, name: name)
        } catch let e as ZoneRules.FormatError {
            throw TonightError(.io, "damaged time zone file: \(e.message)", file: url.path,
                               hint: "reinstall the tzdata package (apt-get install --reinstall tzdata)")
        }
        lock.lock()
        zones[name] = rules
        lock.unlock()
        return rules
    }

    /// A regular file of at most 1 MiB (zone files are a few KB).
    static func readSmallFile(_ url: URL) throws -> [UInt8] {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw TonightError.io("open", path: url.path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= 1 << 20 else {
            throw TonightError(.io, "not a regular file of at most 1 MiB", file: url.path)
        }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw TonightError.io("read", path: url.path) }
            done += n
        }
        return out
    }

    /// What a stage that reads `zones` depends on: the version and the SHA-256 of each zone's
    /// file, so that a tzdata update (or a local edit of one zone) recomputes it.
    package func fingerprint(zones: [String]) throws -> String {
        var text = "version=\(version)\n"
        for name in Set(zones).sorted() {
            let url = try file(name)
            guard FileIO.exists(url) else {
                throw TonightError(.io, "time zone \(name) is not in the database", file: url.path,
                                   hint: "update the tzdata package (apt-get install tzdata)")
            }
            text += "\(name)=\(ContentHash.hex(try Self.readSmallFile(url)))\n"
        }
        return ContentHash.hex(text)
    }
}
