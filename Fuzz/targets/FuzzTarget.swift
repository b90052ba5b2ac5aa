import Foundation

/// The body of a libFuzzer target: what one input is run through, and what must hold for it.
///
/// The bodies are part of the ordinary build, not only of the `TONIGHT_FUZZ=1` one (where
/// `Fuzz/<name>/main.swift` hands a body to libFuzzer's driver), so that they compile with
/// every change to the code they reach, and `FuzzTargetsTests` runs each on its seeds (which
/// must get through to the code under test) and on mutations of them, in CI.
package protocol FuzzTarget {
    /// The target's name: `scripts/fuzz.sh NAME`, `Fuzz/NAME/`.
    static var name: String { get }
    /// Sets the target up once per process; `scratch` is a directory of its own for the
    /// files an input is written to.
    init(scratch: URL) throws
    /// Runs one input. An input the parsers refuse with an error is `.refused` (the clear-error
    /// path, not a finding); a broken invariant throws a `FuzzFinding`; a trap is a finding too
    /// (libFuzzer keeps the input).
    func run(_ input: UnsafeBufferPointer<UInt8>) throws -> FuzzOutcome
    /// The inputs a fuzz run starts from, each with what it must reach (`FuzzTargetsTests`
    /// holds every seed to it): the one definition `scripts/fuzz.sh` and the tests share.
    static func seeds(_ sources: FuzzSeedSources) throws -> [FuzzSeed]
}

extension FuzzTarget {
    /// Writes `bytes` to `url`: a scratch file failing to be written is the machine's fault,
    /// not the input's, so it stops the run.
    static func write(_ bytes: some Collection<UInt8>, to url: URL) throws {
        try Data(bytes).write(to: url)
    }

    /// Removes the scratch file at `url` when it is there.
    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}
