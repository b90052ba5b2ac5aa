import CZstd
import TonightSnapshot

/// A zstd dictionary trained on a dataset's own records, digested once for compression
/// (`ZSTD_CDict`, freed with the value). Its bytes are the dataset's `.dict` file: stock tools
/// decompress with `zstd -D FILE.dict`, and every frame names it by id in its header.
package final class CompressionDictionary: @unchecked Sendable {
    /// The dictionary as stored (zstd's format: magic, id, entropy tables, content).
    package let bytes: [UInt8]
    /// The id in its header and in every frame compressed with it.
    package let id: UInt32
    let cdict: OpaquePointer

    /// Digests `bytes` at `level`; nil when they are not a zstd dictionary.
    package init?(bytes: [UInt8], level: Int32) {
        guard let cdict = bytes.withUnsafeBytes({ ZSTD_createCDict($0.baseAddress, $0.count, level) }) else { return nil }
        self.bytes = bytes
        self.cdict = cdict
        id = bytes.withUnsafeBytes { ZDICT_getDictID($0.baseAddress, $0.count) }
    }

    deinit { ZSTD_freeCDict(cdict) }

    /// The training rule (deterministic: the same records give the same dictionary, so that a
    /// sharded night merges to the same bytes as a single run).
    package struct Training: Sendable, Equatable {
        /// Largest dictionary (`snapshot.dictionaryBytes`); 0: no dictionary.
        package var capacity: Int
        /// Samples at most `samplesPerByte` × capacity bytes of records, taken from the start
        /// of the dataset in key order (user ids are random, so that is a random sample of users).
        package static let samplesPerByte = 100
        /// No dictionary is trained on fewer sample bytes than this (it would not pay for its file).
        package static let minimumSampleBytes = 64 << 10

        package init(capacity: Int) { self.capacity = capacity }

        /// Sample bytes the writer holds back before it trains.
        package var sampleBytes: Int { capacity * Self.samplesPerByte }
    }

    /// Trains on `samples` (records, each ending in a newline, sizes in `sizes`): nil when
    /// there is too little to learn from or zstd's trainer declines.
    ///
    /// fastCover with fixed parameters (d 8, k 1024, f 18, accel 1): one pass over the samples,
    /// ~10× faster than zstd's default parameter search, for a dictionary within ~1 % of its ratio
    /// on these records (`tonight-bench frames`). f 18 (a 1 MiB frequency table, which stays in
    /// a core's L2 cache) rather than zstd's default 20 (4 MiB): on the 21 trained datasets of
    /// realistic `full` training took 2.0 instead of 2.9 CPU-s and the files came out 0.26 %
    /// smaller in all (each within ±0.8 %).
    package static func train(samples: [UInt8], sizes: [Int], training: Training, level: Int32) -> CompressionDictionary? {
        guard training.capacity > 0, samples.count >= Training.minimumSampleBytes, sizes.count >= 16 else { return nil }
        let capacity = min(training.capacity, samples.count / 16)
        var dictionary = [UInt8](repeating: 0, count: capacity)
        var params = ZDICT_fastCover_params_t()
        params.k = 1024
        params.d = 8
        params.f = 18
        params.accel = 1
        params.steps = 0
        params.nbThreads = 1
        params.zParams.compressionLevel = level
        params.zParams.notificationLevel = 0
        params.zParams.dictID = 0
        let n = samples.withUnsafeBytes { s in
            dictionary.withUnsafeMutableBytes { d in
                ZDICT_trainFromBuffer_fastCover(d.baseAddress, d.count, s.baseAddress, sizes, UInt32(sizes.count), params)
            }
        }
        guard ZDICT_isError(n) == 0, n > 0 else { return nil }
        dictionary.removeLast(dictionary.count - n)
        return CompressionDictionary(bytes: dictionary, level: level)
    }
}
