import CZstd

/// An output buffer laid out as `[dictionary | output]`, with a `ZSTD_DDict` made by
/// reference on that copy of the dictionary: a frame decompressed at the output finds the
/// dictionary in the bytes just before it, as zstd's prefix, so its matches into the
/// dictionary are copied inline like any other. Decompressed anywhere else, the dictionary is
/// a separate segment (zstd's extDict) and every match into it is a `memmove` call: with 2 KiB
/// frames almost every match is one (7.4 % of a verification pass on realistic `full`:
/// publish-log.md, "The dictionary as the frames' prefix"). The bytes and every check are
/// those of decompressing anywhere else. A file without a dictionary gets the same buffer
/// without the prefix (`ddict` nil), so that every frame is decompressed one way.
///
/// A class that owns its memory and its `ZSTD_DDict` (freed in `deinit`); kept in its file's
/// pool (`PrefixedOutputs`) and used by one thread at a time.
final class PrefixedOutput {
    private let dictionary: [UInt8]
    private var base: UnsafeMutableRawPointer
    /// Bytes after the dictionary.
    private(set) var capacity: Int
    private var digested: OpaquePointer?

    /// A buffer for frames of up to `capacity` bytes (more on demand: `output(atLeast:)`),
    /// after a copy of `dictionary` when there is one.
    init(dictionary: DecompressionDictionary?, capacity: Int, path: String) throws {
        self.dictionary = dictionary?.bytes ?? []
        self.capacity = capacity
        base = Self.allocate(self.dictionary, capacity)
        do {
            digested = try Self.digest(self.dictionary, at: base, path: path)
        } catch {
            base.deallocate()
            throw error
        }
    }

    deinit {
        if let digested { ZSTD_freeDDict(digested) }
        base.deallocate()
    }

    /// The dictionary, digested where this buffer holds it (nil: frames without one).
    var ddict: OpaquePointer? { digested }

    /// The output region (right after the dictionary), at least `n` bytes: a larger buffer,
    /// the dictionary copied and digested again at its start, when `n` exceeds it. Callers
    /// size `n` from a frame's header only once it agrees with the key table
    /// (`DictionaryFramesFile`), so a damaged table cannot make a buffer of gigabytes.
    func output(atLeast n: Int, path: String) throws -> UnsafeMutableRawBufferPointer {
        if n > capacity {
            let grown = max(n, capacity * 2)
            let newBase = Self.allocate(dictionary, grown)
            let d: OpaquePointer?
            do {
                d = try Self.digest(dictionary, at: newBase, path: path)
            } catch {
                newBase.deallocate()
                throw error
            }
            if let digested { ZSTD_freeDDict(digested) }
            base.deallocate()
            (base, capacity, digested) = (newBase, grown, d)
        }
        return UnsafeMutableRawBufferPointer(start: base + dictionary.count, count: capacity)
    }

    /// A `ZSTD_DDict` by reference on the copy at `base` (nil without a dictionary).
    private static func digest(_ dictionary: [UInt8], at base: UnsafeMutableRawPointer, path: String) throws -> OpaquePointer? {
        guard !dictionary.isEmpty else { return nil }
        guard let d = ZSTD_createDDict_byReference(base, dictionary.count) else {
            throw SnapshotError(file: path, "the dictionary could not be loaded")
        }
        return d
    }

    private static func allocate(_ dictionary: [UInt8], _ capacity: Int) -> UnsafeMutableRawPointer {
        let p = UnsafeMutableRawPointer.allocate(byteCount: dictionary.count + capacity, alignment: 64)
        p.bindMemory(to: UInt8.self, capacity: dictionary.count + capacity)  // frames are lent as bytes
        dictionary.withUnsafeBytes { if let d = $0.baseAddress { p.copyMemory(from: d, byteCount: $0.count) } }
        return p
    }
}
