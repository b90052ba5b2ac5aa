import Foundation
import TonightBase

/// An error of the snapshot reader: which file, what is wrong, and a code to match on.
public struct SnapshotError: Error, CustomStringConvertible, Sendable {
    /// The class of a reader error, for callers that react differently to each.
    public enum Code: String, Sendable, Equatable, Hashable {
        /// A file, snapshot, dataset or `CURRENT` that is not there.
        case missing
        /// A manifest, index or `CURRENT` that cannot be parsed.
        case malformed
        /// Data that fails a checksum, hash, count or order check.
        case corrupt
        /// A record pointing at an id its target dataset lacks.
        case danglingReference
        /// A format or layout this version of the library does not read.
        case unsupported
        /// An argument that cannot name anything (an id of the wrong shape).
        case invalidArgument
        /// A read that failed (permissions, I/O).
        case io
    }

    /// The file concerned.
    public var file: String
    /// What went wrong (corrupt data, a missing file, a bad manifest, …).
    public var message: String
    /// The class of the error.
    public var code: Code
    /// The POSIX error number of a failed system call (`code` `.io`), for the pipeline's hint.
    package var errorNumber: Int32? = nil

    /// Creates an error for `file`.
    public init(file: String, _ message: String, code: Code = .corrupt) {
        self.file = file
        self.message = message
        self.code = code
    }

    /// An I/O error of a system call on `file`: `what` failed, with `errno`'s text.
    package static func system(_ what: String, file: String, errno number: Int32) -> SnapshotError {
        var e = SnapshotError(file: file, "\(what): \(String(cString: strerror(number)))", code: .io)
        e.errorNumber = number
        return e
    }

    /// `FILE: message`.
    public var description: String { "\(file): \(message)" }

    /// Text taken from a file or an argument, made safe to repeat in a message: control
    /// characters escaped, invalid UTF-8 replaced, at most `limit` characters.
    public static func quoted(_ bytes: some Collection<UInt8>, limit: Int = 80) -> String { Quoted.text(bytes, limit: limit) }

    /// `quoted` of a string.
    public static func quoted(_ text: String, limit: Int = 80) -> String { Quoted.text(text, limit: limit) }

    /// Runs `body`, turning a file that could not be read into the reader's error.
    static func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let f as RegularFile.Failure {
            throw SnapshotError(f)
        }
    }

    /// The reader's error for a file that could not be read.
    init(_ failure: RegularFile.Failure) {
        let code: Code = switch failure.kind {
        case .missing: .missing
        case .io, .changed: .io
        case .notRegular, .tooLarge: .corrupt
        }
        self.init(file: failure.path, failure.message, code: code)
        errorNumber = failure.errno
    }
}
