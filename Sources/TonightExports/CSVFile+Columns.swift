import TonightCore

/// The columns each export file's loader reads (user-data.md), for `absentColumns`.
enum ExportColumns {
    /// Optional columns by file: a header without one is said (`absent-column`).
    static let optional: [String: [String]] = [
        "users.csv": ["home_zip", "lat", "lon", "radius_km", "max_price"],
        "players.csv": ["birthday", "gender", "lat", "lon"],
        "quiz.csv": ["lat", "lon", "play_sports", "avoid_sports", "genders", "age_groups"],
        "sessions.csv": ["skill_level", "duration_min", "location_name"],
        "feedback.csv": ["reason"],
    ]
    /// Required columns by file (a header without one is an error).
    static let required: [String: [String]] = [
        "users.csv": ["user_id"], "players.csv": ["user_id"], "quiz.csv": ["user_id"],
        "sessions.csv": ["session_id", "sport", "creator_id", "occurs_at", "lat", "lon", "capacity"],
        "feedback.csv": ["user_id", "session_id", "answer"],
    ]
    /// Columns where a null marker (`NullMarkers.words`) is read as an empty field: every
    /// column but the ids. A required one is then missing (`missing-field`).
    static let nullable: [String: [String]] = optional.merging([
        "sessions.csv": ["sport", "occurs_at", "lat", "lon", "capacity"], "feedback.csv": ["answer"],
    ]) { $0 + $1 }
}

extension CSVFile {
    /// What a header read by `header(required:)` or `forEachRow` lacks of its file's optional
    /// columns, as one line for the stage's warnings (`users.csv: no lat, lon (columns not
    /// read: latitude, longitude)`), or nil when it has them all.
    ///
    /// An unknown column is ignored (user-data.md), so an exporter that names `lat`
    /// `latitude` lost every user's coordinates without a word: each user was then placed by
    /// ZIP or nowhere (every event in reach). The columns no rule reads are named beside the
    /// absent ones, so that a near miss is seen at once.
    func absentColumns() -> String? {
        guard let optional = ExportColumns.optional[name] else { return nil }
        let absent = optional.filter { columns[$0] == nil }
        guard !absent.isEmpty else { return nil }
        let read = Set(optional + (ExportColumns.required[name] ?? []))
        let unread = columns.sorted { $0.value < $1.value }.map(\.key).filter { !read.contains($0) && !$0.isEmpty }
        return "\(name): no \(absent.joined(separator: ", "))"
            + (unread.isEmpty ? "" : " (columns not read: " + unread.prefix(8).map { "'\(TonightError.quoted($0, limit: 40))'" }.joined(separator: ", ")
                + (unread.count > 8 ? ", …" : "") + ")")
    }
}

extension ExportDirectory {
    /// Records `notes` (from `CSVFile.absentColumns`) as the warning `absent-column`.
    static func note(absentColumns notes: [String], counts: inout [String: Int], examples: inout [String: [String]]) {
        guard !notes.isEmpty else { return }
        counts["absent-column"] = notes.count
        examples["absent-column"] = notes
    }
}
