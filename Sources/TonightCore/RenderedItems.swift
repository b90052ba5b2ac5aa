/// JSON items rendered once each, by index, back to back in one buffer: for datasets whose
/// lists repeat the same item (an event in every list that takes it), a list copies the
/// item's bytes (`JSONWriter.raw(_:_:)`) instead of writing its fields again, and no item has
/// an array of its own (a header to miss in the cache at every use).
@usableFromInline
package struct RenderedItems: Sendable {
    // Inlinable (with what it touches), so that a list copying an item already rendered
    // costs two loads here, not a call into this module per item.
    @usableFromInline var writer = JSONWriter(capacity: 1 << 12)
    @usableFromInline var starts: [Int]
    @usableFromInline var ends: [Int]

    /// Room for items `0..<count`, none rendered yet.
    package init(count: Int) {
        starts = [Int](repeating: -1, count: count)
        ends = starts
    }

    /// Every item rendered so far; item `i` is `bytes[range(i)]`.
    @inlinable package var bytes: [UInt8] { writer.bytes }

    /// Item `i`'s bytes, rendered by `render` the first time it is asked for: a JSON value,
    /// or the start of an object that each list completes.
    @discardableResult @inlinable
    package mutating func range(_ i: Int, render: (inout JSONWriter) -> Void) -> Range<Int> {
        if ends[i] < 0 {
            starts[i] = writer.bytes.count
            render(&writer)
            ends[i] = writer.bytes.count
            writer.endRecord()  // the next item takes no comma
        }
        return starts[i]..<ends[i]
    }

    /// Item `i`'s bytes; it must have been rendered.
    @inlinable package func range(_ i: Int) -> Range<Int> {
        precondition(ends[i] >= 0, "item \(i) was never rendered")
        return starts[i]..<ends[i]
    }
}
