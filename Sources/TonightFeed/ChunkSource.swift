import Foundation
import TonightCore

/// Where the parser's input chunks come from; the last call passes an empty chunk.
protocol ChunkSource {
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws
    var consumedBytes: Int64 { get }
}

/// A decoded stream (gzip, zstd, or a plain file read with read(2)).
final class StreamChunks: ChunkSource {
    let source: any ByteSource
    let path: String

    init(source: any ByteSource, path: String) {
        self.source = source
        self.path = path
    }

    var consumedBytes: Int64 { source.compressedBytesRead }

    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FeedParser.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do {
                n = try source.read(into: buffer)
            } catch var e as TonightError {
                if e.file == nil { e.file = path }
                throw e
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            if n == 0 { return }
        }
    }
}

/// A plain (uncompressed) file, memory-mapped and handed to libxml2 without a read(2) copy.
/// Consumed ranges are dropped from the mapping as the parser moves on (`MADV_DONTNEED`), so
/// the process's resident memory does not grow with the input.
final class MappedFile: ChunkSource {
    private let base: UnsafeMutableRawPointer
    private let size: Int
    private(set) var consumedBytes: Int64 = 0
    static let chunk = 1 << 20

    /// nil when the file is compressed (told by magic bytes) or empty: use a stream instead.
    init?(_ url: URL, limit: Int64) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TonightError.io("open", path: url.path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw TonightError.io("stat", path: url.path) }
        let n = Int(st.st_size)
        guard n > 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        if Int64(n) > limit {
            throw TonightError(
                .invalidInput, "input exceeds \(limit) bytes", file: url.path,
                hint: "raise feed.limits.maxInputBytes if this input is genuine")
        }
        guard let p = mmap(nil, n, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        var head = [UInt8](repeating: 0, count: min(4, n))
        head.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: p, count: $0.count)) }
        guard Compression.detect(head) == .none else {
            munmap(p, n)
            return nil
        }
        madvise(p, n, MADV_SEQUENTIAL)
        base = p
        size = n
    }

    deinit { munmap(base, size) }

    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var offset = 0
        var released = 0
        while offset < size {
            let n = min(Self.chunk, size - offset)
            try body(UnsafeRawBufferPointer(start: base + offset, count: n))
            offset += n
            consumedBytes = Int64(offset)
            // libxml2 copied what it needs; give back pages more than one chunk behind.
            let keep = offset - Self.chunk
            if keep - released >= 8 * Self.chunk {
                madvise(base + released, keep - released, MADV_DONTNEED)
                released = keep
            }
        }
        try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
}
