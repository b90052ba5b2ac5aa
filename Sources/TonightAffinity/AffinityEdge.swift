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

    package func encode(to w: inout BinaryWriter) {
        w.write(source)
        w.write(target)
        w.write(score)
    }

    package init(from r: inout BinaryReader) throws {
        self.init(source: try r.readInt64(), target: try r.readInt64(), score: try r.readDouble())
    }

    /// `{"source":…,"target":…,"score":…}` (affinity.md).
    package func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.field("source", source)
        w.field("target", target)
        w.field("score", score)
        w.endObject()
    }
}

/// A rejected line of the affinity file.
package struct AffinityReject: Sendable, Equatable {
    package var line: Int
    package var reason: String
    package var detail: String

    package func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.field("line", line)
        w.field("reason", reason)
        w.field("detail", detail)
        w.endObject()
    }
}
