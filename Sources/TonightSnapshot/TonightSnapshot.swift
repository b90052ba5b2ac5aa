/// The snapshot reader library for services (issue 5): this module is kept free of every
/// dependency but the toolchain and libzstd so that services can depend on it alone.
public enum TonightSnapshot {
    /// The snapshot format version this library reads.
    public static let formatVersion = 1
}
