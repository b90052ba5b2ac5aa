import Foundation

/// A pool of `PrefixedOutput` buffers shared by the threads reading one layout-2 file: a
/// lookup decompresses its frame into one (after the dictionary, zstd's prefix, when the file
/// has one) and copies it out; a scan keeps one buffer for its whole range. Making a buffer
/// copies the dictionary and digests it (tens of microseconds), more than a lookup, so buffers
/// are kept, up to 16.
final class PrefixedOutputs: @unchecked Sendable {
    private let dictionary: DecompressionDictionary?
    private let lock = NSLock()
    private var free: [PrefixedOutput] = []
    private var largest = 0

    /// A pool for the frames of a file compressed with `dictionary` (nil: without one).
    init(dictionary: DecompressionDictionary?) {
        self.dictionary = dictionary
    }

    /// Runs `body` with a buffer taken from the pool (or a new one) and returns it after.
    func with<T>(path: String, _ body: (PrefixedOutput) throws -> T) throws -> T {
        lock.lock()
        let taken = free.popLast()
        lock.unlock()
        let output = try taken ?? PrefixedOutput(dictionary: dictionary, capacity: 16 << 10, path: path)
        defer {
            lock.lock()
            largest = max(largest, output.capacity)
            if free.count < 16 { free.append(output) }
            lock.unlock()
        }
        return try body(output)
    }

    /// The largest output region any buffer of the pool has had, once returned (tests: what a
    /// damaged key table could make the reader reserve).
    var largestCapacity: Int {
        lock.lock()
        defer { lock.unlock() }
        return largest
    }
}
