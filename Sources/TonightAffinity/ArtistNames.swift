/// The feed's artists as the affinity parser reads them: ids in feed order and their names
/// as one byte arena, filled straight from the artists table's bytes (no `String` per
/// artist: the 202,000 strings made to be copied into the arena at once were a third of
/// the stage's index and read phases).
package struct ArtistNames: Sendable {
    package private(set) var ids: [Int64] = []
    /// Name `i` is `bytes[starts[i]..<starts[i + 1]]`.
    private(set) var bytes: [UInt8] = []
    private(set) var starts: [Int] = [0]

    package init() {}

    /// From `(id, name)` pairs (tests, small inputs).
    package init(_ artists: [(id: Int64, name: String)]) {
        for a in artists {
            var name = a.name
            name.withUTF8 { append(id: a.id, name: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Adds an artist; `name` is its UTF-8 bytes.
    @inline(__always)
    package mutating func append(id: Int64, name: UnsafeRawBufferPointer) {
        ids.append(id)
        bytes.append(contentsOf: name)
        starts.append(bytes.count)
    }

    package var count: Int { ids.count }

    /// The range of name `i` in `bytes`.
    @inline(__always)
    func range(_ i: Int) -> Range<Int> { starts[i]..<starts[i + 1] }
}
