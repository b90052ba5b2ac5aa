import Foundation

/// A pool of `PrefixedOutput` buffers shared by the threads reading one layout-2 file: a
/// lookup decompresses its frame into one (after the dictionary, zstd's prefix, when the file
/// has one) and copies it out; a scan keeps one buffer for its whole range. Making a buffer
/// copies the dictionary and digests it (tens of microseconds), more than a lookup, so buffers
/// are kept, up to 16, unless a large frame grew them past `keptCapacity`: a snapshot whose
/// frames are large (a record of megabytes is a frame of its own) would otherwise hold 16 such
/// buffers for as long as the dataset is open, where a lookup used to free its frame after it.
final class PrefixedOutputs: @unchecked Sendable {
    /// The largest output region a buffer may have to go back into the pool (frames are
    /// ~2 KiB; a buffer grown for a larger one is freed after use).
    static let keptCapacity = 1 << 20

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
            if free.count < 16 && output.capacity <= Self.keptCapacity { free.append(output) }
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

    /// The output regions of the buffers the pool holds now (tests).
    var keptCapacities: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return free.map(\.capacity)
    }
}
