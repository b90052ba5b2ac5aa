import TonightBase

extension SnapshotManifest {
    /// How a dataset's keys are made, where the pipeline's settings decide it, so that a
    /// reader asks for keys the dataset can hold instead of finding nothing: `artist_suggest`
    /// and `event_search` hold prefixes of at most `maxPrefixScalars` Unicode scalars
    /// (`catalog.suggestMaxPrefix`); `nearby`, `open_sessions` and `planner` are keyed by
    /// geohash cells of `geohashLength` characters (`catalog.geohashPrecision`; a planner key
    /// is the cell, `/` and a date). `verify` checks every key against it.
    public struct KeyForm: Codable, Sendable, Equatable {
        /// The longest prefix, in Unicode scalars; nil when the keys are not prefixes.
        public var maxPrefixScalars: Int?
        /// The geohash cell length of every key; nil when the keys are not cells.
        public var geohashLength: Int?

        /// Creates a key form.
        public init(maxPrefixScalars: Int? = nil, geohashLength: Int? = nil) {
            self.maxPrefixScalars = maxPrefixScalars
            self.geohashLength = geohashLength
        }

        /// Why `key` (its decoded bytes) does not have this form, or nil when it does.
        func problem(with key: UnsafeBufferPointer<UInt8>) -> String? {
            if let n = maxPrefixScalars {
                // Scalars of valid UTF-8 (the record was decoded as such): the bytes that do
                // not continue a scalar.
                let scalars = key.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
                if scalars > n {
                    return "a prefix of \(scalars) Unicode scalars; the manifest's keyForm says at most \(n)"
                }
            }
            if let n = geohashLength {
                let cell = key.prefix { $0 != UInt8(ascii: "/") }
                if cell.count != n || !Geohash.isCell(cell) {
                    return "not a geohash cell of \(n) characters, which the manifest's keyForm says"
                }
            }
            return nil
        }
    }
}
