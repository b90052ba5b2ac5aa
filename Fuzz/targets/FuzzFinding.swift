/// A broken invariant found by a `FuzzTarget` (two paths that must agree and did not, a
/// record that is not the JSON it should be): a bug, never an input error.
package struct FuzzFinding: Error, CustomStringConvertible {
    /// The target that found it.
    package var target: String
    /// What did not hold.
    package var message: String

    package init(_ target: String, _ message: String) {
        self.target = target
        self.message = message
    }

    package var description: String { "fuzz target \(target): \(message)" }
}
