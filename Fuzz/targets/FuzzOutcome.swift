/// How far one input got through a `FuzzTarget`.
package enum FuzzOutcome: Equatable, Sendable {
    /// The first parser it met refused it with an error.
    case refused
    /// It was accepted; `reached` counts what the later steps worked on (records parsed, people
    /// ranked, keys found: each target says what).
    case accepted(reached: Int)
}
