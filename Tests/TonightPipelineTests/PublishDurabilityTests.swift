import Foundation
import Testing
import TonightTesting

/// The order of the publish protocol's system calls (snapshots.md: "every file and the
/// directory synced, then renamed into place; only then is `CURRENT` replaced"), read from
/// `strace` of a real run. The crash tests cannot tell an fsync that came too late: SIGKILL
/// loses nothing the page cache holds, only a power cut does. So the calls themselves are
/// checked: every published file's fsync returned before the snapshot's rename was made.
@Suite struct PublishDurabilityTests {
    /// One system call of the trace: its name, its paths (fds resolved by `strace -y`), its
    /// result, and the position in the trace where it returned (the line itself, or the
    /// `resumed` line of a call another thread interrupted).
    struct Call: Equatable {
        var name: String
        var paths: [String]
        var result: String
        var returnedAt: Int
        var startedAt: Int
    }

    /// Parses `strace -f -y -qq` output: `PID name(args) = result`, or a call split into
    /// `PID name(args <unfinished ...>` and `PID <... name resumed>) = result`.
    static func calls(_ trace: String) -> [Call] {
        var out: [Call] = []
        var pending: [String: Call] = [:]
        for (n, raw) in trace.split(separator: "\n").enumerated() {
            let line = String(raw)
            guard let space = line.firstIndex(of: " ") else { continue }
            let pid = String(line[..<space])
            let rest = line[line.index(after: space)...].trimmingCharacters(in: .whitespaces)
            if rest.hasPrefix("<... "), var call = pending.removeValue(forKey: pid) {
                call.result = Self.result(of: rest)
                call.returnedAt = n
                out.append(call)
                continue
            }
            guard let paren = rest.firstIndex(of: "(") else { continue }
            let name = String(rest[..<paren])
            var call = Call(name: name, paths: Self.paths(in: String(rest[paren...])), result: "", returnedAt: n, startedAt: n)
            if rest.hasSuffix("<unfinished ...>") {
                pending[pid] = call
            } else {
                call.result = Self.result(of: rest)
                out.append(call)
            }
        }
        return out.sorted { $0.returnedAt < $1.returnedAt }
    }

    /// The quoted paths of a call's arguments, and the paths `-y` shows after an fd (`9</a/b>`).
    static func paths(in args: String) -> [String] {
        var found: [String] = []
        var rest = Substring(args)
        while let start = rest.firstIndex(where: { $0 == "\"" || $0 == "<" }) {
            let close: Character = rest[start] == "\"" ? "\"" : ">"
            let after = rest.index(after: start)
            guard let end = rest[after...].firstIndex(of: close) else { break }
            let text = String(rest[after..<end])
            if text.hasPrefix("/") { found.append(text) }
            rest = rest[rest.index(after: end)...]
        }
        return found
    }

    static func result(of line: String) -> String {
        guard let eq = line.range(of: ") = ", options: .backwards) else { return "" }
        return String(line[eq.upperBound...].prefix { $0 != " " })
    }

    @Test func traceParserJoinsInterruptedCalls() {
        let trace = """
            101 fsync(9</o/s/.tmp-1/a.zst> <unfinished ...>
            100 rename("/o/s/x", "/o/s/y") = 0
            101 <... fsync resumed>) = 0
            100 fsync(3</o/s>) = -1 EIO (Input/output error)
            """
        let calls = Self.calls(trace)
        #expect(calls == [
            Call(name: "rename", paths: ["/o/s/x", "/o/s/y"], result: "0", returnedAt: 1, startedAt: 1),
            Call(name: "fsync", paths: ["/o/s/.tmp-1/a.zst"], result: "0", returnedAt: 2, startedAt: 0),
            Call(name: "fsync", paths: ["/o/s"], result: "-1", returnedAt: 3, startedAt: 3),
        ])
    }

    /// A real run of the bundled fixtures under strace: every file of the published snapshot
    /// (datasets, indexes, key tables, dictionaries, the manifest) and the temporary directory
    /// were fsynced, successfully, before the directory was renamed to its id; the parent
    /// directory was synced after that rename and before `CURRENT` was replaced; `CURRENT`'s
    /// temporary file was synced before its rename, and the parent again after it.
    @Test(.enabled(if: ExternalTool.strace.isAvailable))
    func everyPublishedFileIsDurableBeforeItsSnapshotIsNamed() throws {
        let work = temporaryDirectory()
        let traceURL = work.appendingPathComponent("trace.txt")
        let out = work.appendingPathComponent("out")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["strace", "-f", "-y", "-qq", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", "-o", traceURL.path,
                       try tonightExecutable().path, "run", "--inputs", tinyInputs.path, "--work", work.appendingPathComponent("w").path,
                       "--out", out.path, "--as-of", "2026-01-15T06:00:00Z"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let calls = Self.calls(try String(contentsOf: traceURL, encoding: .utf8))

        let root = out.appendingPathComponent("snapshots").resolvingSymlinksInPath().path
        let id = try String(contentsOfFile: root + "/CURRENT", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let published = try FileManager.default.contentsOfDirectory(atPath: root + "/" + id).sorted()
        #expect(published.contains("manifest.json") && published.contains { $0.hasSuffix(".ndjson.zst") })

        let renameIndex = try #require(calls.firstIndex {
            $0.name.hasPrefix("rename") && $0.paths.count == 2 && $0.paths[1] == root + "/" + id && $0.result == "0"
        }, "no rename of the snapshot into \(root)/\(id)")
        let temporary = calls[renameIndex].paths[0]
        #expect(temporary.hasPrefix(root + "/.tmp-"))
        let rename = calls[renameIndex]
        func syncedBefore(_ path: String, _ line: Int) -> Bool {
            calls.contains { ($0.name == "fsync" || $0.name == "fdatasync") && $0.paths == [path] && $0.result == "0" && $0.returnedAt < line }
        }
        for file in published {
            #expect(syncedBefore(temporary + "/" + file, rename.startedAt), "\(file) was not durable before the snapshot was renamed into place")
        }
        #expect(syncedBefore(temporary, rename.startedAt), "the snapshot's directory was not synced before its rename")

        let current = try #require(calls.first {
            $0.name.hasPrefix("rename") && $0.paths == [root + "/CURRENT.tmp", root + "/CURRENT"] && $0.result == "0"
        }, "CURRENT was not replaced by a rename")
        #expect(current.startedAt > rename.returnedAt)
        #expect(syncedBefore(root + "/CURRENT.tmp", current.startedAt), "CURRENT's temporary file was not synced before its rename")
        #expect(calls.contains { $0.name == "fsync" && $0.paths == [root] && $0.startedAt > rename.returnedAt && $0.returnedAt < current.startedAt },
                "the snapshots directory was not synced between the snapshot's rename and CURRENT's")
        #expect(calls.contains { $0.name == "fsync" && $0.paths == [root] && $0.startedAt > current.returnedAt },
                "the snapshots directory was not synced after CURRENT's rename")
    }
}
