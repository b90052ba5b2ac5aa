import Foundation
import TonightCore

/// The files of an export folder (`tickets/`, `playmate/`) that the loaders do not read.
///
/// The loaders read fixed names (user-data.md). A file beside them that looks like an export
/// was read by nobody and said by nobody: the second part of a split export
/// (`users-000000000001.csv`, as BigQuery's wildcard exports name them), a name in another
/// case or spelling (`Users.csv`, `favourites.csv`), a compressed file (`users.csv.gz`), a
/// browser's second download (`users (1).csv`). Its rows were lost without a word. Such
/// files are now counted (`unread-file`) and named in the stage's log and report; a missing
/// file's error names the files that are probably it.
package enum ExportDirectory {
    /// The names in `directory` that look like export files (`.csv` or `.tsv` in the name,
    /// any case, compressed or not) and are none of `known`, sorted. Hidden files and
    /// folders are left out.
    package static func unread(in directory: URL, known: [String]) -> [String] {
        FileIO.files(in: directory).filter { name in
            let lower = name.lowercased()
            return !known.contains(name) && (lower.contains(".csv") || lower.contains(".tsv"))
        }
    }

    /// The error for a required export file that is missing from `directory`: it names the
    /// files there that are probably it, and what to do with them.
    package static func missing(_ name: String, in directory: URL, known: [String], export: String) -> TonightError {
        let candidates = FileIO.lookalikes(of: name, in: directory)
        let found = candidates.isEmpty ? ""
            : "; found instead: " + candidates.prefix(5).map { "'\(TonightError.quoted($0))'" }.joined(separator: ", ")
                + (candidates.count > 5 ? " and \(candidates.count - 5) more" : "")
        return TonightError(
            .invalidInput, "export file \(name) is missing\(found)", file: directory.appendingPathComponent(name).path,
            hint: candidates.isEmpty
                ? "the \(export) export must hold \(known.joined(separator: ", ")) (user-data.md)"
                : "give the file the name \(name) (a split export: join its parts into one file, one header); "
                    + "the job reads \(known.joined(separator: ", ")) and nothing else")
    }

    /// The counts and examples of the unread files in `directory`, for the stage's warnings.
    package static func note(in directory: URL, known: [String], counts: inout [String: Int], examples: inout [String: [String]]) {
        let unread = unread(in: directory, known: known)
        guard !unread.isEmpty else { return }
        counts["unread-file"] = unread.count
        examples["unread-file"] = unread.prefix(5).map { "'\(TonightError.quoted($0))' (the job reads \(known.joined(separator: ", ")))" }
    }
}
