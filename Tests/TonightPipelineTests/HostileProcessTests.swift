import Foundation
import Testing
import TonightCore
@testable import TonightPipeline

/// The whole `tonight` process on hostile feeds: refused with exit 65 and FILE:LINE:COLUMN,
/// within 1 s and 64 MiB of peak resident memory (measured with wait4's rusage).
@Suite struct HostileProcessTests {
    static let payloads: [(name: String, file: String, script: String)] = [
        ("billion laughs", "feed.xml", """
            printf '<?xml version="1.0"?>\\n<!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>\\n<Ticketmaster>&h;</Ticketmaster>\\n' > "$F"
            """),
        ("quadratic blowup", "feed.xml", """
            { printf '<?xml version="1.0"?>\\n<!DOCTYPE t [<!ENTITY a "'; head -c 200000 /dev/zero | tr '\\0' x; printf '">]>\\n<Ticketmaster>'; for i in $(seq 1 2000); do printf '&a;&a;&a;&a;&a;'; done; printf '</Ticketmaster>\\n'; } > "$F"
            """),
        ("external entity", "feed.xml", """
            printf '<?xml version="1.0"?>\\n<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>\\n<Ticketmaster>&x;</Ticketmaster>\\n' > "$F"
            """),
        ("external DTD", "feed.xml", """
            printf '<?xml version="1.0"?>\\n<!DOCTYPE Ticketmaster SYSTEM "http://127.0.0.1:9/x.dtd">\\n<Ticketmaster/>\\n' > "$F"
            """),
        ("parameter entity", "feed.xml", """
            printf '<?xml version="1.0"?>\\n<!DOCTYPE t [<!ENTITY %% p SYSTEM "http://127.0.0.1:9/p"> %%p;]>\\n<Ticketmaster/>\\n' > "$F"
            """),
        ("XInclude", "feed.xml", """
            printf '<Ticketmaster xmlns:xi="http://www.w3.org/2001/XInclude">\\n<Artists><xi:include href="/etc/passwd" parse="text"/></Artists></Ticketmaster>\\n' > "$F"
            """),
        ("deep nesting", "feed.xml", """
            { printf '<Ticketmaster>'; for i in $(seq 1 5000); do printf '<a>'; done; } > "$F"
            """),
        ("huge text", "feed.xml", """
            { printf '<Ticketmaster><Artists>'; head -c 50000000 /dev/zero | tr '\\0' x; printf '</Artists></Ticketmaster>'; } > "$F"
            """),
        ("gzip bomb", "feed.xml.gz", """
            { printf '<Ticketmaster><Artists>'; head -c 1000000000 /dev/zero | tr '\\0' ' '; } | gzip -1 > "$F"
            """),
        ("zstd bomb", "feed.xml.zst", """
            { printf '<Ticketmaster><Artists>'; head -c 1000000000 /dev/zero | tr '\\0' ' '; } | zstd -q -1 > "$F"
            """),
    ]

    @Test(arguments: payloads.map(\.name))
    func refusedQuicklyInBoundedMemory(_ name: String) throws {
        let p = Self.payloads.first { $0.name == name }!
        let inputs = temporaryDirectory("tonight-hostile")
        let file = inputs.appendingPathComponent(p.file)
        let sh = Process()
        sh.executableURL = URL(fileURLWithPath: "/bin/sh")
        sh.arguments = ["-c", p.script]
        sh.environment = ["F": file.path, "PATH": "/usr/bin:/bin"]
        try sh.run()
        sh.waitUntilExit()
        #expect(sh.terminationStatus == 0)
        let work = temporaryDirectory("tonight-hostile-work")
        let m = try measureTonight(["run", "--only", "parse-feed", "--inputs", inputs.path, "--work", work.path])
        #expect(m.status == 65, "\(name): exit \(m.status) \(m.stderr)")
        #expect(m.stderr.contains(file.path + ":"), "\(name): \(m.stderr)")
        #expect(m.seconds < 1.0, "\(name) took \(m.seconds) s")
        #expect(m.peakBytes < 64 << 20, "\(name) peaked at \(m.peakBytes >> 20) MiB")
        #expect(!m.stderr.contains("root:x:0"), "file content leaked")
    }
}

/// Spawns `tonight` under GNU time and measures wall time and peak RSS. (A child spawned
/// straight from the test process would report the test process's own high-water mark:
/// Linux carries the pre-exec mm's peak into the new image's rusage.)
func measureTonight(_ arguments: [String]) throws -> (status: Int32, stderr: String, seconds: Double, peakBytes: Int64) {
    let exe = try tonightExecutable()
    let errFile = temporaryDirectory("tonight-stderr").appendingPathComponent("stderr.txt")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let timeFile = temporaryDirectory("tonight-time").appendingPathComponent("time.txt")
    let argv = (["/usr/bin/time", "-f", "%M", "-o", timeFile.path, exe.path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let started = Date()
    let rc = posix_spawn(&pid, "/usr/bin/time", &actions, nil, argv, environ)
    guard rc == 0 else { throw TonightError(.internal, "spawn failed: \(rc)") }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let seconds = Date().timeIntervalSince(started)
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let err = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
    let peakKB = ((try? String(contentsOf: timeFile, encoding: .utf8)) ?? "").split(separator: "\n")
        .compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.last ?? Int64.max / 2048
    return (code, err, seconds, peakKB * 1024)
}
