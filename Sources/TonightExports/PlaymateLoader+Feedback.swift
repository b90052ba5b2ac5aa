import Foundation
import TonightCore

/// `feedback.csv` (optional; issue 16): what players answered about suggested sessions,
/// `user_id,session_id,answer,reason` with answer `yes|no` and reason
/// `sport|time|place|people|other` (empty allowed), compared case-insensitively.
extension PlaymateLoader {
    static let answers: Set<String> = ["yes", "no"]
    static let reasons: Set<String> = ["sport", "time", "place", "people", "other"]

    /// Reads the file into `players[…].feedback`. Rows count in file order and the last row of
    /// a (player, session) pair is the standing answer, so a player may change their mind. A
    /// standing `no` declines the session; a standing `no` for the reason `sport` also makes
    /// the session's sport avoided. Unknown players and sessions are counted, not rejected
    /// (the answer may outlive a deleted session); a bad answer or reason is a reject.
    /// Returns the number of data rows.
    func readFeedback(
        _ file: CSVFile, players: inout [PlaymatePlayer], index: IDIndex, sessions: [PlaymateSession],
        sessionIndex: IDIndex, counts: inout [String: Int], rejects: inout [ExportReject]
    ) throws -> Int {
        struct Answer {
            var declined: Bool
            var forSport: Bool
        }
        // (player index, session index) → the standing answer.
        var standing: [UInt64: Answer] = [:]
        let rows = try file.forEachRow(required: ["user_id", "session_id", "answer"], rejects: &rejects) { row, reject in
            guard Self.id(row["user_id"], "user_id", reject) != nil,
                  Self.id(row["session_id"], "session_id", reject) != nil else { return }
            let answer = (Field.text(row["answer"]) ?? "").lowercased()
            guard Self.answers.contains(answer) else {
                reject("bad-value", "answer '\(TonightError.quoted(Field.trimmed(row["answer"])))' is not yes or no"); return
            }
            let reason = (Field.text(row["reason"]) ?? "").lowercased()
            guard reason.isEmpty || Self.reasons.contains(reason) else {
                reject("bad-value", "reason '\(TonightError.quoted(Field.trimmed(row["reason"])))' is not sport, time, place, people or other (or empty)")
                return
            }
            guard let p = index.find(Field.trimmed(row["user_id"])) else { counts["feedback-unknown-player", default: 0] += 1; return }
            guard let s = sessionIndex.find(Field.trimmed(row["session_id"])) else {
                counts["feedback-unknown-session", default: 0] += 1; return
            }
            let pair = UInt64(UInt32(bitPattern: p)) << 32 | UInt64(UInt32(bitPattern: s))
            if standing[pair] != nil { counts["feedback-repeated", default: 0] += 1 }
            standing[pair] = Answer(declined: answer == "no", forSport: answer == "no" && reason == "sport")
        }
        var declined: [Int32: [String]] = [:]
        var avoided: [Int32: Set<String>] = [:]
        for (pair, a) in standing where a.declined {
            let p = Int32(bitPattern: UInt32(pair >> 32)), s = Int(UInt32(pair & 0xFFFF_FFFF))
            declined[p, default: []].append(sessions[s].id)
            if a.forSport { avoided[p, default: []].insert(sessions[s].sport) }
        }
        for (p, ids) in declined {
            players[Int(p)].feedback = PlaymateFeedback(
                declined: ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, avoidSports: (avoided[p] ?? []).sorted())
        }
        return rows
    }
}
