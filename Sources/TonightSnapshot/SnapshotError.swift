/// An error of the snapshot reader: which file, which frame or key, what is wrong.
public struct SnapshotError: Error, CustomStringConvertible, Sendable {
    /// The file concerned.
    public var file: String
    /// What went wrong (corrupt data, a missing file, a bad manifest, …).
    public var message: String

    /// Creates an error for `file`.
    public init(file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    /// `FILE: message`.
    public var description: String { "\(file): \(message)" }
}
