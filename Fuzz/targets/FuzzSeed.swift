/// An input a fuzz run starts from, made from the committed fixtures: `scripts/fuzz.sh` writes
/// every seed of a target into the corpus's seed directory (`fuzz-NAME --write-seeds DIR`), and
/// `FuzzTargetsTests` runs the same seeds through the target, so the two cannot drift apart.
package struct FuzzSeed: Sendable {
    /// What the seed is (its file name, made safe, in the seed directory).
    package var name: String
    /// The input as the target's `run` takes it.
    package var bytes: [UInt8]
    /// The least `reached` the seed must get to; nil for a seed that may be refused (the
    /// feed parser's hostile samples).
    package var least: Int?

    package init(name: String, bytes: [UInt8], least: Int?) {
        self.name = name
        self.bytes = bytes
        self.least = least
    }

    /// The seed's file name: its name with every byte other than a letter, a digit, `.` and
    /// `-` made `_`, after its position (so that two seeds never share a file).
    package func fileName(position: Int) -> String {
        let safe = name.utf8.map { b -> Character in
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"): Character(Unicode.Scalar(b))
            default: "_"
            }
        }
        return String(format: "%02d-", position) + String(safe)
    }
}
