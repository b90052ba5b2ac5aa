import Foundation
import TonightCore
import TonightBase
import TonightGeo

/// What load-playmate produces.
package struct PlaymateExport: Sendable {
    package var players: [PlaymatePlayer]
    package var sessions: [PlaymateSession]
    package var rejects: [ExportReject]
    package var counts: [String: Int]
    package var rows: [String: Int]
    package var bytes: Int
    /// Examples of a warning that names a fault of the export (`unread-file`, up to five
    /// files; `absent-column`, a line per file), for the log and the report.
    package var examples: [String: [String]] = [:]
}

/// Reads the Playmate exports (user-data.md): players, quiz, sessions, session players, friends,
/// and the optional feedback (issue 16).
package struct PlaymateLoader {
    package var maxRejectShare = 0.01
    package var csvLimits = CSVLimits()
    /// Whether players.csv and sessions.csv may hold no rows (`exports.allowEmpty`; `EmptyExport`).
    package var allowEmpty = false
    /// The run date (days since the epoch): birthdays after it are rejected.
    package var runDate: Int
    /// The US ZIPs' points, to find coordinates given the wrong way round
    /// (`coordinates-swapped`, as load-tickets finds them); nil: not looked for.
    package var zipPoints: ZIPPoints?
    /// The files the loader reads (user-data.md; `feedback.csv` may be absent); any other is
    /// `unread-file`.
    package static let fileNames = ["players.csv", "quiz.csv", "sessions.csv", "session_players.csv", "friends.csv", "feedback.csv"]
    static let genders: Set<String> = ["Female", "Male", "Non-binary"]
    static let ageGroups: Set<String> = ["Under 12", "12-17", "18-24", "25-34", "35-44", "45-54", "55-64", "65-74", "75+"]

    /// The app's spelling of a gender or an age group written in another case or with another
    /// dash (`female`, `NON-BINARY`, `under 12`, `12–17` with an en dash, as an export of an
    /// enum column or a spreadsheet's autocorrect writes them), or nil. Until 2026-11-28 such a
    /// player's gender was a `bad-value` reject (the night failed when most were so written)
    /// and such a quiz answer matched nobody (`quiz-unknown-value`). Counted `value-spelling`.
    static func appSpelling(_ value: String, of names: Set<String>) -> String? {
        spellings[spellingKey(value)].flatMap { names.contains($0) ? $0 : nil }
    }

    /// `spellingKey` → the app's value, for every gender and age group.
    private static let spellings = Dictionary(uniqueKeysWithValues: genders.union(ageGroups).map { (spellingKey($0), $0) })

    /// Lower case, every dash and hyphen (U+2010…U+2015, U+2212, U+FE63, U+FF0D) as `-`.
    private static func spellingKey(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.lowercased().unicodeScalars {
            switch u.value {
            case 0x2010...0x2015, 0x2212, 0xFE63, 0xFF0D: out.append("-")
            default: out.append(u)
            }
        }
        return String(out)
    }

    package init(runDate: Int) {
        self.runDate = runDate
    }

    /// Sports are free text compared case-insensitively after trimming: the key is the
    /// trimmed text's full case folding (`NameKey.caseFolded`), so "Straße" and "STRASSE" are
    /// one sport, as are Cherokee's small and capital letters. Until 2026-11-28 the key was
    /// the lower case, which keeps "straße" and "strasse" (and the two Cherokee cases) apart.
    package static func sportKey(_ s: String) -> String {
        var s = s
        // ASCII text (nearly every sport): Foundation's `.whitespaces` there are the space and
        // the tab, and folding maps A–Z only. Foundation's trimming, through an `NSString`,
        // was a seventh of the stage's CPU.
        if let fast = s.withUTF8({ asciiSportKey($0) }) { return fast }
        return NameKey.caseFolded(s.trimmingCharacters(in: .whitespaces))
    }

    /// `sportKey` of ASCII bytes; nil for anything else.
    static func asciiSportKey(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
        var lo = 0, hi = b.count
        while lo < hi && (b[lo] == 0x20 || b[lo] == 0x09) { lo += 1 }
        while hi > lo && (b[hi - 1] == 0x20 || b[hi - 1] == 0x09) { hi -= 1 }
        return String(unsafeUninitializedCapacity: hi - lo) { out in
            for k in lo..<hi { out[k - lo] = b[k] &- 0x41 < 26 ? b[k] | 0x20 : b[k] }
            return hi - lo
        }
    }

    package func load(directory dir: URL) throws -> PlaymateExport {
        var rejects: [ExportReject] = []
        var counts: [String: Int] = [:]
        var rows: [String: Int] = [:]
        var bytes = 0
        var absentColumns: [String] = []
        var opened: [CSVFile] = []
        var examples: [String: [String]] = [:]
        func open(_ name: String) throws -> CSVFile {
            let url = dir.appendingPathComponent(name)
            guard FileIO.exists(url) else {
                throw ExportDirectory.missing(name, in: dir, known: Self.fileNames, export: "Playmate")
            }
            let f = try CSVFile(url, limits: csvLimits)
            bytes += f.byteCount
            // The header read once ahead (its rules apply to each file as it is read below).
            _ = try f.header(required: [])
            if let note = f.absentColumns() { absentColumns.append(note) }
            opened.append(f)
            return f
        }

        // players.csv
        let playersFile = try open("players.csv")
        var players: [PlaymatePlayer] = []
        var index = IDIndex(capacity: playersFile.byteCount / 30)
        var bad: [ExportReject] = []
        let earliestBirthday = CivilTime.parseDate(Array(FieldRanges.earliestBirthday.utf8))!
        rows["players.csv"] = try playersFile.forEachRow(required: ["user_id"], rejects: &bad) { row, reject in
            guard let id = Self.id(row["user_id"], "user_id", reject) else { return }
            var birthday: Int?
            if !Field.isEmpty(row["birthday"]) {
                let text = Field.trimmed(row["birthday"])
                let read = Self.birthday(text)
                switch read {
                case .midnight: counts["birthday-as-timestamp", default: 0] += 1
                case .timeOfDay:
                    reject("bad-date", "birthday '\(TonightError.quoted(text))' has a time of day: which date it is depends on the zone it was entered in (export the column as a date, YYYY-MM-DD)")
                    return
                case .date, .invalid: break
                }
                guard let d = read.days else {
                    reject("bad-date", "birthday '\(TonightError.quoted(text))' is not a real YYYY-MM-DD date"); return
                }
                guard d >= earliestBirthday, d <= runDate else {
                    reject("bad-date", "birthday \(CivilTime.formatDate(days: d)) is not between \(FieldRanges.earliestBirthday) and the run date \(CivilTime.formatDate(days: runDate))")
                    return
                }
                birthday = d
            }
            var gender = Field.text(row["gender"])
            if let g = gender, !Self.genders.contains(g) {
                guard let app = Self.appSpelling(g, of: Self.genders) else {
                    reject("bad-value", "gender '\(TonightError.quoted(g))' is not Female, Male or Non-binary"); return
                }
                gender = app
                counts["value-spelling", default: 0] += 1
            }
            guard let (lat, lon) = coordinates(row, in: playersFile, reject, counts: &counts, examples: &examples) else { return }
            guard index.insert(Field.trimmed(row["user_id"])) != nil else {
                reject("duplicate-id", "user_id \(id) appears earlier; the first row is kept"); return
            }
            players.append(PlaymatePlayer(id: id, birthday: birthday, gender: gender, lat: lat, lon: lon))
        }
        try EmptyExport.check(playersFile, rows: rows["players.csv"]!, allowed: allowEmpty)
        try RejectShare.check(maxRejectShare, stage: "load-playmate", playersFile, rows: rows["players.csv"]!, rejects: bad, before: rejects)
        rejects += bad

        // quiz.csv: one row per user who took the quiz.
        let quizFile = try open("quiz.csv")
        bad = []
        rows["quiz.csv"] = try quizFile.forEachRow(required: ["user_id"], text: ["play_sports", "avoid_sports"], rejects: &bad) { row, reject in
            // Split at the `|` scalar: a `|` followed by a combining mark is one `Character`.
            func list(_ name: String) -> [String] {
                let text = Field.text(row[name]) ?? ""
                if let items = Self.jsonList(text) {
                    counts["quiz-json-list", default: 0] += 1
                    return items.compactMap { TextNormalizer.clean($0) }
                }
                // `Tennis, Golf` or `Tennis;Golf` (a list typed in a spreadsheet) is two items too:
                // read as one, it was a sport no session has. Counted. Only in a field without `|`
                // (one in user-data.md's form is read by it: `Tennis, doubles|Golf` is two items)
                // and not in brackets (text that is no JSON array stays as it was).
                let scalars = text.unicodeScalars
                let typed = !scalars.contains("|") && !(text.hasPrefix("[") && text.hasSuffix("]"))
                    && scalars.contains { $0 == "," || $0 == ";" }
                if typed { counts["quiz-list-separator", default: 0] += 1 }
                return scalars.split { $0 == "|" || (typed && ($0 == "," || $0 == ";")) }.compactMap { TextNormalizer.clean(String($0)) }
            }
            guard Self.id(row["user_id"], "user_id", reject) != nil else { return }
            let idBytes = Field.trimmed(row["user_id"])
            guard let (lat, lon) = coordinates(row, in: quizFile, reject, counts: &counts, examples: &examples) else { return }
            guard let p = index.find(idBytes) else { counts["quiz-unknown-user", default: 0] += 1; return }
            func values(_ name: String, _ names: Set<String>) -> [String] {
                list(name).map { v in
                    guard !names.contains(v), let app = Self.appSpelling(v, of: names) else { return v }
                    counts["value-spelling", default: 0] += 1
                    return app
                }
            }
            let genders = values("genders", Self.genders), ages = values("age_groups", Self.ageGroups)
            let unknownValues = genders.filter { !Self.genders.contains($0) }.count + ages.filter { !Self.ageGroups.contains($0) }.count
            if unknownValues > 0 { counts["quiz-unknown-value", default: 0] += unknownValues }
            if players[Int(p)].quiz != nil { counts["quiz-duplicate", default: 0] += 1 }
            players[Int(p)].quiz = PlaymateQuiz(
                lat: lat, lon: lon, playSports: list("play_sports").map(Self.sportKey),
                avoidSports: list("avoid_sports").map(Self.sportKey), genders: genders.filter(Self.genders.contains),
                ageGroups: ages.filter(Self.ageGroups.contains))
        }
        try RejectShare.check(maxRejectShare, stage: "load-playmate", quizFile, rows: rows["quiz.csv"]!, rejects: bad, before: rejects)
        rejects += bad

        // sessions.csv
        let sessionsFile = try open("sessions.csv")
        var sessions: [PlaymateSession] = []
        var sessionIndex = IDIndex(capacity: sessionsFile.byteCount / 80)
        bad = []
        let required = ["session_id", "sport", "creator_id", "occurs_at", "lat", "lon", "capacity"]
        rows["sessions.csv"] = try sessionsFile.forEachRow(required: required, text: ["sport", "skill_level", "location_name"], rejects: &bad) { row, reject in
            guard let id = Self.id(row["session_id"], "session_id", reject) else { return }
            guard let sport = Field.text(row["sport"]) else { reject("missing-field", "sport is empty"); return }
            guard sport.utf8.count <= 200 else { reject("bad-value", "sport is longer than 200 bytes"); return }
            guard let creatorID = Self.id(row["creator_id"], "creator_id", reject) else { return }
            guard !Field.isEmpty(row["occurs_at"]) else { reject("missing-field", "occurs_at is empty"); return }
            let whenText = String(decoding: Field.trimmed(row["occurs_at"]), as: UTF8.self)
            guard let (when, epoch) = Self.occursAt(whenText) else {
                reject("bad-date", "occurs_at '\(TonightError.quoted(whenText))' is not an ISO 8601 instant "
                    + "(2026-11-22T18:00:00Z; an offset such as +00:00 or -05:00 is converted to UTC) "
                    + "nor seconds or milliseconds since 1970 (1732300000, 1732300000250)"); return
            }
            if epoch { counts["instant-as-epoch", default: 0] += 1 }
            guard FieldRanges.occursAt.contains(CivilTime.formatUTC(when)) else {
                reject("bad-date", "occurs_at \(whenText) is not between \(FieldRanges.occursAt.lowerBound) and \(FieldRanges.occursAt.upperBound)"); return
            }
            guard !Field.isEmpty(row["lat"]), !Field.isEmpty(row["lon"]) else {
                reject("missing-field", "lat and lon are required"); return
            }
            guard let (la, lo) = coordinates(row, in: sessionsFile, reject, counts: &counts, examples: &examples, required: true),
                  let lat = la, let lon = lo else { return }
            guard !Field.isEmpty(row["capacity"]) else { reject("missing-field", "capacity is empty"); return }
            guard let (capacity, capacityDecimal) = Field.wholeNumber(row["capacity"]), FieldRanges.capacity.contains(capacity) else {
                reject("bad-number", "capacity must be an integer in \(FieldRanges.capacity.lowerBound)…\(FieldRanges.capacity.upperBound)"); return
            }
            var duration: Int?
            var durationDecimal = false
            if !Field.isEmpty(row["duration_min"]) {
                guard let (d, decimal) = Field.wholeNumber(row["duration_min"]), FieldRanges.durationMin.contains(d) else {
                    reject("bad-number", "duration_min must be an integer in \(FieldRanges.durationMin.lowerBound)…\(FieldRanges.durationMin.upperBound)"); return
                }
                duration = Int(d)
                durationDecimal = decimal
            }
            guard sessionIndex.insert(Field.trimmed(row["session_id"])) != nil else {
                reject("duplicate-id", "session_id \(id) appears earlier; the first row is kept"); return
            }
            var creator: Int32 = -1
            if let c = index.find(Field.trimmed(row["creator_id"])) { creator = c } else { counts["unknown-creator", default: 0] += 1 }
            sessions.append(PlaymateSession(
                id: id, sport: Self.sportKey(sport), sportLabel: sport, skillLevel: Field.text(row["skill_level"]),
                creatorID: creatorID, creator: creator, occursAt: when, durationMin: duration, lat: lat, lon: lon,
                locationName: Field.text(row["location_name"]), capacity: Int(capacity)))
            if capacityDecimal || durationDecimal { counts["decimal-integer", default: 0] += 1 }
        }
        try EmptyExport.check(sessionsFile, rows: rows["sessions.csv"]!, allowed: allowEmpty)
        try RejectShare.check(maxRejectShare, stage: "load-playmate", sessionsFile, rows: rows["sessions.csv"]!, rejects: bad, before: rejects)
        rejects += bad

        // session_players.csv and friends.csv: pairs of interned ids.
        let membersFile = try open("session_players.csv")
        let members = try PairFile.read(membersFile, keyColumn: "session_id", valueColumn: "user_id", value: .index(index),
                                        index: sessionIndex, parts: 2)
        try RejectShare.check(maxRejectShare, stage: "load-playmate", membersFile, rows: members.rows, rejects: members.rejects, before: rejects)
        rows["session_players.csv"] = members.rows
        rejects += members.rejects
        counts["member-unknown-session", default: 0] += members.unknownUsers
        counts["member-unknown-player", default: 0] += members.unknownValues
        counts["empty-value", default: 0] += members.emptyValues
        // Repeats dropped: a set per session (a hostile export may put thousands of rows in one).
        var seen = Set<UInt64>()
        for (s, p) in zip(members.keys, members.values) {
            let player = Int32(p)
            if player == sessions[Int(s)].creator || !seen.insert(UInt64(s) << 32 | UInt64(p)).inserted {
                counts["member-duplicate", default: 0] += 1
                continue
            }
            sessions[Int(s)].joined.append(player)
        }

        let friendsFile = try open("friends.csv")
        let friends = try PairFile.read(friendsFile, keyColumn: "user_id", valueColumn: "friend_id", value: .index(index),
                                        index: index, parts: 2)
        try RejectShare.check(maxRejectShare, stage: "load-playmate", friendsFile, rows: friends.rows, rejects: friends.rejects, before: rejects)
        rows["friends.csv"] = friends.rows
        rejects += friends.rejects
        counts["friend-unknown-user", default: 0] += friends.unknownUsers + friends.unknownValues
        counts["empty-value", default: 0] += friends.emptyValues
        seen.removeAll()
        for (u, f) in zip(friends.keys, friends.values) where seen.insert(UInt64(u) << 32 | UInt64(f)).inserted {
            players[Int(u)].friends.append(Int32(f))
        }

        // feedback.csv (optional): standing answers about sessions.
        if FileIO.exists(dir.appendingPathComponent("feedback.csv")) {
            let feedbackFile = try open("feedback.csv")
            bad = []
            rows["feedback.csv"] = try readFeedback(feedbackFile, players: &players, index: index, sessions: sessions,
                                                    sessionIndex: sessionIndex, counts: &counts, rejects: &bad)
            try RejectShare.check(maxRejectShare, stage: "load-playmate", feedbackFile, rows: rows["feedback.csv"]!, rejects: bad, before: rejects)
            rejects += bad
        }
        for (k, v) in counts where v == 0 { counts[k] = nil }
        for file in opened { file.nullMarkers.record(counts: &counts, examples: &examples) }
        ExportDirectory.note(in: dir, known: Self.fileNames, counts: &counts, examples: &examples)
        ExportDirectory.note(absentColumns: absentColumns, counts: &counts, examples: &examples)
        return PlaymateExport(players: players, sessions: sessions, rejects: rejects, counts: counts, rows: rows, bytes: bytes,
                              examples: examples)
    }

    /// A quiz list written as a JSON array of strings (`["Tennis","Golf"]`), as exports of
    /// Parse's array columns write it, instead of user-data.md's `Tennis|Golf`: its items, or
    /// nil when `text` is not such an array. Read as one item, the array was a sport no
    /// session has (its +10 lost without a word) and a gender or age group never matched.
    static func jsonList(_ text: String) -> [String]? {
        guard text.hasPrefix("["), text.hasSuffix("]"),
              let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else { return nil }
        let items = array.compactMap { $0 as? String }
        return items.count == array.count ? items : nil
    }

    /// A valid id, or nil after a reject (`missing-field` when empty, else `bad-id`).
    static func id(_ field: UnsafeBufferPointer<UInt8>, _ name: String, _ reject: (String, String) -> Void) -> String? {
        if let id = Field.id(field) { return id }
        if Field.isEmpty(field) {
            reject("missing-field", "\(name) is empty")
        } else {
            reject("bad-id", "\(name) '\(TonightError.quoted(Field.trimmed(field)))' is not 1 to 64 printable characters of valid UTF-8")
        }
        return nil
    }

    /// Optional coordinates: both or neither, numbers in range; nil after a reject. 0, 0 (`NullIsland`)
    /// is none, counted in `counts`; where a place is `required` (a session's) it is a reject.
    private func coordinates(
        _ row: CSVRow, in file: CSVFile, _ reject: (String, String) -> Void,
        counts: inout [String: Int], examples: inout [String: [String]], required: Bool = false
    ) -> (Double?, Double?)? {
        let latField = row["lat"], lonField = row["lon"]
        let hasLat = !Field.isEmpty(latField), hasLon = !Field.isEmpty(lonField)
        guard hasLat || hasLon else { return (nil, nil) }
        guard hasLat && hasLon, let la = Field.double(latField), let lo = Field.double(lonField) else {
            reject("bad-number", "lat and lon must both be numbers")
            return nil
        }
        guard FieldRanges.latitude.contains(la), FieldRanges.longitude.contains(lo) else {
            reject("bad-coordinates", "lat \(la), lon \(lo) out of range")
            return nil
        }
        if NullIsland.holds(la, lo) {
            guard !required else {
                reject("bad-coordinates", "lat 0, lon 0: \(NullIsland.words) (a session's place is required)")
                return nil
            }
            counts[NullIsland.warning, default: 0] += 1
            return (nil, nil)
        }
        // Far from every US ZIP and near one the other way round: an exporter that wrote
        // them swapped (the eastern US lands in Antarctica; the western half is out of range,
        // a reject above). Counted and named, not moved: which rows are wrong is a guess.
        // Before 2026-11-28 such a player or session was out of everyone's reach unsaid.
        if let zipPoints, abs(lo) <= 90, !zipPoints.isNearAZIP(lat: la, lon: lo), zipPoints.isNearAZIP(lat: lo, lon: la) {
            counts[Self.swapped, default: 0] += 1
            if examples[Self.swapped, default: []].count < 5 {
                examples[Self.swapped, default: []].append("\(file.name):\(row.line) lat \(la), lon \(lo)")
            }
        }
        return (la, lo)
    }

    /// The warning of coordinates given the wrong way round (load-tickets' name).
    static let swapped = "coordinates-swapped"

}
