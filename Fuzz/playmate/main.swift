// libFuzzer target: the Playmate exports through their loader, then the Playmate ranking of
// every player on what the loader accepted. The input is cut at 0xFF bytes into players.csv,
// quiz.csv, sessions.csv, session_players.csv, friends.csv and feedback.csv (a file the input
// does not reach is its header alone; feedback.csv, optional, is then absent).
// Build and run: scripts/fuzz.sh playmate SECONDS
import Foundation
import TonightFuzzSupport
import TonightCore
import TonightExports
import TonightRanking

let directory = FuzzSupport.scratch("playmate")
let files: [(name: String, header: String)] = [
    ("players.csv", "user_id,birthday,gender,lat,lon"),
    ("quiz.csv", "user_id,lat,lon,play_sports,avoid_sports,genders,age_groups"),
    ("sessions.csv", "session_id,sport,skill_level,creator_id,occurs_at,duration_min,lat,lon,location_name,capacity"),
    ("session_players.csv", "session_id,user_id"),
    ("friends.csv", "user_id,friend_id"),
    ("feedback.csv", "user_id,session_id,answer,reason"),
]
// 2026-01-15T06:00:00Z, the fixtures' night.
let asOf: Int64 = 1_768_456_800
let runDate = Int(asOf / 86_400)

FuzzSupport.run { data, size in
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var parts = bytes.split(separator: 0xFF, maxSplits: files.count - 1, omittingEmptySubsequences: false)
    for (k, file) in files.enumerated() {
        let url = directory.appendingPathComponent(file.name)
        if k < parts.count {
            FuzzSupport.write(Array(parts[k]), to: url)
        } else if file.name == "feedback.csv" {
            try? FileManager.default.removeItem(at: url)
        } else {
            FuzzSupport.write(Array((file.header + "\n").utf8), to: url)
        }
    }
    parts.removeAll()
    var loader = PlaymateLoader(runDate: runDate)
    loader.maxRejectShare = 1
    loader.csvLimits = CSVLimits(maxFieldBytes: 256, maxFieldLines: 4)
    guard let export = try? loader.load(directory: directory) else { return }
    // Whatever the loader accepted must rank without a trap.
    let ranker = PlaymateRanker(players: export.players, sessions: export.sessions, settings: RankingSettings(asOf: asOf, runDate: runDate))
    var scratch = PlaymateScratch(sessions: export.sessions.count)
    var json = JSONWriter(capacity: 1 << 12)
    for u in export.players.indices {
        let list = ranker.suggestions(for: u, scratch: &scratch)
        _ = ranker.sessionsJSON(u, list, &json)
        _ = ranker.statsJSON(u, ranker.stats(for: u), &json)
        _ = ranker.upcomingSessionsJSON(u, &json)
    }
    for i in export.sessions.indices { _ = ranker.sessionRecordJSON(i, &json) }
    _ = ranker.openSessionRecords(precision: 4)
}
