/// A stage failure found after rejects were counted (a reject share passed): the runner writes
/// the rejects into the stage's kept folder before it reports the error, so the evidence the
/// message points at exists.
package struct FailureWithRejects: Error {
    package var error: TonightError
    /// The rejects file's content (NDJSON).
    package var rejects: [UInt8]

    package init(_ error: TonightError, rejects: [some EncodableRecord]) {
        self.error = error
        var e = RecordEncoder(json: JSONWriter(capacity: 1 << 12))
        for r in rejects {
            e.object(r)
            e.json.newline()
        }
        self.rejects = e.json.bytes
    }
}
