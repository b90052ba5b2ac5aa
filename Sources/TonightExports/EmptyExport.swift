import Foundation
import TonightCore

/// An export file that holds its header and no rows.
///
/// An export whose query failed after the header was written, a copy cut short after the
/// first line, a table emptied by a botched migration: each leaves a header-only file. Read as
/// it is, that is an app without users, and the night publishes an empty list for everyone. On
/// a later night `publish.maxShrink` refuses such a snapshot, but only after every stage has
/// run; on a first night (no snapshot to compare with) nothing did. So the files a night
/// cannot mean anything without, `users.csv` and `favorites.csv` (Tickets Tonight) and
/// `players.csv` and `sessions.csv` (Playmate: sessions past and future), must hold a row, or
/// the load stage fails (exit 65) at once. An app that truly has none yet (a launch) sets
/// `exports.allowEmpty`. The other files (follows, dismissals, friends, members, quiz,
/// feedback) may be empty: a young app has none of them.
package enum EmptyExport {
    /// The files that must hold a row unless `exports.allowEmpty`.
    package static let mustHoldRows: Set<String> = ["users.csv", "favorites.csv", "players.csv", "sessions.csv"]

    /// Fails when `file` is one of `mustHoldRows` and none of its `rows` (data rows) holds a
    /// value: there are none, or each of them is a left join's row without one (`emptyValues`
    /// rows whose `column` is empty, `PairFile.emptyValues`).
    static func check(_ file: CSVFile, rows: Int, emptyValues: Int = 0, column: String = "", allowed: Bool) throws {
        guard rows == emptyValues, !allowed, mustHoldRows.contains(file.name) else { return }
        throw TonightError(
            .invalidInput,
            rows == 0 ? "\(file.name) holds a header and no rows: read as it is, the night would publish empty lists"
                : "\(file.name) holds no \(column): each of its \(rows) rows has it empty; read as it is, the night would publish empty lists",
            file: file.url.path, line: file.headerLine,
            hint: (rows == 0 ? "re-export it: a query that failed, or a copy cut short, leaves the header alone; "
                : "re-export it: a join that lost the \(column) column leaves every row's empty; ")
                + "if the app truly has none yet, set exports.allowEmpty: true")
    }
}
