import Foundation
import TonightCore
import TonightSnapshot

extension SnapshotDirectory {
    /// The published id (nil when nothing is published); a damaged `CURRENT` or manifest is an
    /// input error naming the file, never silently "nothing published".
    func checkedCurrentID() throws -> String? {
        do {
            return try currentIDIfAny()
        } catch let e as SnapshotError {
            throw TonightError(.invalidInput, e.message, file: e.file,
                               hint: "list snapshots with `tonight snapshot list` and repair CURRENT with `tonight snapshot rollback ID`")
        }
    }

    /// The manifest of CURRENT's snapshot `id`, with errors as input errors naming the file
    /// and the repair: a rollback to a complete snapshot, then the publish again.
    func checkedManifest(_ id: String) throws -> SnapshotManifest {
        do {
            return try manifest(id)
        } catch let e as SnapshotError {
            throw TonightError(
                .invalidInput, "CURRENT names snapshot \(id), which cannot be read: \(e.message)", file: e.file,
                hint: "find out why (`tonight snapshot verify \(id)`), point CURRENT at a complete snapshot "
                    + "(`tonight snapshot list`, `tonight snapshot rollback ID`), then publish again (`tonight run --only publish`)")
        }
    }
}
