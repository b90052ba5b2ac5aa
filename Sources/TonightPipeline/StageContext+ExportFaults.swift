import Foundation

extension StageContext {
    /// The examples of the faults a loader found in an export (`examples.<kind>` details, for
    /// the report), and a WARNING line for those nobody would see otherwise: files in
    /// `folder`/ that are not read (`unread-file`) and optional columns a header lacks
    /// (`absent-column`).
    func sayExportFaults(_ examples: [String: [String]], counts: [String: Int], folder: String, into outcome: inout StageOutcome) {
        for (kind, rows) in examples { outcome.details["examples." + kind] = rows.joined(separator: "; ") }
        if let unread = examples["unread-file"] {
            logger.warning("\(stage): \(counts["unread-file"] ?? 0) file(s) in \(folder)/ not read: \(unread.joined(separator: "; "))")
        }
        for note in examples["absent-column"] ?? [] { logger.warning("\(stage): \(note)") }
    }
}
