import Foundation

/// What an operator should do about a failed file operation, chosen by its POSIX error
/// number: a full disk, a read-only mount and a missing directory call for different
/// fixes, and one generic hint ("check that the path exists and is readable/writable")
/// sent the operator of a full disk to look at permissions.
package enum IOHint {
    /// The hint for `code` (an `errno` value) on `path`.
    package static func text(errno code: Int32, path: String) -> String {
        let directory = Self.directory(of: path)
        switch code {
        case ENOSPC:
            return "the file system is full: free space where it is written (df -h \(directory)) and run again"
        case EDQUOT:
            return "the disk quota is used up: free space or raise the quota, then run again"
        case EFBIG:
            return "the file is larger than this file system or the process's limit allows (ulimit -f)"
        case EROFS:
            return "the file system is read-only: mount it writable or use another directory"
        case EACCES, EPERM:
            return "permission denied: check the owner and mode of the file and of \(directory)"
        case ENOENT, ENOTDIR:
            return "check that the path exists"
        case EMFILE, ENFILE:
            return "too many open files: raise the limit (ulimit -n) and run again"
        case EIO:
            return "the device reported an I/O error: check the disk (dmesg) before running again"
        case ENOMEM:
            return "out of memory: free memory or run with fewer threads (--threads)"
        default:
            return "check that the path exists and is readable/writable"
        }
    }

    /// `path`'s directory, for a `df` the operator can paste (quoted when it needs to be):
    /// above the temporary directories a failed write leaves or removes (`.tickets.tmp`,
    /// `.tmp-<run>`: names that start with a dot), so that it still exists when read.
    static func directory(of path: String) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()  // the file's name
        while let last = parts.last, last.hasPrefix(".") && parts.count > 1 { parts.removeLast() }
        let joined = parts.joined(separator: "/")
        let dir: Substring = joined.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : Substring(joined)
        let plain = dir.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "/") || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
        }
        if plain { return String(dir) }
        return "'" + Quoted.text(String(dir), limit: 200).replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
