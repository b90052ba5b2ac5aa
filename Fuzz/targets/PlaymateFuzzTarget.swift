import Foundation
import TonightCore
import TonightExports
import TonightRanking

/// The six Playmate exports through their loader, then the Playmate ranking and records of
/// every player and session the loader accepted, each record parsed back: it must be one JSON
/// object whose `key` is its player's, session's or cell's. The input is cut at 0xFF bytes
/// into players.csv, quiz.csv, sessions.csv, session_players.csv, friends.csv and feedback.csv
/// (a file the input does not reach is its header alone; feedback.csv, optional, is then
/// absent). Reached: the records written.
package struct PlaymateFuzzTarget: FuzzTarget {
    package static let name = "playmate"
    private let directory: URL
    private static let files: [(name: String, header: String)] = [
        ("players.csv", "user_id,birthday,gender,lat,lon"),
        ("quiz.csv", "user_id,lat,lon,play_sports,avoid_sports,genders,age_groups"),
        ("sessions.csv", "session_id,sport,skill_level,creator_id,occurs_at,duration_min,lat,lon,location_name,capacity"),
        ("session_players.csv", "session_id,user_id"),
        ("friends.csv", "user_id,friend_id"),
        ("feedback.csv", "user_id,session_id,answer,reason"),
    ]
    /// 2026-01-15T06:00:00Z, the fixtures' night.
    private static let asOf: Int64 = 1_768_456_800
    private static let runDate = Int(asOf / 86_400)

    package init(scratch: URL) {
        directory = scratch
    }

    package func run(_ input: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome {
        let parts = input.split(separator: 0xFF, maxSplits: Self.files.count - 1, omittingEmptySubsequences: false)
        for (k, file) in Self.files.enumerated() {
            let url = directory.appendingPathComponent(file.name)
            if k < parts.count {
                try Self.write(parts[k], to: url)
            } else if file.name == "feedback.csv" {
                Self.remove(url)
            } else {
                try Self.write(Array((file.header + "\n").utf8), to: url)
            }
        }
        var loader = PlaymateLoader(runDate: Self.runDate)
        loader.maxRejectShare = 1
        loader.csvLimits = CSVLimits(maxFieldBytes: 256, maxFieldLines: 4)
        guard let export = try? loader.load(directory: directory) else { return .refused }
        // Whatever the loader accepted must rank without a trap, into records that parse.
        let ranker = PlaymateRanker(players: export.players, sessions: export.sessions,
                                    settings: RankingSettings(asOf: Self.asOf, runDate: Self.runDate))
        var scratch = PlaymateScratch(sessions: export.sessions.count)
        var json = JSONWriter(capacity: 1 << 12)
        var written = 0
        func check(_ record: [UInt8], key: String, _ dataset: String) throws {
            let object = try? JSONSerialization.jsonObject(with: Data(record)) as? [String: Any]
            guard let object, object["key"] as? String == key else {
                let text = String(decoding: record, as: UTF8.self)
                throw FuzzFinding(Self.name, "\(dataset) record of \(key.debugDescription) is not an object with its key: \(text)")
            }
            written += 1
        }
        for u in export.players.indices {
            let id = export.players[u].id
            let list = ranker.suggestions(for: u, scratch: &scratch)
            if ranker.writeSessions(u, list, to: &json) { try check(json.take(), key: id, "sessions") }
            ranker.writeStats(u, ranker.stats(for: u), to: &json)
            try check(json.take(), key: id, "player_stats")
            if ranker.writeUpcomingSessions(u, to: &json) { try check(json.take(), key: id, "upcoming_sessions") }
        }
        for i in export.sessions.indices {
            try check(ranker.sessionRecordJSON(i, &json), key: export.sessions[i].id, "playmate_sessions")
        }
        for cell in ranker.openSessionRecords(precision: 4) { try check(cell.json, key: cell.key, "open_sessions") }
        return .accepted(reached: written)
    }

    /// The tiny exports, with and without the optional feedback: every player gets a stats
    /// record and every session a record of its own.
    package static func seeds(_ sources: FuzzSeedSources) throws -> [FuzzSeed] {
        func joined(_ files: [String]) throws -> [UInt8] {
            var out: [UInt8] = []
            for (k, f) in files.enumerated() {
                if k > 0 { out.append(0xFF) }
                out += try sources.tiny("playmate/\(f).csv")
            }
            return out
        }
        let least = try sources.tinyRows("playmate/players.csv") + sources.tinyRows("playmate/sessions.csv")
        return [
            FuzzSeed(name: "all", bytes: try joined(["players", "quiz", "sessions", "session_players", "friends", "feedback"]), least: least),
            FuzzSeed(name: "no feedback", bytes: try joined(["players", "quiz", "sessions", "session_players", "friends"]), least: least),
        ]
    }
}
