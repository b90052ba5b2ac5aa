import TonightCore

/// One resolved recommendation: `source` artist → `target` artist with `score` in [0, 1].
package struct AffinityEdge: Sendable, Equatable, BinaryRecord {
    package var source: Int64
    package var target: Int64
    package var score: Double

    package init(source: Int64, target: Int64, score: Double) {
        self.source = source
        self.target = target
        self.score = score
    }

    package static var schemaVersion: Int { 1 }

    /// `{"source":…,"target":…,"score":…}` in JSON (affinity.md).
    package func encode(to e: inout RecordEncoder) {
        e.field("source", source)
        e.field("target", target)
        e.field("score", score)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(source: try r.readInt64(), target: try r.readInt64(), score: try r.readDouble())
    }
}

/// A rejected line of the affinity file.
package struct AffinityReject: Sendable, Equatable, EncodableRecord {
    package var line: Int
    package var reason: String
    package var detail: String

    package func encode(to e: inout RecordEncoder) {
        e.field("line", line)
        e.field("reason", reason)
        e.field("detail", detail)
    }
}
