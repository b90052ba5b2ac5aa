import Foundation
import TonightGenerator
import TonightSnapshot
import TonightTesting

/// The seeds `scripts/fuzz.sh` gives each target, made the same way from `Fixtures/tiny`, with
/// what each must reach; and deterministic mutations of them.
enum FuzzSeeds {
    struct Seed {
        var name: String
        var bytes: [UInt8]
        /// The least `reached` the seed must get to; nil for seeds that may be refused (the
        /// feed parser's hostile samples).
        var least: Int?
    }

    static func seeds(_ target: String) throws -> [Seed] {
        switch target {
        case "feed": return try feed()
        case "affinity": return try affinity()
        case "csv": return try csv()
        case "config":
            let nightly = try read(packageRoot.appendingPathComponent("Pipelines/nightly.yaml"))
            return [Seed(name: "nightly.yaml", bytes: nightly, least: 1)]
        case "snapshot": return try Snapshot.seeds.get()
        default: return try playmate()
        }
    }

    static func read(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Lines of a CSV file after its header.
    static func rows(_ url: URL) throws -> Int {
        try read(url).split(separator: 0x0A).count - 1
    }

    static func feed() throws -> [Seed] {
        let tiny = tinyInputs.appendingPathComponent("feed.xml")
        var seeds = [Seed(name: "tiny feed.xml", bytes: try read(tiny), least: 20)]
        // Compressed, as the target tells them by their magic bytes (`make test` installs both).
        for (tool, command) in [(ExternalTool.gzip, "gzip -c"), (.zstd, "zstd -q -c")] where tool.isAvailable {
            let out = temporaryDirectory("fuzz-seed").appendingPathExtension(tool.rawValue)
            let result = try shell("\(command) '\(tiny.path)' > '\(out.path)'")
            guard result.status == 0 else { throw SeedError(message: "\(command) failed: \(result.output)") }
            seeds.append(Seed(name: "tiny feed.xml (\(tool.rawValue))", bytes: try read(out), least: 20))
        }
        let resources = packageRoot.appendingPathComponent("Tests/TonightFeedTests/Resources")
        for file in try FileManager.default.contentsOfDirectory(atPath: resources.path).sorted() where file.hasSuffix(".xml") {
            seeds.append(Seed(name: file, bytes: try read(resources.appendingPathComponent(file)), least: nil))
        }
        return seeds
    }

    static func affinity() throws -> [Seed] {
        // The target knows six of the tiny file's artists (AffinityFuzzTarget): 9 of its 11
        // lines resolve (two name artists it does not know).
        let known = "Recommended artists for Battle At the Boat\n2,Showtime Boxing,0.5\n900333,Guns N Hoses,0.25\n-----\n"
        return [
            Seed(name: "tiny affinity.txt", bytes: try read(tinyInputs.appendingPathComponent("affinity.txt")), least: 9),
            Seed(name: "2012 names", bytes: Array(known.utf8), least: 2),
        ]
    }

    static func csv() throws -> [Seed] {
        let t = tinyInputs.appendingPathComponent("tickets")
        let users = try read(t.appendingPathComponent("users.csv"))
        let count = try rows(t.appendingPathComponent("users.csv"))
        // The second part is favorites.csv, the third follows.csv (CSVFuzzTarget).
        var seeds = [Seed(name: "favorites", bytes: users + [0xFF] + (try read(t.appendingPathComponent("favorites.csv"))), least: count)]
        let withFollows = users + [0xFF] + (try read(t.appendingPathComponent("favorites.csv")))
            + [0xFF] + (try read(t.appendingPathComponent("follows.csv")))
        seeds.append(Seed(name: "with follows", bytes: withFollows, least: count))
        return seeds
    }

    static func playmate() throws -> [Seed] {
        let d = tinyInputs.appendingPathComponent("playmate")
        func joined(_ files: [String]) throws -> [UInt8] {
            var out: [UInt8] = []
            for (k, f) in files.enumerated() {
                if k > 0 { out.append(0xFF) }
                out += try read(d.appendingPathComponent("\(f).csv"))
            }
            return out
        }
        // Every player has a stats record and every session a record of its own.
        let least = try rows(d.appendingPathComponent("players.csv")) + rows(d.appendingPathComponent("sessions.csv"))
        return [
            Seed(name: "all", bytes: try joined(["players", "quiz", "sessions", "session_players", "friends", "feedback"]), least: least),
            Seed(name: "no feedback", bytes: try joined(["players", "quiz", "sessions", "session_players", "friends"]), least: least),
        ]
    }

    /// The tiny job's snapshot, made once per test process with the real binary.
    enum Snapshot {
        static let seeds = Result { try make() }

        static func make() throws -> [Seed] {
            let dir = temporaryDirectory("fuzz-seeds")
            let out = dir.appendingPathComponent("out")
            let result = try runTonight(["run", "--work", dir.appendingPathComponent("work").path, "--out", out.path])
            guard result.status == 0 else { throw SeedError(message: "the tiny job failed (\(result.status)): \(result.stderr)") }
            let snapshots = out.appendingPathComponent("snapshots")
            let id = String(decoding: try read(snapshots.appendingPathComponent("CURRENT")), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let snap = snapshots.appendingPathComponent(id)
            let index = try SeekableZstdFile(path: snap.appendingPathComponent("explore.index.ndjson.zst").path)
            var lines: [UInt8] = []
            for i in index.frames.indices { lines += try index.frame(i) }
            let explore = try read(snap.appendingPathComponent("explore.ndjson.zst"))
            let exploreRecords = try SeekableZstdFile(path: snap.appendingPathComponent("explore.ndjson.zst").path)
            var records = 0
            for i in exploreRecords.frames.indices.prefix(8) { records += try exploreRecords.frame(i).split(separator: 0x0A).count }
            return [
                Seed(name: "manifest", bytes: [0] + (try read(snap.appendingPathComponent("manifest.json"))), least: 23),
                // "gsDYBAAAAA", one of the probes, has an explore deck in the tiny job.
                Seed(name: "explore index", bytes: [1] + lines, least: 1),
                Seed(name: "explore", bytes: [2] + explore, least: records),
                Seed(name: "alerts", bytes: [2] + (try read(snap.appendingPathComponent("alerts.ndjson.zst"))), least: 0),
                Seed(name: "explore keys", bytes: [3] + (try read(snap.appendingPathComponent("explore.keys"))), least: 1),
            ]
        }
    }

    struct SeedError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// `count` mutants of `seed` (the first `keepingPrefix` bytes left alone), the same on
    /// every run: cut short, one to four bytes replaced by bytes parsers trip on, a piece
    /// repeated, a piece dropped.
    static func mutants(of seed: [UInt8], keepingPrefix keep: Int, count: Int) -> [[UInt8]] {
        guard seed.count > keep + 1 else { return [] }
        var rng = SplitMix64(seed: UInt64(seed.count) &* 0x9E37_79B9_7F4A_7C15)
        // NUL, 0xFF, line ends, quote, comma, < > &, backslash, braces, a stray continuation
        // byte, two lead bytes, digit, minus, point, e, space.
        let tricky: [UInt8] = [0x00, 0xFF, 0x0A, 0x0D, 0x22, 0x2C, 0x3C, 0x3E, 0x26, 0x5C,
                               0x7B, 0x7D, 0x80, 0xC3, 0xE2, 0x39, 0x2D, 0x2E, 0x65, 0x20]
        var out: [[UInt8]] = []
        let body = seed.count - keep
        for n in 0..<count {
            var m = seed
            switch n % 4 {
            case 0:
                m.removeLast(1 + Int(rng.next() % UInt64(body - 1)))
            case 1:
                for _ in 0...(rng.next() % 4) {
                    m[keep + Int(rng.next() % UInt64(body))] = tricky[Int(rng.next() % UInt64(tricky.count))]
                }
            case 2:
                let start = keep + Int(rng.next() % UInt64(body))
                let end = min(seed.count, start + 1 + Int(rng.next() % 64))
                m.insert(contentsOf: seed[start..<end], at: start)
            default:
                let start = keep + Int(rng.next() % UInt64(body))
                let end = min(seed.count, start + 1 + Int(rng.next() % 64))
                m.removeSubrange(start..<end)
            }
            out.append(m)
        }
        return out
    }
}
