import TonightCore
import TonightBase
import TonightSnapshot

extension TonightError {
    /// A reader or writer error of the snapshot library, with the exit code its kind calls
    /// for: I/O (a full disk) 74, anything about the data 65.
    package init(_ e: SnapshotError, stage: String? = nil) {
        let kind: Kind = switch e.code {
        case .io: .io
        case .invalidArgument: .usage
        default: .invalidInput
        }
        self.init(kind, e.message, file: e.file, stage: stage,
                  hint: kind == .io ? e.errorNumber.map { IOHint.text(errno: $0, path: e.file) } ?? "check free space and permissions where it is written" : nil)
    }
}
