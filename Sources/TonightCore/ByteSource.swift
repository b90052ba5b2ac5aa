import Foundation
import TonightBase

/// A pull stream of bytes: fills the buffer, returns the count, 0 at end of input.
package protocol ByteSource: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Bytes consumed from the underlying file so far (compressed bytes for a decoder).
    var compressedBytesRead: Int64 { get }
}

/// Limits that apply to every input, compressed or not (feed.md "Limits").
package struct InputLimits: Sendable, Equatable {
    /// Most decompressed bytes accepted (default 4 GiB).
    package var maxBytes: Int64 = 4 << 30
    /// Most decompressed/compressed ratio accepted once 8 MiB are out (decompression bombs).
    package var maxCompressionRatio: Double = 200
    /// zstd window limit (log2 bytes) so a hostile frame cannot ask for a huge buffer; 27
    /// (128 MiB) accepts what `zstd --long=27` writes.
    package var zstdWindowLogMax: Int32 = 27

    package init() {}
}

/// The compression of an input, told by its magic bytes (never by a library guessing).
package enum Compression: String, Sendable {
    case none, gzip, zstd

    package static func detect(_ head: [UInt8]) -> Compression {
        if head.count >= 2, head[0] == 0x1f, head[1] == 0x8b { return .gzip }
        if head.count >= 4, head[0] == 0x28, head[1] == 0xb5, head[2] == 0x2f, head[3] == 0xfd { return .zstd }
        // A skippable frame first (0x184D2A50…5F, as `pzstd` writes): a zstd stream too.
        if head.count >= 4, head[0] & 0xF0 == 0x50, head[1] == 0x2a, head[2] == 0x4d, head[3] == 0x18 { return .zstd }
        return .none
    }
}

/// Opens an input file as a stream of decompressed bytes with the limits applied.
package enum InputStreams {
    package static func open(_ url: URL, limits: InputLimits) throws -> any ByteSource {
        let file = try FileSource(url)
        let head = try file.peek(4)
        switch Compression.detect(head) {
        case .none:
            return CappedSource(file, limits: limits, path: url.path, compressed: false)
        case .gzip:
            return CappedSource(try GzipSource(file, path: url.path), limits: limits, path: url.path, compressed: true)
        case .zstd:
            return CappedSource(
                try ZstdSource(file, path: url.path, windowLogMax: limits.zstdWindowLogMax), limits: limits,
                path: url.path, compressed: true)
        }
    }
}

/// A file read with read(2); owns its descriptor.
package final class FileSource: ByteSource {
    private let fd: Int32
    private let path: String
    private var pending: [UInt8] = []
    package private(set) var compressedBytesRead: Int64 = 0

    /// The file's size when it was opened: a file that shrinks or grows while it is read is
    /// an error at its end.
    private let size: Int

    package init(_ url: URL) throws {
        path = url.path
        (fd, size) = try FileIO.openRegular(url)
        #if os(Linux)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    deinit { close(fd) }

    /// Reads the first `n` bytes without consuming them.
    package func peek(_ n: Int) throws -> [UInt8] {
        var buf = [UInt8](repeating: 0, count: n)
        let got = try buf.withUnsafeMutableBytes { try rawRead($0) }
        pending = Array(buf[0..<got])
        return pending
    }

    private func rawRead(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Foundation.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 {
                compressedBytesRead += Int64(n)
                if n == 0 || compressedBytesRead > Int64(size) {
                    // At the end (or past it): the file must still be what was opened.
                    guard compressedBytesRead == Int64(size) else {
                        throw TonightError(.io, RegularFile.changed(path).message, file: path,
                                           hint: "deliver inputs by writing a new file and renaming it into place")
                    }
                    do { try RegularFile.checkUnchanged(fd, size: size, path: path) } catch {
                        throw TonightError(.io, RegularFile.changed(path).message, file: path,
                                           hint: "deliver inputs by writing a new file and renaming it into place")
                    }
                }
                return n
            }
            if errno == EINTR { continue }
            throw TonightError.io("read", path: path)
        }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if !pending.isEmpty {
            let n = min(buffer.count, pending.count)
            pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
            pending.removeFirst(n)
            return n
        }
        return try rawRead(buffer)
    }
}

/// Enforces `InputLimits` on a decompressed stream.
final class CappedSource: ByteSource {
    private let inner: any ByteSource
    private let limits: InputLimits
    private let path: String
    private let compressed: Bool
    private var total: Int64 = 0

    init(_ inner: any ByteSource, limits: InputLimits, path: String, compressed: Bool) {
        self.inner = inner
        self.limits = limits
        self.path = path
        self.compressed = compressed
    }

    var compressedBytesRead: Int64 { inner.compressedBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = try inner.read(into: buffer)
        total += Int64(n)
        if total > limits.maxBytes {
            throw TonightError(
                .invalidInput, "input exceeds \(limits.maxBytes) bytes (decompressed)", file: path,
                hint: "raise feed.limits.maxInputBytes if this input is genuine")
        }
        if compressed, total > 8 << 20 {
            let ratio = Double(total) / Double(max(1, inner.compressedBytesRead))
            if ratio > limits.maxCompressionRatio {
                throw TonightError(
                    .invalidInput,
                    "decompression ratio \(Int(ratio)):1 exceeds \(Int(limits.maxCompressionRatio)):1 (decompression bomb?)",
                    file: path, hint: "raise feed.limits.maxCompressionRatio if this input is genuine")
            }
        }
        return n
    }
}
