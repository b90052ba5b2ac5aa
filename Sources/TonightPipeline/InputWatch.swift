import Foundation
import TonightCore

/// The input files a planned stage reads, each with the identity it had when the plan hashed
/// it. A file that is replaced or edited after the plan hashed it (a delivery still being
/// written, a file swapped during the run) would give outputs recorded under a hash that is
/// not of what was read, and a later run with that hash would reuse them: the stage fails
/// instead, before it starts or when it ends, and nothing of it is recorded. A new night's
/// file that is hashed while its stage runs (`StageRunner+HashWhileRunning`) is watched the
/// same way, from the identity the plan took instead of a hash.
package struct InputWatch: Sendable {
    /// Path → identity when hashed (or, for a deferred file, when the plan identified it).
    private(set) var files: [String: FileIdentity] = [:]
    /// The watched files whose hash was still pending when the plan was made: an error names
    /// what the plan did with them.
    private(set) var deferred: Set<String> = []
    /// Directory inputs → the names of the `.csv` files the plan hashed (the exports are read
    /// by name: one that appears after the plan, an optional `dismissed.csv`, say, would be
    /// read without being in the fingerprint).
    private(set) var directories: [String: [String]] = [:]

    package init() {}

    /// The file and directory inputs of a planned record; `identity` gives the identity each
    /// file had when it was hashed (a file without one is not watched).
    init(_ inputs: [StageRecord.Input], identity: (String) -> FileIdentity?) {
        for input in inputs {
            if input.kind == "directory", let path = input.path {
                directories[path] = (input.files ?? []).compactMap { $0.path.map { URL(fileURLWithPath: $0).lastPathComponent } }.sorted()
            }
            let hashed = input.kind == "file" ? [input] : input.kind == "directory" ? input.files ?? [] : []
            for f in hashed {
                guard let path = f.path, let id = identity(path) else { continue }
                files[path] = id
                if f.hash == StageRunner.pendingHash { deferred.insert(path) }
            }
        }
    }

    package var isEmpty: Bool { files.isEmpty && directories.isEmpty }

    /// Throws `io` (exit 74) naming the first file (in path order) whose identity is no
    /// longer the planned one, or that is gone.
    func check(stage: String, when moment: String) throws {
        for path in directories.keys.sorted() {
            let planned = directories[path]!
            let now = FileIO.list(URL(fileURLWithPath: path)).filter { $0.hasSuffix(".csv") }.sorted()
            guard now != planned else { continue }
            let added = Set(now).subtracting(planned).sorted(), removed = Set(planned).subtracting(now).sorted()
            let how = (added.map { "\($0) added" } + removed.map { "\($0) removed" }).joined(separator: ", ")
            throw changed(path, stage: stage, how: how, moment: moment)
        }
        for path in files.keys.sorted() {
            let planned = files[path]!
            let url = URL(fileURLWithPath: path)
            guard let now = try? FileIdentity(url) else {
                throw changed(path, stage: stage, how: "gone", moment: moment)
            }
            if let how = planned.change(to: now) { throw changed(path, stage: stage, how: how, moment: moment) }
        }
    }

    private func changed(_ path: String, stage: String, how: String, moment: String) -> TonightError {
        let after = deferred.contains(path)
            ? "after the plan identified it to hash it while the stage ran" : "after the plan hashed it"
        return TonightError(
            .io, "input changed \(after) (\(how)) \(moment): its outputs would not be of the bytes the run recorded",
            file: path, stage: stage,
            hint: "nothing of this stage was kept as completed; run again once the delivery is complete (deliver by rename)")
    }
}
